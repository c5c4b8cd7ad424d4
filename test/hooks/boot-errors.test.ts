import {
  APP_GUARD,
  APP_MIDDLEWARE,
  Controller,
  Get,
  Injectable,
  Module,
  Param,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type Class,
  type ExceptionFilter,
  type Interceptor,
  type PipeTransform,
} from 'keel';
import { bootApp, moduleWith } from '../factories/app';

class Unprovided {
  readonly kind = 'never provided';
}

@Injectable()
class NeedsUnprovided {
  constructor(readonly dependency: Unprovided) {}
  canActivate() {
    return true;
  }
}

class NotAFilter {
  handle() {}
}

class NotAnInterceptor {
  around() {}
}

class NotAPipe {
  readonly kind = 'no transform';
}

// TypeScript already refuses these; the boot check is for what gets past it (plain JavaScript, a cast).
function untyped<T>(type: Class): Class<T> {
  return type as Class<T>;
}

function controllerUsing(decorate: (target: object, property: string) => void): Class {
  @Controller('x')
  class CulpritController {
    @Get() index() {
      return {};
    }
  }
  decorate(CulpritController.prototype, 'index');
  return CulpritController;
}

describe('hooks that cannot work fail at boot, naming the culprit', () => {
  test('a guard class whose dependency cannot be resolved', async () => {
    const controller = controllerUsing((target, property) => UseGuards(NeedsUnprovided)(target, property));
    await expect(bootApp(moduleWith({ controllers: [controller] }))).rejects.toThrow(
      /E_UNKNOWN_DEPENDENCY.*NeedsUnprovided[\s\S]*Unprovided/,
    );
  });

  test('a filter without catch()', async () => {
    const controller = controllerUsing((target, property) =>
      UseFilters(untyped<ExceptionFilter>(NotAFilter))(target, property),
    );
    await expect(bootApp(moduleWith({ controllers: [controller] }))).rejects.toThrow(
      'E_INVALID_HOOK: CulpritController.index uses NotAFilter as a filter, but it has no catch() method.',
    );
  });

  test('an interceptor without intercept()', async () => {
    const controller = controllerUsing((target, property) =>
      UseInterceptors(untyped<Interceptor>(NotAnInterceptor))(target, property),
    );
    await expect(bootApp(moduleWith({ controllers: [controller] }))).rejects.toThrow(
      'E_INVALID_HOOK: CulpritController.index uses NotAnInterceptor as an interceptor, but it has no intercept() method.',
    );
  });

  test('a pipe without transform()', async () => {
    @Controller('y')
    class PipedController {
      @Get(':id') show(@Param('id', untyped<PipeTransform>(NotAPipe)) id: string) {
        return { id };
      }
    }
    await expect(bootApp(moduleWith({ controllers: [PipedController] }))).rejects.toThrow(
      'E_INVALID_HOOK: PipedController.show uses NotAPipe as a pipe, but it has no transform() method.',
    );
  });

  test('an APP_GUARD without canActivate()', async () => {
    @Module({ providers: [{ provide: APP_GUARD, useClass: NotAFilter }] })
    class BadGlobalModule {}
    await expect(bootApp(BadGlobalModule)).rejects.toThrow(
      'E_INVALID_HOOK: the application uses NotAFilter as an APP_GUARD, but it has no canActivate() method.',
    );
  });

  test('an APP_MIDDLEWARE without use(), at boot rather than at its first request', async () => {
    @Module({ providers: [{ provide: APP_MIDDLEWARE, useClass: NotAFilter }] })
    class BadMiddlewareModule {}
    await expect(bootApp(BadMiddlewareModule)).rejects.toThrow(
      'E_INVALID_HOOK: the application uses NotAFilter as a middleware, but it has no use() method.',
    );
  });
});
