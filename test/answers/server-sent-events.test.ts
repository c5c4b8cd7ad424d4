import { Controller, Get, LastEventId, OpenApiModule, Sse, type Context, Module } from 'keel';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { useServedApp } from '../factories/app';
import { openEventStream } from '../factories/event-stream-client';
import { eventually } from '../factories/eventually';

// An iterator that waits for its next event until it is told to stop, and says when it was.
class Waiting implements AsyncIterableIterator<unknown> {
  returnedAt: number | undefined;
  #release: (() => void) | undefined;

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    return new Promise((resolve) => {
      this.#release = () => resolve({ done: true, value: undefined });
    });
  }

  return(): Promise<IteratorResult<unknown>> {
    this.returnedAt = performance.now();
    this.#release?.();
    return Promise.resolve({ done: true, value: undefined });
  }
}

const waiting: Waiting[] = [];

@Controller('events')
class EventsController {
  @Sse('framed')
  async *framed() {
    yield { event: 'note', id: 7, data: 'first line\nsecond line' };
    yield { data: { total: 3, items: ['a'] } };
    yield 'a bare item is its own data';
    yield { retry: 2500, data: '' };
  }

  @Sse('quick', { keepAliveMs: 100 })
  quick() {
    return this.#wait();
  }

  @Sse('default')
  usual() {
    return this.#wait();
  }

  @Sse('resume')
  async *resume(ctx: Context, @LastEventId() after: string | undefined) {
    await nextTurn();
    yield { event: 'from-context', data: ctx.lastEventId ?? 'none' };
    yield { event: 'from-parameter', data: after ?? 'none' };
  }

  @Sse('missing')
  missing(ctx: Context) {
    ctx.error(404, 'no such feed');
  }

  @Sse('not-iterable')
  notIterable() {
    return 42;
  }

  @Sse('broken-id')
  async *brokenId() {
    yield { data: 'fine' };
    yield { id: 'a\nevent: injected', data: 'never sent' };
  }

  @Get('by-hand')
  byHand(ctx: Context) {
    ctx.sse([
      { event: 'one', data: 1 },
      { event: 'two', data: 2 },
    ]);
  }

  #wait(): Waiting {
    const iterator = new Waiting();
    waiting.push(iterator);
    return iterator;
  }
}

@Module({
  imports: [OpenApiModule.forRoot({ title: 'Events', version: '1.0.0' })],
  controllers: [EventsController],
})
class EventsModule {}

const served = useServedApp(EventsModule);

describe('Server-Sent Events through real HTTP', () => {
  test('an @Sse() handler answers text/event-stream, unbuffered, one frame per item, and ends when its iterator does', async () => {
    const stream = await openEventStream(`${served().url}/events/framed`);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-length']).toBeUndefined();
    expect(stream.headers.etag).toBeUndefined();
    const end = await stream.ended;
    expect(end.complete).toBe(true);
    expect(stream.text()).toBe(
      'event: note\nid: 7\ndata: first line\ndata: second line\n\n' +
        'data: {"total":3,"items":["a"]}\n\n' +
        'data: a bare item is its own data\n\n' +
        'retry: 2500\ndata: \n\n',
    );
  });

  test('ctx.sse() streams an iterable from a handler that answers through the context', async () => {
    const stream = await openEventStream(`${served().url}/events/by-hand`);
    await stream.ended;
    expect(stream.text()).toBe('event: one\ndata: 1\n\nevent: two\ndata: 2\n\n');
  });

  test('a comment line keeps an idle stream open at the interval asked for', async () => {
    const stream = await openEventStream(`${served().url}/events/quick`);
    const text = await stream.waitFor(
      'two keep-alive comments',
      (seen) => seen.split(': keep-alive\n\n').length > 2,
    );
    expect(text).toMatch(/^(: keep-alive\n\n)+$/);
    stream.leave();
  });

  test('by default the keep-alive comment comes within 16 seconds', async () => {
    const stream = await openEventStream(`${served().url}/events/default`);
    expect(stream.text()).toBe('');
    await stream.waitFor('the default keep-alive comment', (seen) => seen === ': keep-alive\n\n', 16_000);
    stream.leave();
  }, 20_000);

  test('Last-Event-ID reaches the handler, as ctx.lastEventId and through @LastEventId()', async () => {
    const stream = await openEventStream(`${served().url}/events/resume`, { 'last-event-id': '41' });
    await stream.ended;
    expect(stream.text()).toBe('event: from-context\ndata: 41\n\nevent: from-parameter\ndata: 41\n\n');
    const first = await openEventStream(`${served().url}/events/resume`);
    await first.ended;
    expect(first.text()).toContain('event: from-parameter\ndata: none\n\n');
  });

  test("the iterator's return() is called within 100 ms of the client leaving, while it waits for an event", async () => {
    const before = waiting.length;
    const stream = await openEventStream(`${served().url}/events/quick`);
    await stream.waitFor('a keep-alive comment', (seen) => seen.includes(': keep-alive'));
    const iterator = waiting[before] as Waiting;
    const leftAt = stream.leave();
    const returnedAt = await eventually(() => iterator.returnedAt ?? false, {
      within: 2000,
      what: 'return()',
    });
    expect(returnedAt - leftAt).toBeLessThan(100);
  });

  test('a handler that answers by itself opens no stream', async () => {
    const res = await fetch(`${served().url}/events/missing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no such feed' });
  });

  test('a handler that returns no iterable is a 500 that says nothing of why', async () => {
    const res = await fetch(`${served().url}/events/not-iterable`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal server error' });
  });

  test('an id with a line break ends the stream without sending a field of its own', async () => {
    const stream = await openEventStream(`${served().url}/events/broken-id`);
    const end = await stream.ended;
    expect(end.complete).toBe(true);
    expect(stream.text()).toBe('data: fine\n\n');
  });

  test('HEAD answers the stream head and no events', async () => {
    const res = await fetch(`${served().url}/events/framed`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  test('the OpenAPI document describes an @Sse() operation as text/event-stream', async () => {
    const document = (await (await fetch(`${served().url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const answer = document.paths['/events/framed']?.get.responses['200'];
    expect(Object.keys(answer?.content ?? {})).toEqual(['text/event-stream']);
  });
});

describe('Server-Sent Events beside compression and ETags', () => {
  const compressing = useServedApp(EventsModule, { compression: { threshold: 0 }, etag: true });

  test('an event stream is never compressed and never given an ETag', async () => {
    const stream = await openEventStream(`${compressing().url}/events/framed`, {
      'accept-encoding': 'br, gzip',
    });
    await stream.ended;
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers.etag).toBeUndefined();
    expect(stream.text()).toMatch(/^event: note\nid: 7\ndata: first line\n/);
  });
});
