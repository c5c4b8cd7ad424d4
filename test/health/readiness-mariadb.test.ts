import { closeAll, dataSourceFor, startHealthApp } from '../factories/health';
import { DEFAULT_MARIADB_URL, mariadbUrl, withUrlParts } from '../factories/test-databases';
import { describeReadinessAgainst } from './dialect-cases';

jest.setTimeout(15_000);

describeReadinessAgainst({
  name: 'MariaDB',
  url: mariadbUrl(),
  missingDatabaseReason: (database) => `Unknown database '${database}'`,
});

// The default is never used: the block is skipped when no MariaDB server answers.
const serverUrl = mariadbUrl() ?? DEFAULT_MARIADB_URL;

(mariadbUrl() ? describe : describe.skip)('readiness against a MariaDB that refuses the login', () => {
  afterEach(() => closeAll());

  test('a wrong password is 503 with the server\'s "Access denied" reason', async () => {
    const url = withUrlParts(serverUrl, { user: 'root', password: 'wrong' });
    const health = await startHealthApp(() => dataSourceFor(url));

    const answer = await health.probe();

    expect(answer).toMatchObject({
      status: 503,
      json: {
        status: 'error',
        db: `Access denied for user 'root'@'127.0.0.1' (using password: YES)`,
      },
    });
  });
});
