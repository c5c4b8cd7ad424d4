/**
 * What the ES module project of the package tests adds to what `framework new --esm` writes: a
 * service injected by its type into a controller of a module of its own, a controller on the
 * embedded database, and a test of its own.
 */
export const ESM_PROJECT_FILES: Readonly<Record<string, string>> = {
  'src/greetings/greeting.service.ts': `import { Injectable } from 'keel';

@Injectable()
export class GreetingService {
  greet(name: string): string {
    return \`hello, \${name}\`;
  }
}
`,
  'src/greetings/greeting.controller.ts': `import { Controller, Get, Param } from 'keel';
import type { Context } from 'keel';
import { GreetingService } from './greeting.service.js';

@Controller('/greetings')
export class GreetingController {
  constructor(private readonly greetings: GreetingService) {}

  @Get(':name') show(@Param('name') name: string) {
    return { greeting: this.greetings.greet(name) };
  }

  @Get() index(ctx: Context) {
    return { path: ctx.req.path };
  }
}
`,
  'src/greetings/greeting.module.ts': `import { Module } from 'keel';
import { GreetingController } from './greeting.controller.js';
import { GreetingService } from './greeting.service.js';
import { NoteController } from './note.controller.js';

@Module({ controllers: [GreetingController, NoteController], providers: [GreetingService] })
export class GreetingModule {}
`,
  // Rows in the embedded database, for framework dev to keep across restarts.
  'src/greetings/note.controller.ts': `import { Controller, Get, Param, Post } from 'keel';
import { DataSource } from 'typeorm';

const TABLE = 'CREATE TABLE IF NOT EXISTS notes (body text NOT NULL)';

@Controller('/notes')
export class NoteController {
  constructor(private readonly db: DataSource) {}

  @Post(':body') async create(@Param('body') body: string) {
    await this.db.query(TABLE);
    await this.db.query('INSERT INTO notes (body) VALUES ($1)', [body]);
    return { created: body };
  }

  @Get() async index() {
    await this.db.query(TABLE);
    const rows: { body: string }[] = await this.db.query('SELECT body FROM notes');
    return { notes: rows.map((row) => row.body) };
  }
}
`,
  'test/greetings.test.ts': `import 'reflect-metadata';
import { createTestingApplication, type TestingApplication } from 'keel/testing';
import { AppModule } from '../src/app.module.js';

let app: TestingApplication;
beforeAll(async () => {
  app = await createTestingApplication(AppModule).withTestDatabase().boot({ logger: false });
}, 60_000);
afterAll(() => app.close());

test('the service is injected by its type', async () => {
  const res = await app.inject({ method: 'GET', url: '/greetings/ada' });
  expect(res.json()).toEqual({ greeting: 'hello, ada' });
});
`,
};
