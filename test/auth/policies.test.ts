import { createScratchDatabase, type ScratchDatabase } from '../factories/scratch-database';
import { postgresUrl } from '../factories/test-databases';
import { ADA, Article, GRACE, policyCalls, startAuthReplica, type AuthReplica } from '../factories/auth-app';

jest.setTimeout(60_000);

describe('@Can and @Policy', () => {
  let database: ScratchDatabase;
  let app: AuthReplica;
  let adaToken: string;
  let articleId: number;

  beforeAll(async () => {
    database = await createScratchDatabase(postgresUrl());
    app = await startAuthReplica(database.url);
    adaToken = (await app.auth.tokens.issue(ADA, { name: 'ada' })).token;
    const [row] = await database.query<{ id: number }>(
      "INSERT INTO articles (author_id, title) VALUES ('2', 'Grace''s') RETURNING id",
    );
    articleId = Number(row?.id);
  });
  afterAll(async () => {
    await app?.app.close();
    await database?.drop();
  });

  const update = (id: number | string, token: string) =>
    fetch(`${app.url}/articles/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } }).then(
      async (res) => ({ status: res.status, body: await res.text() }),
    );

  test("another user's record is 403 forbidden", async () => {
    expect(await update(articleId, adaToken)).toEqual({ status: 403, body: '{"error":"forbidden"}' });
  });

  test("the author's own record reaches the handler", async () => {
    const { token } = await app.auth.tokens.issue(GRACE, { name: 'grace' });
    expect(await update(articleId, token)).toEqual({ status: 200, body: '{"updated":true}' });
  });

  test('a missing record is 404 before the policy runs', async () => {
    const before = policyCalls.count;
    expect(await update(987654, adaToken)).toEqual({ status: 404, body: '{"error":"not found"}' });
    expect(policyCalls.count).toBe(before);
  });

  test('auth.can asks the same policy', async () => {
    const article = Object.assign(new Article(), { id: 1, authorId: '1', title: 'mine' });
    expect(await app.auth.can(ADA, 'update', article)).toBe(true);
    expect(await app.auth.can(GRACE, 'update', article)).toBe(false);
  });

  test('without credentials, 401 comes before any record is loaded', async () => {
    const res = await fetch(`${app.url}/articles/987654`, { method: 'PUT' });
    expect(res.status).toBe(401);
  });
});
