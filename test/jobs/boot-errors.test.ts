import {
  Cron,
  DatabaseModule,
  Injectable,
  Job,
  Jobs,
  JobsModule,
  Module,
  createApplication,
  type Class,
} from 'keel';
import { describeNeeding } from '../factories/requirements';
import { mariadbMissing, mariadbUrl } from '../factories/test-databases';

@Injectable()
class Mailer {
  @Job('send-welcome') sendWelcome() {}
}

@Injectable()
class OtherMailer {
  @Job('send-welcome') alsoSendWelcome() {}
}

@Injectable()
class PriorityMailer extends Mailer {}

@Injectable()
class BadSchedule {
  @Cron('every minute please') sweep() {}
}

@Injectable()
class SecondsSchedule {
  @Cron('*/1 * * * * *') sweep() {}
}

function boot(imports: unknown[], providers: Class[]) {
  @Module({ imports: imports as Class[], providers })
  class AppModule {}
  return createApplication(AppModule, { logger: false, handleSignals: false });
}

const withJobs = () => [
  DatabaseModule.forRoot({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' }),
  JobsModule.forRoot(),
];

// Every boot below fails before anything connects: none needs a database that answers.
describe('JobsModule boot errors', () => {
  test('two @Job handlers with one name name both', async () => {
    await expect(boot(withJobs(), [Mailer, OtherMailer])).rejects.toThrow(
      "E_DUPLICATE_JOB: two handlers for the job 'send-welcome': Mailer.sendWelcome and OtherMailer.alsoSendWelcome",
    );
  });

  test('an invalid cron expression names the method and what is wrong', async () => {
    await expect(boot(withJobs(), [BadSchedule])).rejects.toThrow(
      /E_INVALID_JOB: @Cron\('every minute please'\) on BadSchedule\.sweep: /,
    );
  });

  test('a cron expression with seconds is refused: schedules run at most once a minute', async () => {
    await expect(boot(withJobs(), [SecondsSchedule])).rejects.toThrow(/once a minute: give five fields/);
  });

  // Mailer, OtherMailer and the schedules above are defined in this process and not provided here:
  // only the application's providers count, so neither their duplicate name nor their bad cron matters.
  test("classes with @Job or @Cron that no module provides leave the boot alone; a provided subclass brings its parent's @Job", async () => {
    const app = await boot(withJobs(), [PriorityMailer]);
    try {
      await expect(app.get(Jobs).enqueue('nope')).rejects.toThrow('(handlers: send-welcome)');
    } finally {
      await app.close();
    }
  });

  test('a concurrency that is not a whole number from 1 to 100 names the job and the limit', async () => {
    for (const concurrency of [0, 2.5, 101]) {
      @Injectable()
      class Greedy {
        @Job('greedy', { concurrency }) run() {}
      }
      await expect(boot(withJobs(), [Greedy])).rejects.toThrow(
        `E_INVALID_JOB: @Job('greedy') on Greedy.run: concurrency is ${concurrency}; it must be a whole number from 1 to 100`,
      );
    }
  });

  test('JobsModule without DatabaseModule or a url says what to import', async () => {
    await expect(boot([JobsModule.forRoot()], [Mailer])).rejects.toThrow(
      /E_JOBS_NO_DATABASE: .*Fix: import DatabaseModule\.forRoot/s,
    );
  });

  test('an option of the wrong kind names the option', () => {
    expect(() => JobsModule.forRoot({ schema: 'Robert; DROP TABLE' })).toThrow(
      /E_INVALID_JOBS_OPTION: .*schema/,
    );
    expect(() => JobsModule.forRoot({ url: 'mysql://root@localhost/x' })).toThrow(/url .*postgres:\/\/ URL/);
    expect(() => JobsModule.forRoot({ cronCheckIntervalS: 0 })).toThrow(/cronCheckIntervalS/);
    // pg-boss takes no heartbeat under 10 s.
    for (const heartbeatTimeoutS of [5, 12.5, 301]) {
      expect(() => JobsModule.forRoot({ heartbeatTimeoutS })).toThrow(
        `E_INVALID_JOBS_OPTION: JobsModule option heartbeatTimeoutS is ${heartbeatTimeoutS}; it must be a whole number of seconds from 10 to 300.`,
      );
    }
  });
});

describeNeeding(mariadbMissing(), 'JobsModule on MariaDB', () => {
  test('is refused at boot, naming the database and the fix', async () => {
    const imports = [DatabaseModule.forRoot({ type: 'mysql', url: mariadbUrl() }), JobsModule.forRoot()];
    await expect(boot(imports, [Mailer])).rejects.toThrow(
      /E_JOBS_NOT_POSTGRES: .* is mysql\..*JobsModule\.forRoot\(\{ url/s,
    );
  });
});
