import net from 'node:net';
import { SignJWT } from 'jose';
import { IsString, MaxLength } from 'class-validator';
import {
  AuthModule,
  ConnectedSocket,
  Controller,
  CurrentUser,
  Gateway,
  Get,
  MessageBody,
  MetricsModule,
  Module,
  OnConnect,
  OnDisconnect,
  OnMessage,
  Public,
  UseGuards,
  jwt,
  type AuthUser,
  type CanActivate,
  type Context,
  type RealtimeSocket,
} from 'keel';
import { useServedApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { scrape } from '../factories/metrics';
import { connect, Refused } from './ws-client';

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!!';

class Say {
  @IsString()
  @MaxLength(20)
  text!: string;
}

const disconnected: string[] = [];

@Gateway('/ws/chat', { maxPayload: 1024 })
class ChatGateway {
  @OnConnect()
  hello(@ConnectedSocket() socket: RealtimeSocket, @CurrentUser() user: AuthUser) {
    socket.send('hello', { id: socket.id, user: user.name });
  }

  @OnMessage('say')
  say(@MessageBody() msg: Say, @CurrentUser() user: AuthUser) {
    return { by: user.name, text: msg.text };
  }

  @OnMessage('fail')
  fail() {
    throw new Error('a bug in the gateway');
  }

  @OnDisconnect()
  bye(@ConnectedSocket() socket: RealtimeSocket) {
    disconnected.push(socket.id);
  }
}

class NoVisitorGuard implements CanActivate {
  canActivate(ctx: Context) {
    return ctx.req.get('x-visitor') === undefined;
  }
}

@Public()
@UseGuards(NoVisitorGuard)
@Gateway('/ws/lobby')
class LobbyGateway {
  @OnMessage('ping')
  ping(@ConnectedSocket() socket: RealtimeSocket) {
    return { user: socket.user ?? null };
  }
}

// A plain route: an upgrade to its path must not reach it.
const plainGets: string[] = [];
@Public()
@Controller('plain')
class PlainController {
  @Get()
  show() {
    plainGets.push('show');
    return { plain: true };
  }
}

@Module({
  imports: [
    AuthModule.forRoot({
      default: 'jwt',
      strategies: { jwt: jwt({ secret: SECRET }) },
      user: { useFactory: () => (claims) => ({ id: claims.sub, name: `user-${claims.sub}` }) },
    }),
    MetricsModule.forRoot(),
  ],
  controllers: [PlainController],
  providers: [ChatGateway, LobbyGateway],
})
class AppModule {}

const served = useServedApp(AppModule);
const wsUrl = (path: string) => served().url.replace('http://', 'ws://') + path;

function token(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
}

async function authorized(): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await token('7')}` };
}

// The raw answer to an upgrade request, as the server wrote it, and whether the socket was then closed.
function rawUpgrade(path: string, headers: Record<string, string> = {}): Promise<string> {
  const { port } = new URL(served().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    const lines = Object.entries({
      host: 'localhost',
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      ...headers,
    }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  });
}

describe('@Gateway: WebSockets on the application port', () => {
  test('an authenticated client connects, and a valid frame is answered with the same event', async () => {
    const client = await connect(wsUrl('/ws/chat'), await authorized());
    const hello = await client.next('hello');
    expect(hello.data).toEqual({ id: expect.any(String), user: 'user-7' });
    client.send('say', { text: 'hi' });
    expect((await client.next('say')).data).toEqual({ by: 'user-7', text: 'hi' });
    client.ws.close();
    await client.closed;
    await eventually(() => disconnected.includes((hello.data as { id: string }).id), { within: 5_000 });
  });

  test('an upgrade without credentials is refused 401 in plain HTTP, never upgraded', async () => {
    const answer = await rawUpgrade('/ws/chat');
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/www-authenticate: Bearer/i);
    expect(answer).not.toMatch(/101 Switching/);
    await expect(connect(wsUrl('/ws/chat'))).rejects.toEqual(new Refused(401, '{"error":"unauthenticated"}'));
  });

  test('a guard that refuses the upgrade answers 403; @Public() opens the gateway to anonymous clients', async () => {
    await expect(connect(wsUrl('/ws/lobby'), { 'x-visitor': '1' })).rejects.toMatchObject({ status: 403 });
    const client = await connect(wsUrl('/ws/lobby'));
    client.send('ping');
    expect((await client.next('ping')).data).toEqual({ user: null });
    client.ws.close();
  });

  test('an upgrade to a path no gateway serves is 404 and the socket is closed; a plain GET of a gateway is 426', async () => {
    const answer = await rawUpgrade('/ws/nowhere');
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toContain('"error":"not found"');
    const plain = await fetch(`${served().url}/ws/lobby`);
    expect(plain.status).toBe(426);
    // A path a controller serves as a GET is no gateway's either: the upgrade never reaches it.
    expect(await rawUpgrade('/plain')).toMatch(/^HTTP\/1\.1 404 /);
    expect(plainGets).toEqual([]);
    expect(await (await fetch(`${served().url}/plain`)).json()).toEqual({ plain: true });
    expect(plainGets).toEqual(['show']);
  });

  test('a bad frame gets an error frame and the socket stays open', async () => {
    const client = await connect(wsUrl('/ws/chat'), await authorized());
    client.ws.send('not json');
    expect((await client.next('error')).data).toEqual({ error: 'malformed JSON frame' });
    client.ws.send(Buffer.from('{"event":"say"}'), { binary: true });
    expect((await client.next('error')).data).toEqual({
      error: 'frames are JSON text: { "event": "...", "data": ... }',
    });
    client.ws.send('["say"]');
    expect((await client.next('error')).data).toEqual({
      error: 'a frame is { "event": "...", "data": ... }',
    });
    client.send('shout', { text: 'x' });
    expect((await client.next('error')).data).toEqual({ error: "unknown event 'shout'" });
    client.send('say', { text: 'x'.repeat(30) });
    expect((await client.next('error')).data).toEqual({
      error: 'validation failed',
      fields: { text: [expect.stringContaining('20')] },
    });
    client.send('fail');
    expect((await client.next('error')).data).toEqual({ error: 'internal server error' });
    client.send('say', { text: 'still here' });
    expect((await client.next('say')).data).toEqual({ by: 'user-7', text: 'still here' });
    client.ws.close();
  });

  test('a frame over maxPayload closes the socket 1009', async () => {
    const client = await connect(wsUrl('/ws/chat'), await authorized());
    client.send('say', { text: 'x'.repeat(2048) });
    expect((await client.closed).code).toBe(1009);
  });

  test('metrics count open connections and the frames in and out', async () => {
    const client = await connect(wsUrl('/ws/lobby'));
    client.send('ping');
    await client.next('ping');
    const samples = await scrape(`${served().url}/metrics`);
    const value = (name: string, label: string, labelValue: string) =>
      samples.find((sample) => sample.name === name && sample.labels[label] === labelValue)?.value;
    expect(value('keel_realtime_connections', 'kind', 'websocket')).toBeGreaterThanOrEqual(1);
    expect(value('keel_realtime_messages_total', 'direction', 'in')).toBeGreaterThanOrEqual(1);
    expect(value('keel_realtime_messages_total', 'direction', 'out')).toBeGreaterThanOrEqual(1);
    // Without RealtimeModule there is no event stream of Broadcast to count.
    expect(samples.some((sample) => sample.labels.kind === 'sse')).toBe(false);
    client.ws.close();
  });
});
