import { closeAll, dataSourceFor, startHealthApp } from '../factories/health';
import { describeNeeding } from '../factories/requirements';
import { postgresBinDir, useScratchPostgres } from '../factories/scratch-postgres';

jest.setTimeout(15_000);

afterEach(() => closeAll());

// The PostgreSQL the rest of the suite uses trusts every connection, so a wrong password cannot fail
// there: these tests start a server of their own that checks passwords.
const binDir = postgresBinDir();

describeNeeding(
  binDir ? undefined : 'no initdb under /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)',
  'readiness against a PostgreSQL that checks passwords',
  () => {
    const server = useScratchPostgres(binDir ?? '');

    test('a wrong password is 503 with "password authentication failed for user"', async () => {
      const { url, user } = server();
      const health = await startHealthApp(() => dataSourceFor(url('wrong')), { timeoutMs: 3000 });

      const answer = await health.probe();

      expect(answer).toMatchObject({
        status: 503,
        json: { status: 'error', db: `password authentication failed for user "${user}"` },
        cacheControl: 'no-store',
      });
    });

    test('the right password is 200 {"status":"ready","db":"connected"}', async () => {
      const dataSource = dataSourceFor(server().url());
      const health = await startHealthApp(() => dataSource, { timeoutMs: 3000 });

      const answer = await health.probe();

      expect(answer).toMatchObject({ status: 200, json: { status: 'ready', db: 'connected' } });
    });
  },
);
