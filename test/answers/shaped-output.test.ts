import { Exclude, Expose, Transform, instanceToPlain } from 'class-transformer';
import { IsEmail, IsInt, IsString } from 'class-validator';
import {
  Controller,
  Get,
  Module,
  OpenApiModule,
  Post,
  Returns,
  SerializeOptions,
  Sse,
  type Context,
} from 'keel';
import { z } from 'zod';
import { useServedApp } from '../factories/app';
import { openEventStream } from '../factories/event-stream-client';
import { captureLog } from '../factories/log';

class Account {
  @IsInt() id!: number;
  @IsEmail() email!: string;
  @Exclude() @IsString() passwordHash!: string;
  @Expose({ groups: ['admin'] }) internalNote!: string;
  @Transform(({ value }: { value: Date }) => value.toISOString().slice(0, 10), { toPlainOnly: true })
  joinedAt!: Date;

  constructor(fields: Partial<Account> = {}) {
    Object.assign(this, fields);
  }
}

// A class without output rules inside a plain object, holding one with them.
class Team {
  constructor(
    readonly name: string,
    readonly owner: Account,
  ) {}
}

// Entities whose only output rule is @Exclude(): keel copies them by a plan made once per class.
class Customer {
  id = 7;
  name = 'Grace';
  @Exclude() passwordHash = 'scrypt$grace';
  @Exclude({ toClassOnly: true }) importedFrom = 'crm';
  address = { city: 'Arlington', _internal: 'kept: a plain object is not shaped' };
}

class VipCustomer extends Customer {
  @Exclude() creditLimit = 50_000;
  manager = new Customer();
  joined = new Date('2026-03-04T05:06:07Z');
}

function ada(): Account {
  return new Account({
    id: 1,
    email: 'ada@example.com',
    passwordHash: 'scrypt$secret',
    internalNote: 'pays late',
    joinedAt: new Date('2026-01-02T03:04:05Z'),
  });
}

const SHOWN = { id: 1, email: 'ada@example.com', joinedAt: '2026-01-02' };

const accountSchema = z.object({ id: z.number().int(), email: z.email() });

@Controller('accounts')
class AccountController {
  @Returns(Account)
  @Get('one')
  one() {
    return ada();
  }

  @Get('async')
  async later() {
    await Promise.resolve();
    return ada();
  }

  @Get('list')
  list() {
    return { data: [ada(), ada()], total: 2, team: new Team('core', ada()) };
  }

  @Post('created')
  created(ctx: Context) {
    ctx.json(201, ada());
  }

  @SerializeOptions({ groups: ['admin'] })
  @Get('admin')
  admin() {
    return ada();
  }

  @Get('page')
  page(ctx: Context) {
    ctx.html(200, 'answers/account.html', { account: ada() });
  }

  @Sse('live')
  async *live() {
    yield { event: 'account', data: ada() };
    yield { data: [ada()] };
  }

  @Get('plain')
  plain() {
    return { id: 1, email: 'ada@example.com', passwordHash: 'a plain object is sent as it is' };
  }

  @Get('vip')
  vip() {
    return new VipCustomer();
  }

  @SerializeOptions({ excludePrefixes: ['_'] })
  @Get('vip-prefixed')
  vipPrefixed() {
    return new VipCustomer();
  }

  @Returns(accountSchema)
  @Get('parsed')
  parsed() {
    return { id: 1, email: 'ada@example.com', extra: 'stripped by the schema' };
  }

  @Returns(accountSchema)
  @Get('parsed-instance')
  parsedInstance() {
    return ada();
  }

  @Returns(accountSchema)
  @Get('refused')
  refused() {
    return { id: 'one', email: 'not an address' };
  }
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Accounts', version: '1.0.0' })],
  controllers: [AccountController],
})
class AccountsModule {}

const log = captureLog();
const served = useServedApp(AccountsModule, { logger: log.logger });

async function json(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${served().url}${path}`, init);
  return { status: res.status, body: await res.json() };
}

describe('answers shaped by their class', () => {
  test('a returned instance is sent without its @Exclude()d column, with its @Transform applied', async () => {
    expect(await json('/accounts/one')).toEqual({ status: 200, body: SHOWN });
    expect(await json('/accounts/async')).toEqual({ status: 200, body: SHOWN });
  });

  test('instances inside plain objects, arrays and other classes are shaped too', async () => {
    expect(await json('/accounts/list')).toEqual({
      status: 200,
      body: { data: [SHOWN, SHOWN], total: 2, team: { name: 'core', owner: SHOWN } },
    });
  });

  test("a class whose only rule is @Exclude() is sent as instanceToPlain sends it, its parents' exclusions included", async () => {
    const { body } = await json('/accounts/vip');
    expect(body).toEqual(JSON.parse(JSON.stringify(instanceToPlain(new VipCustomer()))));
    expect(body).toEqual({
      id: 7,
      name: 'Grace',
      importedFrom: 'crm',
      address: { city: 'Arlington', _internal: 'kept: a plain object is not shaped' },
      manager: {
        id: 7,
        name: 'Grace',
        importedFrom: 'crm',
        address: { city: 'Arlington', _internal: 'kept: a plain object is not shaped' },
      },
      joined: '2026-03-04T05:06:07.000Z',
    });
    const prefixed = await json('/accounts/vip-prefixed');
    const expected = instanceToPlain(new VipCustomer(), { excludePrefixes: ['_'] });
    expect(prefixed.body).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(JSON.stringify(prefixed.body)).not.toContain('_internal');
  });

  test('ctx.json() shapes what it sends', async () => {
    expect(await json('/accounts/created', { method: 'POST' })).toEqual({ status: 201, body: SHOWN });
  });

  test('@SerializeOptions({ groups }) sends the properties exposed to those groups', async () => {
    expect(await json('/accounts/admin')).toEqual({
      status: 200,
      body: { ...SHOWN, internalNote: 'pays late' },
    });
  });

  test('a template receives the shaped data: the excluded column is not there to print', async () => {
    const res = await fetch(`${served().url}/accounts/page`);
    const page = await res.text();
    expect(page).toContain('<dt>email</dt><dd>ada@example.com</dd>');
    expect(page).toContain('<dt>joinedAt</dt><dd>2026-01-02</dd>');
    expect(page).not.toContain('passwordHash');
    expect(page).not.toContain('scrypt');
  });

  test("an event's data is shaped before it becomes JSON", async () => {
    const stream = await openEventStream(`${served().url}/accounts/live`);
    await stream.ended;
    expect(stream.text()).toBe(
      `event: account\ndata: ${JSON.stringify(SHOWN)}\n\ndata: ${JSON.stringify([SHOWN])}\n\n`,
    );
  });

  test('a plain object is sent as it is', async () => {
    expect((await json('/accounts/plain')).body).toEqual({
      id: 1,
      email: 'ada@example.com',
      passwordHash: 'a plain object is sent as it is',
    });
  });

  test('a Standard Schema given to @Returns parses the answer: its output is what is sent', async () => {
    expect(await json('/accounts/parsed')).toEqual({
      status: 200,
      body: { id: 1, email: 'ada@example.com' },
    });
    expect(await json('/accounts/parsed-instance')).toEqual({
      status: 200,
      body: { id: 1, email: 'ada@example.com' },
    });
  });

  test('an answer its @Returns schema refuses is a 500; the reason goes to the log only', async () => {
    expect(await json('/accounts/refused')).toEqual({
      status: 500,
      body: { error: 'internal server error' },
    });
    const failure = log.entries().find((entry) => entry.msg === 'request failed');
    expect(JSON.stringify(failure)).toContain('E_ANSWER_REFUSED');
    expect(JSON.stringify(failure)).toContain('AccountController.refused');
  });

  test('the OpenAPI document shows @Returns answers: the class without its excluded column, the schema as JSON Schema', async () => {
    const document = (await json('/openapi.json')).body as {
      paths: Record<
        string,
        { get: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> } }
      >;
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const one = document.paths['/accounts/one']?.get.responses['200']?.content?.['application/json']?.schema;
    expect(one).toEqual({ $ref: '#/components/schemas/Account' });
    const account = document.components.schemas.Account;
    expect(Object.keys(account?.properties ?? {}).sort()).toEqual([
      'email',
      'id',
      'internalNote',
      'joinedAt',
    ]);
    expect(account?.required).toEqual(['id', 'email']);
    const parsed =
      document.paths['/accounts/parsed']?.get.responses['200']?.content?.['application/json']?.schema;
    expect(parsed).toMatchObject({
      type: 'object',
      properties: { id: { type: 'integer' }, email: { type: 'string', format: 'email' } },
    });
  });
});
