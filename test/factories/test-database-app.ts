import { randomBytes } from 'node:crypto';
import {
  Column,
  Entity,
  PrimaryGeneratedColumn,
  type MigrationInterface,
  type DataSourceOptions,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import {
  ApiResource,
  DatabaseModule,
  InjectRepository,
  Module,
  type Context,
  type DynamicModule,
} from 'keel';
import { schemaKey } from '../../src/testing/schema-key';

@Entity('test_database_notes')
export class TestDatabaseNote {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'text' }) body!: string;
}

@ApiResource('notes', { only: ['index', 'store'] })
class NoteController {
  constructor(@InjectRepository(TestDatabaseNote) private readonly notes: Repository<TestDatabaseNote>) {}
  index() {
    return this.notes.find({ order: { id: 'ASC' } });
  }
  async store(ctx: Context) {
    const { body } = ctx.req.body as { body: string };
    ctx.json(201, await this.notes.save({ body }));
  }
}

/** A schema no other run has: its migration's name is unique, so its template is new. */
export interface FreshSchema {
  /** The application's root module: notes over `POST/GET /notes`, on `DatabaseModule.forRoot`. */
  readonly module: DynamicModule;
  /** How many times the schema's migration ran in this process. */
  readonly migrationRuns: () => number;
  /** The migration's name, as the `migrations` table records it. */
  readonly migrationName: string;
  /** The name of the schema's template database. */
  readonly template: () => Promise<string>;
}

/**
 * A notes application whose migration (named uniquely, so that its schema, and template, are new)
 * counts its runs. Its options name `url` (a database that need not exist: the test database replaces it).
 */
export function freshSchema(url = 'postgres://postgres@127.0.0.1:1/replaced'): FreshSchema {
  let runs = 0;
  const migrationName = `CreateTestDatabaseNotes${randomBytes(4).toString('hex')}1732320000000`;
  class CreateNotes implements MigrationInterface {
    name = migrationName;
    async up(queryRunner: QueryRunner): Promise<void> {
      runs++;
      await queryRunner.query('CREATE TABLE test_database_notes (id serial PRIMARY KEY, body text NOT NULL)');
    }
    async down(queryRunner: QueryRunner): Promise<void> {
      await queryRunner.query('DROP TABLE test_database_notes');
    }
  }
  @Module({})
  class NotesModule {}
  const options: DataSourceOptions = {
    type: 'postgres',
    url,
    entities: [TestDatabaseNote],
    migrations: [CreateNotes],
    migrationsRun: true,
    poolSize: 3,
  };
  return {
    module: {
      module: NotesModule,
      imports: [DatabaseModule.forRoot(options), DatabaseModule.forFeature([TestDatabaseNote])],
      controllers: [NoteController],
    },
    migrationRuns: () => runs,
    migrationName,
    template: async () => `keel_template_${await schemaKey(options)}`,
  };
}
