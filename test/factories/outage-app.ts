import { IsString, Length } from 'class-validator';
import {
  Column,
  DataSource,
  Entity,
  PrimaryGeneratedColumn,
  type DataSourceOptions,
  type Repository,
} from 'typeorm';
import {
  Body,
  Controller,
  DatabaseModule,
  Get,
  HealthModule,
  InjectRepository,
  Module,
  Post,
  type Application,
  type Context,
} from 'keel';
import { bootApp } from './app';
import type { LogCapture } from './log';
import { PostgresProxy } from './postgres-proxy';

/** The table the outage tests read and write; each dialect's database has its own. */
export const OUTAGE_TABLE = 'keel_outage_notes';

@Entity({ name: OUTAGE_TABLE })
export class OutageNote {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ length: 80 })
  text!: string;
}

class NoteInput {
  @IsString()
  @Length(1, 80)
  text!: string;
}

@Controller('notes')
class NoteController {
  constructor(@InjectRepository(OutageNote) private readonly notes: Repository<OutageNote>) {}

  @Get(':id')
  async show(ctx: Context): Promise<OutageNote | undefined> {
    const note = await this.notes.findOneBy({ id: Number(ctx.param('id')) });
    if (!note) ctx.error(404, 'note not found');
    return note ?? undefined;
  }

  @Post()
  async store(ctx: Context, @Body() input: NoteInput): Promise<void> {
    ctx.json(201, await this.notes.save(this.notes.create({ text: input.text })));
  }
}

/** A database server the outage tests run against, and how to reach it. */
export interface OutageDialect {
  readonly name: 'PostgreSQL' | 'MariaDB';
  readonly type: 'postgres' | 'mariadb';
  readonly url: string;
  /** The option its driver reads its connect timeout from. */
  readonly connectTimeoutOption: 'connectTimeoutMS' | 'connectTimeout';
}

/** How tight the bounds are in a test: both small, so a test of a blackhole ends quickly. */
export interface OutageBounds {
  readonly queryTimeoutMs: number;
  readonly connectTimeoutMs: number;
}

/** An application serving notes from `dialect` through a fault-injecting proxy, listening on 127.0.0.1. */
export interface OutageApp {
  readonly app: Application;
  readonly url: string;
  readonly proxy: PostgresProxy;
  /** Closes the application, then the proxy. */
  close(): Promise<void>;
}

/** Options for a DataSource that reaches `dialect` at `url` and holds the notes table. */
export function noteDataSourceOptions(
  dialect: OutageDialect,
  url: string,
  connectTimeoutMs: number,
): DataSourceOptions {
  return {
    type: dialect.type,
    url,
    entities: [OutageNote],
    synchronize: true,
    [dialect.connectTimeoutOption]: connectTimeoutMs,
  } as DataSourceOptions;
}

/** Boots the notes application on `dialect` behind a new proxy, and serves it. */
export async function startOutageApp(
  dialect: OutageDialect,
  bounds: OutageBounds,
  log: LogCapture,
): Promise<OutageApp> {
  const proxy = await PostgresProxy.start(
    dialect.url,
    'forward',
    dialect.type === 'postgres' ? 'postgres' : 'opaque',
  );
  const options = noteDataSourceOptions(dialect, proxy.url, bounds.connectTimeoutMs);

  @Module({
    imports: [
      DatabaseModule.forRoot(options, { queryTimeoutMs: bounds.queryTimeoutMs }),
      DatabaseModule.forFeature([OutageNote]),
      HealthModule.forRoot(),
    ],
    controllers: [NoteController],
  })
  class OutageModule {}

  const app = await bootApp(OutageModule, { handleSignals: false, logger: log.logger });
  const { url } = await app.listen(0, '127.0.0.1');
  return {
    app,
    url,
    proxy,
    close: async () => {
      await app.close();
      await proxy.close();
    },
  };
}

/** The ids of the notes in `dialect`'s table among `ids`, read straight from the server, not through a proxy. */
export async function storedNoteIds(dialect: OutageDialect, ids: readonly number[]): Promise<number[]> {
  const dataSource = new DataSource(noteDataSourceOptions(dialect, dialect.url, 5000));
  await dataSource.initialize();
  try {
    const rows = await dataSource.getRepository(OutageNote).find({ select: { id: true } });
    const stored = new Set(rows.map((row) => row.id));
    return ids.filter((id) => stored.has(id));
  } finally {
    await dataSource.destroy();
  }
}
