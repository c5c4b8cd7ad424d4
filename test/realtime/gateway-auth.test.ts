import { ConnectedSocket, CurrentUser, Gateway, OnConnect, type AuthUser, type RealtimeSocket } from 'keel';
import { ADA, GRACE, startAuthReplica, type AuthReplica } from '../factories/auth-app';
import { openFormSession } from '../factories/form-session';
import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';
import { connect, Refused } from './ws-client';

jest.setTimeout(60_000);

// Open to whoever the application's default strategies (session, then API token) recognise.
@Gateway('/ws/me')
class WhoAmIGateway {
  @OnConnect()
  hello(@ConnectedSocket() socket: RealtimeSocket, @CurrentUser() user: AuthUser) {
    socket.send('hello', { user, socketUser: socket.user });
  }
}

const UNAUTHENTICATED = new Refused(401, '{"error":"unauthenticated"}');

describe('a gateway behind session() and apiTokens(): the upgrade is authenticated as a request is', () => {
  let database: ScratchDatabase;
  let replica: AuthReplica;
  const wsUrl = () => `${replica.url.replace('http://', 'ws://')}/ws/me`;

  beforeAll(async () => {
    database = await createScratchDatabase(postgresUrl());
    replica = await startAuthReplica(database.url, { providers: [WhoAmIGateway] });
  });

  afterAll(async () => {
    await replica?.app.close();
    await database?.drop();
  });

  test('an upgrade without credentials is refused 401, never upgraded', async () => {
    await expect(connect(wsUrl())).rejects.toEqual(UNAUTHENTICATED);
    const anonymous = await openFormSession(replica.url, '/login');
    await expect(connect(wsUrl(), { cookie: anonymous.cookie })).rejects.toEqual(UNAUTHENTICATED);
  });

  test('the session cookie of a real login opens the gateway as the logged-in user; after logout the same cookie is refused 401', async () => {
    const browser = await openFormSession(replica.url, '/login');
    expect((await browser.post('/login', { user: ADA.id })).status).toBe(201);
    const loggedIn = browser.cookie;
    const client = await connect(wsUrl(), { cookie: loggedIn });
    expect((await client.next('hello')).data).toEqual({ user: ADA, socketUser: ADA });
    client.ws.close();
    await client.closed;

    // The login renewed the session: the next page carries its form's token.
    await browser.load('/login');
    expect((await browser.post('/logout', {})).status).toBe(204);
    await expect(connect(wsUrl(), { cookie: loggedIn })).rejects.toEqual(UNAUTHENTICATED);
  });

  test('an API token as a bearer header opens the gateway as its user; once revoked it is refused 401', async () => {
    const { id, token } = await replica.auth.tokens.issue(GRACE, { name: 'gateway' });
    const authorization = `Bearer ${token}`;
    const client = await connect(wsUrl(), { authorization });
    expect((await client.next('hello')).data).toEqual({ user: GRACE, socketUser: GRACE });
    client.ws.close();
    await client.closed;

    expect(await replica.auth.tokens.revoke(id)).toBe(true);
    await expect(connect(wsUrl(), { authorization })).rejects.toEqual(UNAUTHENTICATED);
  });
});
