import { Column, DataSource, Entity, PrimaryGeneratedColumn, type Repository } from 'typeorm';
import request from 'supertest';
import { DatabaseModule, Injectable, InjectRepository, Module, type Application } from 'keel';
import { bootApp, listenerOf } from '../factories/app';
import { captureLog } from '../factories/log';
import { closedPort } from '../factories/test-databases';

@Entity({ name: 'keel_not_connected_notes' })
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

let app: Application;
const log = captureLog();

beforeAll(async () => {
  const url = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
  @Module({
    imports: [
      DatabaseModule.forRoot({ type: 'postgres', url, entities: [Note] }, { initialDelayMs: 60_000 }),
      DatabaseModule.forFeature([Note]),
    ],
    providers: [NoteService],
  })
  class AppModule {}
  app = await bootApp(AppModule, { handleSignals: false, logger: log.logger });
  const { notes } = app.get(NoteService);
  const dataSource = app.get(DataSource);
  app.router
    .get('/notes', () => notes.find())
    .post('/notes', () => notes.save(notes.create({ text: 'x' })))
    .post('/notes/in-transaction', () =>
      dataSource.transaction((manager) => manager.save(manager.create(Note, { text: 'x' }))),
    );
});

afterAll(() => app.close());

test.each(['get', 'post'] as const)(
  '%s on a repository before the database is connected answers 503 with Retry-After',
  async (method) => {
    const res = await request(listenerOf(app))[method]('/notes');

    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'database not connected' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  },
);

test('the log says the database is still connecting, once', async () => {
  await request(listenerOf(app)).get('/notes');
  await request(listenerOf(app)).get('/notes');

  const lines = log
    .entries()
    .filter(
      (entry) => entry.msg === 'a request needed the database, which is still connecting: answered 503',
    );
  expect(lines).toHaveLength(1);
});

test('a transaction begun before the database is connected answers 503, not 500', async () => {
  // dataSource.transaction() goes past the repositories' guard, to TypeORM's "Driver not Connected".
  const res = await request(listenerOf(app)).post('/notes/in-transaction');

  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: 'database not connected' });
  expect(res.headers['retry-after']).toBe('2');
});
