import request from 'supertest';
import {
  APP_FILTER,
  Catch,
  Controller,
  Get,
  HttpError,
  Injectable,
  Module,
  UseFilters,
  UseInterceptors,
  type CallNext,
  type Context,
  type ExceptionFilter,
  type Interceptor,
} from 'keel';
import { useServedApp } from '../factories/app';

class Envelope implements Interceptor {
  async intercept(_ctx: Context, next: CallNext) {
    return { data: await next() };
  }
}

class FallbackOnError implements Interceptor {
  async intercept(ctx: Context, next: CallNext) {
    try {
      return await next();
    } catch (error) {
      ctx.header('X-Recovered', (error as Error).message);
      return { recovered: true };
    }
  }
}

class RecordNotFound extends Error {}
class RateLimited extends Error {}

@Catch(RecordNotFound)
class RecordNotFoundFilter implements ExceptionFilter<RecordNotFound> {
  catch(error: RecordNotFound, ctx: Context) {
    ctx.error(404, `not found: ${error.message}`);
  }
}

@Catch(RecordNotFound)
class MethodNotFoundFilter implements ExceptionFilter {
  catch(_error: unknown, ctx: Context) {
    ctx.error(404, 'the method filter answered');
  }
}

@Injectable()
class EveryErrorFilter implements ExceptionFilter {
  catch(error: unknown, ctx: Context) {
    if (error instanceof RateLimited) return ctx.error(429, 'slow down');
    if (error instanceof HttpError && error.status === 404)
      return ctx.error(404, 'the global filter answered');
    return undefined; // everything else goes on to keel's responder
  }
}

@UseFilters(RecordNotFoundFilter)
@Controller('records')
class RecordController {
  @UseInterceptors(Envelope)
  @Get('wrapped')
  wrapped() {
    return { id: 1 };
  }

  @UseInterceptors(FallbackOnError)
  @Get('recovered')
  recovered() {
    throw new Error('database gone');
  }

  @Get('missing')
  missing() {
    throw new RecordNotFound('record 9');
  }

  @UseFilters(MethodNotFoundFilter)
  @Get('missing-here')
  missingHere() {
    throw new RecordNotFound('record 10');
  }

  @Get('limited')
  limited() {
    throw new RateLimited();
  }

  @Get('broken')
  broken() {
    throw new Error('connection string postgres://admin:hunter2@db');
  }
}

@Module({ controllers: [RecordController], providers: [{ provide: APP_FILTER, useClass: EveryErrorFilter }] })
class FilteredModule {}

describe('interceptors and filters', () => {
  const served = useServedApp(FilteredModule);
  const url = (): string => served().url;

  test('an interceptor wraps the value the handler returned', async () => {
    const res = await request(url()).get('/records/wrapped');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: 1 } });
  });

  test("an interceptor catches the handler's error and answers instead", async () => {
    const res = await request(url()).get('/records/recovered');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ recovered: true });
    expect(res.headers['x-recovered']).toBe('database gone');
  });

  test('a filter with @Catch(RecordNotFound) answers 404 for that error', async () => {
    const res = await request(url()).get('/records/missing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not found: record 9' });
  });

  test('a method filter wins over the class filter and APP_FILTER', async () => {
    const res = await request(url()).get('/records/missing-here');
    expect(res.body).toEqual({ error: 'the method filter answered' });
  });

  test('an error the class filter does not catch reaches APP_FILTER', async () => {
    const res = await request(url()).get('/records/limited');
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: 'slow down' });
  });

  test('an error no filter answers reaches the responder: 500, nothing of it shown', async () => {
    const res = await request(url()).get('/records/broken');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error' });
    expect(res.text).not.toContain('hunter2');
  });

  test('APP_FILTER sees the 404 of a request no route matches', async () => {
    const res = await request(url()).get('/elsewhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'the global filter answered' });
  });
});
