import { createHash } from 'node:crypto';
import { ADA, GRACE, useTwoAuthReplicas, type AuthReplica } from '../factories/auth-app';
import { eventually } from '../factories/eventually';

jest.setTimeout(60_000);

interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  abilities: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
}

describe('apiTokens(): two replicas, one database', () => {
  const replicas = useTwoAuthReplicas();

  const me = async (replica: AuthReplica, token: string) => {
    const res = await fetch(`${replica.url}/me`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.text(), challenge: res.headers.get('www-authenticate') };
  };
  const rows = () => replicas.database.query<TokenRow>('SELECT * FROM keel_api_tokens ORDER BY created_at');

  test('a token is shown once and stored only as its hash', async () => {
    const { id, token } = await replicas.a.auth.tokens.issue(ADA, {
      name: 'CI deploys',
      abilities: ['orders:read'],
    });
    expect(token).toMatch(/^keel_[A-Za-z0-9_-]{43}$/);
    const [row] = (await rows()).filter((each) => each.id === id);
    expect(row).toMatchObject({
      user_id: '1',
      name: 'CI deploys',
      abilities: ['orders:read'],
      revoked_at: null,
    });
    expect(JSON.stringify(await replicas.database.query('SELECT * FROM keel_api_tokens'))).not.toContain(
      token.slice(5),
    );
    expect(row?.token_hash).toBe(createHash('sha256').update(token).digest('base64url'));
  });

  test('a token opens both replicas and its last_used_at is written', async () => {
    const { id, token } = await replicas.a.auth.tokens.issue(GRACE, { name: 'laptop' });
    expect((await rows()).find((row) => row.id === id)?.last_used_at).toBeNull();
    const before = new Date();
    for (const replica of [replicas.a, replicas.b]) {
      const answer = await me(replica, token);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ id: '2', name: 'Grace' });
    }
    const used = (await rows()).find((row) => row.id === id)?.last_used_at;
    expect(used?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  test('revoked on replica A, refused on replica B at its next request', async () => {
    const { id, token } = await replicas.a.auth.tokens.issue(ADA, { name: 'to revoke' });
    expect((await me(replicas.b, token)).status).toBe(200);
    expect(await replicas.a.auth.tokens.revoke(id)).toBe(true);
    const answer = await me(replicas.b, token);
    expect(answer.status).toBe(401);
    expect(answer.body).toBe('{"error":"unauthenticated"}');
    expect(answer.challenge).toBe('Cookie name="keel.session", Bearer');
    await eventually(
      () => replicas.b.log.entries().some((entry) => entry.msg === 'authentication failed: revoked'),
      {
        within: 2000,
      },
    );
    expect(await replicas.a.auth.tokens.revoke(id)).toBe(false);
  });

  test('an unknown token and an expired one are 401, each reason logged', async () => {
    const { token } = await replicas.a.auth.tokens.issue(ADA, {
      name: 'old',
      expiresAt: new Date(Date.now() - 1000),
    });
    expect((await me(replicas.a, token)).status).toBe(401);
    expect((await me(replicas.a, `keel_${'x'.repeat(43)}`)).status).toBe(401);
    const reasons = replicas.a.log.entries().map((entry) => entry.msg);
    expect(reasons).toEqual(
      expect.arrayContaining(['authentication failed: expired', 'authentication failed: unknown_token']),
    );
  });
});
