import { trace } from '@opentelemetry/api';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  LOGGER,
  currentRequest,
  type Application,
  type Logger,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';
import { HOST } from '../factories/gates';
import { captureLog, type LogCapture } from '../factories/log';
import { registerTracingSdk } from '../factories/tracing';

/** What the handler saw: the request's trace id, and whether any span was active around it. */
interface Seen {
  readonly traceId: string | null;
  readonly hasActiveSpan: boolean;
}

@Injectable()
class Greeter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  greet(): Seen {
    this.logger.info({ greeting: true }, 'greeting');
    return { traceId: currentRequest()?.traceId ?? null, hasActiveSpan: trace.getActiveSpan() !== undefined };
  }
}

@Controller('hello')
class HelloController {
  constructor(private readonly greeter: Greeter) {}

  @Get()
  hello(): Seen {
    return this.greeter.greet();
  }
}

const AppModule = moduleWith({ controllers: [HelloController], providers: [Greeter] });

let log: LogCapture;
const running: Application[] = [];

async function serve(): Promise<string> {
  const app = await bootApp(AppModule, { logger: log.logger });
  running.push(app);
  return (await app.listen(0, HOST)).url;
}

beforeEach(() => {
  log = captureLog();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

test('with no SDK registered there is no span, no trace id in currentRequest() and none in the lines', async () => {
  const url = await serve();
  const res = await fetch(`${url}/hello`, { headers: { 'X-Request-Id': 'untraced' } });
  expect(await res.json()).toEqual({ traceId: null, hasActiveSpan: false });
  const serviceLine = log.entries().find((entry) => entry.msg === 'greeting');
  expect(serviceLine?.requestId).toBe('untraced');
  expect(serviceLine).not.toHaveProperty('traceId');
  expect(serviceLine).not.toHaveProperty('spanId');
  const accessLine = await log.next((entry) => entry.msg === 'request', { what: 'the access line' });
  expect(accessLine.requestId).toBe('untraced');
  expect(accessLine).not.toHaveProperty('traceId');
});

test('tracing is decided when the application boots: an SDK registered later is seen by the next application only', async () => {
  const bootedBefore = await serve();
  const sdk = registerTracingSdk();
  try {
    const bootedAfter = await serve();
    const before = (await (await fetch(`${bootedBefore}/hello`)).json()) as Seen;
    expect(before).toEqual({ traceId: null, hasActiveSpan: false });
    const after = (await (await fetch(`${bootedAfter}/hello`)).json()) as Seen;
    expect(after.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(after.hasActiveSpan).toBe(true);
    const spans = await sdk.spansWhen('the second application’s span', (ended) => ended.length > 0);
    expect(spans.map((span) => [span.name, span.spanContext().traceId])).toEqual([
      ['GET /hello', after.traceId],
    ]);
  } finally {
    await sdk.unregister();
  }
});
