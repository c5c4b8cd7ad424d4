import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import {
  APP_GUARD,
  APP_INTERCEPTOR,
  Controller,
  Get,
  Injectable,
  Module,
  UseGuards,
  UseInterceptors,
  UseMiddleware,
  createParamDecorator,
  type CallNext,
  type CanActivate,
  type Context,
  type Interceptor,
} from 'keel';
import { useServedApp } from '../factories/app';

const phases: string[] = [];

function guard(name: string): CanActivate {
  return {
    canActivate: () => {
      phases.push(`guard ${name}`);
      return true;
    },
  };
}

function interceptor(name: string): Interceptor {
  return {
    async intercept(_ctx: Context, next: CallNext) {
      phases.push(`interceptor ${name} before`);
      const value = await next();
      phases.push(`interceptor ${name} after`);
      return value;
    },
  };
}

function middleware(name: string) {
  return (_req: Request, _res: Response, next: NextFunction) => {
    phases.push(`middleware ${name}`);
    next();
  };
}

const Recorded = createParamDecorator((_ctx, name: string) => {
  phases.push(`parameter ${name}`);
  return name;
});

@Injectable()
class GlobalGuard implements CanActivate {
  canActivate() {
    return guard('global').canActivate({} as Context);
  }
}

@Injectable()
class GlobalInterceptor implements Interceptor {
  intercept(ctx: Context, next: CallNext) {
    return interceptor('global').intercept(ctx, next);
  }
}

@UseMiddleware(middleware('class'))
@UseGuards(guard('class'))
@UseInterceptors(interceptor('class'))
@Controller('order')
class OrderedController {
  @UseMiddleware(middleware('method'))
  @UseGuards(guard('method'))
  @UseInterceptors(interceptor('method'))
  @Get()
  show(@Recorded('first') first: string, @Recorded('second') second: string) {
    phases.push('handler');
    return { first, second };
  }
}

@Module({
  controllers: [OrderedController],
  providers: [
    { provide: APP_GUARD, useClass: GlobalGuard },
    { provide: APP_INTERCEPTOR, useClass: GlobalInterceptor },
  ],
})
class OrderedModule {}

describe('the phases of one request', () => {
  const served = useServedApp(OrderedModule, {}, (app) => app.use(middleware('application')));
  const url = (): string => served().url;

  test('run in the documented order: middleware, guards, interceptors, parameters, handler, unwinding', async () => {
    phases.length = 0;
    const res = await request(url()).get('/order');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ first: 'first', second: 'second' });
    expect(phases).toEqual([
      'middleware application',
      'middleware class',
      'middleware method',
      'guard global',
      'guard class',
      'guard method',
      'interceptor global before',
      'interceptor class before',
      'interceptor method before',
      'parameter first',
      'parameter second',
      'handler',
      'interceptor method after',
      'interceptor class after',
      'interceptor global after',
    ]);
  });
});
