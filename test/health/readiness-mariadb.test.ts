import { closeAll, dataSourceFor, startHealthApp } from '../factories/health';
import { describeReadinessAgainst } from '../factories/readiness-dialects';
import { describeNeeding } from '../factories/requirements';
import { DEFAULT_MARIADB_URL, mariadbMissing, mariadbUrl, withUrlParts } from '../factories/test-databases';

jest.setTimeout(15_000);

describeReadinessAgainst({
  name: 'MariaDB',
  url: mariadbUrl(),
  missing: mariadbMissing(),
  missingDatabaseReason: (database) => `Unknown database '${database}'`,
});

// The default is never used: the block does not run when no MariaDB server answers.
const serverUrl = mariadbUrl() ?? DEFAULT_MARIADB_URL;

describeNeeding(mariadbMissing(), 'readiness against a MariaDB that refuses the login', () => {
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
