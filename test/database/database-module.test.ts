import { Column, DataSource, Entity, PrimaryGeneratedColumn, type Repository } from 'typeorm';
import {
  DatabaseModule,
  Injectable,
  InjectRepository,
  Module,
  type Application,
  type DatabaseConnectOptions,
  type ModuleMetadata,
} from 'keel';
import { repositoryToken } from '../../src/database/inject-repository';
import { bootApp } from '../factories/app';
import { eventually } from '../factories/eventually';
import { captureLog, type LogCapture } from '../factories/log';
import { PostgresProxy, type ProxyMode } from '../factories/postgres-proxy';
import { postgresUrl } from '../factories/test-databases';

jest.setTimeout(20_000);

const apps: Application[] = [];
const proxies: PostgresProxy[] = [];
afterEach(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function boot(metadata: ModuleMetadata, log: LogCapture = captureLog()): Promise<Application> {
  @Module(metadata)
  class AppModule {}
  const app = await bootApp(AppModule, { handleSignals: false, logger: log.logger });
  apps.push(app);
  return app;
}

async function proxy(mode: ProxyMode): Promise<PostgresProxy> {
  const started = await PostgresProxy.start(postgresUrl(), mode);
  proxies.push(started);
  return started;
}

function logged(log: LogCapture, msg: string): Record<string, unknown>[] {
  return log.entries().filter((entry) => entry.msg === msg) as unknown as Record<string, unknown>[];
}

@Entity({ name: 'keel_database_module_notes' })
class Note {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column()
  text!: string;
}

@Injectable()
class NoteService {
  constructor(@InjectRepository(Note) readonly notes: Repository<Note>) {}
}

/** How {@link bootDatabase} sets DatabaseModule up. */
interface DatabaseSetup {
  readonly log?: LogCapture;
  readonly connect?: DatabaseConnectOptions;
  readonly connectTimeoutMS?: number;
}

/** An application importing only DatabaseModule.forRoot for the PostgreSQL at `url`. */
function bootDatabase(url: string, setup: DatabaseSetup = {}): Promise<Application> {
  const options = { type: 'postgres' as const, url, connectTimeoutMS: setup.connectTimeoutMS };
  return boot({ imports: [DatabaseModule.forRoot(options, setup.connect)] }, setup.log);
}

describe('DatabaseModule.forRoot', () => {
  test('connects in the background after boot', async () => {
    const log = captureLog();
    const app = await bootDatabase(postgresUrl(), { log });
    const dataSource = app.get(DataSource);

    await eventually(() => dataSource.isInitialized, { within: 5000, what: 'the connection' });

    expect(logged(log, 'database connected')).toEqual([
      expect.objectContaining({ db: 'postgres', attempt: 1 }),
    ]);
  });

  test('boots at once while the database is down, retries with capped exponential backoff, and connects when it comes up', async () => {
    const database = await proxy('down');
    const log = captureLog();
    const startedAt = performance.now();
    const app = await boot(
      {
        imports: [
          DatabaseModule.forRoot(async () => ({ type: 'postgres', url: database.url }), {
            initialDelayMs: 20,
            maxDelayMs: 80,
          }),
        ],
      },
      log,
    );
    const bootMs = performance.now() - startedAt;
    const dataSource = app.get(DataSource);

    await eventually(() => logged(log, 'database connection failed; retrying').length >= 5, {
      within: 5000,
      what: 'five failed attempts',
    });
    expect(bootMs).toBeLessThan(1000);
    expect(dataSource.isInitialized).toBe(false);
    const delays = logged(log, 'database connection failed; retrying').map((entry) => entry.retryInMs);
    expect(delays.slice(0, 5)).toEqual([20, 40, 80, 80, 80]);

    await database.setMode('forward');
    await eventually(() => dataSource.isInitialized, { within: 5000, what: 'the connection' });
    expect(logged(log, 'database connected')).toHaveLength(1);
  });

  test('boots at once against a database that accepts TCP and never answers, and gives up each attempt at the connect timeout', async () => {
    const database = await proxy('blackhole');
    const log = captureLog();
    const startedAt = performance.now();
    const app = await bootDatabase(database.url, { log });
    expect(performance.now() - startedAt).toBeLessThan(1000);

    // No connectTimeoutMS in the options: the default (5 s) must end the attempt, not pg's "forever".
    await eventually(() => logged(log, 'database connection failed; retrying').length > 0, {
      within: 8000,
      what: 'the first failed attempt',
    });
    const failedAfterMs = performance.now() - startedAt;
    expect(failedAfterMs).toBeGreaterThan(4500);
    expect(app.get(DataSource).isInitialized).toBe(false);
  });

  test('abandons an attempt stuck on a server that accepted the login and stopped answering, and retries', async () => {
    const database = await proxy('hold-queries');
    const log = captureLog();
    const app = await bootDatabase(database.url, {
      log,
      connect: { attemptTimeoutMs: 300, initialDelayMs: 20, maxDelayMs: 20 },
    });

    await eventually(() => logged(log, 'database connection failed; retrying').length >= 2, {
      within: 5000,
      what: 'two abandoned attempts',
    });
    const [first] = logged(log, 'database connection failed; retrying');
    expect(first).toMatchObject({
      // pino appends the cause: the driver's "Connection terminated" once the connection was closed.
      err: { message: expect.stringMatching(/^connecting took longer than attemptTimeoutMs \(300 ms\)/) },
    });

    await database.setMode('forward');
    await eventually(() => logged(log, 'database connected').length > 0, {
      within: 5000,
      what: 'the connection',
    });
    expect(app.get(DataSource).isInitialized).toBe(true);
  });

  test('a shutdown while an attempt is stuck after the login finishes at once', async () => {
    const database = await proxy('hold-queries');
    const app = await bootDatabase(database.url);
    await eventually(() => database.heldQueries > 0, { within: 5000, what: 'the login' });

    const startedAt = performance.now();
    await app.close();

    expect(performance.now() - startedAt).toBeLessThan(1000);
  });

  test('a shutdown while the pool is still opening returns at once, and closes what opens later', async () => {
    const database = await proxy('blackhole');
    const log = captureLog();
    const app = await bootDatabase(database.url, { log });
    const dataSource = app.get(DataSource);
    // Connecting starts on the event loop's next turn, once app.run() could say it runs a command.
    await eventually(() => database.openConnections > 0, { within: 5000, what: 'the pool to start opening' });

    const startedAt = performance.now();
    await app.close();
    const closeMs = performance.now() - startedAt;
    await database.setMode('forward');

    await eventually(() => logged(log, 'database connection closed').length > 0, {
      within: 5000,
      what: 'the late connection to be closed',
    });
    expect(closeMs).toBeLessThan(1000);
    expect(dataSource.isInitialized).toBe(false);
    expect(logged(log, 'database connected')).toHaveLength(0);
  });

  test('a connect timeout set in the options is kept', async () => {
    const database = await proxy('blackhole');
    const log = captureLog();
    const startedAt = performance.now();
    await bootDatabase(database.url, { log, connectTimeoutMS: 200 });

    await eventually(() => logged(log, 'database connection failed; retrying').length > 0, {
      within: 3000,
      what: 'the first failed attempt',
    });
    expect(performance.now() - startedAt).toBeLessThan(1500);
  });

  test('destroys the DataSource at shutdown', async () => {
    const log = captureLog();
    const app = await bootDatabase(postgresUrl(), { log });
    const dataSource = app.get(DataSource);
    await eventually(() => dataSource.isInitialized, { within: 5000, what: 'the connection' });

    await app.close();

    expect(dataSource.isInitialized).toBe(false);
    expect(logged(log, 'database connection closed')).toHaveLength(1);
  });

  test('onClosed runs once at shutdown, after the pool has closed: an embedded server outlives it', async () => {
    const poolOpenWhenClosed: boolean[] = [];
    // Filled in once the application exists; the hook reads it at shutdown.
    const booted: { dataSource?: DataSource } = {};
    const app = await bootDatabase(postgresUrl(), {
      connect: { onClosed: () => poolOpenWhenClosed.push(booted.dataSource?.isInitialized ?? true) },
    });
    booted.dataSource = app.get(DataSource);
    const { dataSource } = booted;
    await eventually(() => dataSource?.isInitialized === true, { within: 5000, what: 'the connection' });
    expect(poolOpenWhenClosed).toEqual([]);

    await app.close();

    expect(poolOpenWhenClosed).toEqual([false]);
  });

  test('a shutdown while the database is down stops the retries', async () => {
    const database = await proxy('down');
    const log = captureLog();
    const app = await bootDatabase(database.url, { log, connect: { initialDelayMs: 20, maxDelayMs: 20 } });
    await eventually(() => logged(log, 'database connection failed; retrying').length > 0, {
      within: 3000,
      what: 'a failed attempt',
    });

    await app.close();
    const attemptsAtClose = logged(log, 'database connection failed; retrying').length;
    await database.setMode('forward');
    // Another application with the same retry settings, booted now, connects: by then the closed
    // one's next attempt, due 20 ms after its last failure, would have come too.
    const another = captureLog();
    await bootDatabase(database.url, { log: another, connect: { initialDelayMs: 20, maxDelayMs: 20 } });
    await eventually(() => logged(another, 'database connected').length > 0, {
      within: 3000,
      what: 'another application connecting',
    });

    expect(logged(log, 'database connection failed; retrying')).toHaveLength(attemptsAtClose);
    expect(logged(log, 'database connected')).toHaveLength(0);
    expect(app.get(DataSource).isInitialized).toBe(false);
  });

  test.each([
    [{ initialDelayMs: -1 }, 'initialDelayMs'],
    [{ attemptTimeoutMs: Infinity }, 'attemptTimeoutMs'],
    [{ maxDelayMs: Number.NaN }, 'maxDelayMs'],
  ])('rejects the retry option %p at boot', (retry, name) => {
    expect(() => DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() }, retry)).toThrow(
      expect.objectContaining({ code: 'E_INVALID_OPTION', message: expect.stringContaining(name) }),
    );
  });
});

describe('DatabaseModule.forFeature', () => {
  test('injects the repository of an entity with @InjectRepository, usable once connected', async () => {
    @Module({
      imports: [DatabaseModule.forFeature([Note])],
      providers: [NoteService],
      exports: [NoteService],
    })
    class NotesModule {}
    const log = captureLog();
    const app = await boot(
      {
        imports: [
          DatabaseModule.forRoot({
            type: 'postgres',
            url: postgresUrl(),
            entities: [Note],
            synchronize: true,
          }),
          NotesModule,
        ],
      },
      log,
    );
    // isInitialized turns true before synchronize has run; the log line comes after initialize().
    await eventually(() => logged(log, 'database connected').length > 0, {
      within: 5000,
      what: 'the connection',
    });
    const { notes } = app.get(NoteService);

    const saved = await notes.save(notes.create({ text: `written at ${Date.now()}` }));

    expect(await notes.findOneBy({ id: saved.id })).toEqual(saved);
    expect(app.get(repositoryToken(Note))).toBe(notes);
    expect(repositoryToken(Note)).toBe(repositoryToken(Note));
  });

  test('an entity without forFeature is a boot error naming the repository', async () => {
    await expect(
      boot({
        imports: [DatabaseModule.forRoot({ type: 'postgres', url: postgresUrl() })],
        providers: [NoteService],
      }),
    ).rejects.toMatchObject({
      code: 'E_UNKNOWN_DEPENDENCY',
      message: expect.stringContaining('Repository<Note>'),
    });
  });
});
