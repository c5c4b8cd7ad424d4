import { IsEmail, Length } from 'class-validator';
import { Injectable, Module, Resource, type Context } from 'keel';
import { createTestingApplication, type TestingApplication } from 'keel/testing';

// The README's first application and its "Testing" section, as a user would copy them.
class CreateSubscriber {
  @IsEmail() email!: string;
  @Length(1, 80) name!: string;
}

@Injectable()
class SubscriberService {
  readonly #subscribers = new Map<string, CreateSubscriber>();
  add(input: CreateSubscriber): string {
    const id = String(this.#subscribers.size + 1);
    this.#subscribers.set(id, input);
    return id;
  }
  find(id: string): CreateSubscriber | undefined {
    return this.#subscribers.get(id);
  }
}

@Resource('subscribers', { only: ['store', 'show'] })
class SubscriberController {
  constructor(private readonly subscribers: SubscriberService) {}

  async store(ctx: Context) {
    const input = await ctx.bind(CreateSubscriber);
    if (!input.ok) throw input.error;
    ctx.redirect(303, `/subscribers/${this.subscribers.add(input.value)}`);
  }

  show(ctx: Context) {
    const subscriber = this.subscribers.find(ctx.param('id'));
    if (!subscriber) return ctx.error(404, 'subscriber not found');
    return subscriber;
  }
}

@Module({ controllers: [SubscriberController], providers: [SubscriberService] })
class AppModule {}

let app: TestingApplication;

beforeAll(async () => {
  app = await createTestingApplication(AppModule)
    .overrideProvider(SubscriberService)
    .useValue({ find: (id) => (id === '1' ? { email: 'ada@example.com', name: 'Ada' } : undefined) })
    .boot({ logger: false }); // createApplication's options; it never listens
});
afterAll(() => app.close());

test('GET /subscribers/1 answers the subscriber the service finds', async () => {
  const res = await app.inject({ method: 'GET', url: '/subscribers/1' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ email: 'ada@example.com', name: 'Ada' });
  expect((await app.inject('/subscribers/2')).statusCode).toBe(404);
});

test('POST /subscribers validates the body before the service is asked', async () => {
  const res = await app.inject({ method: 'POST', url: '/subscribers', payload: { email: 'nope', name: '' } });
  expect(res.statusCode).toBe(422);
  expect(Object.keys(res.json().fields)).toEqual(['email', 'name']);
});
