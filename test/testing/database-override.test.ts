import net from 'node:net';
import { once } from 'node:events';
import { Column, DataSource, Entity, PrimaryGeneratedColumn, type Repository } from 'typeorm';
import { ApiResource, DatabaseModule, HealthModule, InjectRepository, Module, createApplication } from 'keel';
import { createTestingApplication } from 'keel/testing';
import { eventually } from '../factories/eventually';

@Entity('override_widgets')
class Widget {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
}

@ApiResource('widgets', { only: ['index'] })
class WidgetController {
  constructor(@InjectRepository(Widget) private readonly widgets: Repository<Widget>) {}
  index() {
    return this.widgets.find();
  }
}

// A port that counts the connections made to it and closes each at once: a database that is
// there, so that any attempt to connect shows.
async function countingPort(): Promise<{
  port: number;
  connections: () => number;
  connected: Promise<void>;
  close: () => void;
}> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  const connected = once(server, 'connection').then(() => undefined);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return { port, connections: () => connections, connected, close: () => server.close() };
}

function appModule(port: number) {
  @Module({
    imports: [
      DatabaseModule.forRoot(
        { type: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/test`, entities: [Widget] },
        { initialDelayMs: 10, maxDelayMs: 20 },
      ),
      DatabaseModule.forFeature([Widget]),
      HealthModule.forRoot(),
    ],
    controllers: [WidgetController],
  })
  class AppModule {}
  return AppModule;
}

test("DatabaseModule's DataSource replaced: its consumers get the fake and no connection is attempted", async () => {
  const target = await countingPort();
  const rows = [{ id: 1, name: 'sprocket' }];
  const fakeDataSource = { getRepository: () => ({ find: () => Promise.resolve(rows) }) };
  const app = await createTestingApplication(appModule(target.port))
    .overrideProvider(DataSource)
    .useValue(fakeDataSource as unknown as DataSource)
    .boot({ logger: false });
  try {
    expect(app.get(DataSource)).toBe(fakeDataSource);
    const res = await app.inject('/widgets');
    expect(res.json()).toEqual(rows);
    // The same module, not overridden, booted after it: once that one has connected, a connection
    // the first had started at its own boot would have arrived too.
    await connectionOfAnotherApp();
    expect(target.connections()).toBe(0);
  } finally {
    await app.close();
    target.close();
  }
});

test('without the override, the same module connects to that port and keeps retrying', async () => {
  const target = await countingPort();
  const app = await createApplication(appModule(target.port), { logger: false, handleSignals: false });
  try {
    await eventually(() => expect(target.connections()).toBeGreaterThanOrEqual(2), {
      within: 5000,
      every: 20,
      what: 'a first connection and a retry',
    });
  } finally {
    await app.close();
    target.close();
  }
});

// Boots the module without an override on a counting port of its own, and waits for its first connection.
async function connectionOfAnotherApp(): Promise<void> {
  const control = await countingPort();
  const app = await createApplication(appModule(control.port), { logger: false, handleSignals: false });
  try {
    await control.connected;
  } finally {
    await app.close();
    control.close();
  }
}
