import request from 'supertest';
import {
  APP_GUARD,
  Controller,
  Delete,
  Get,
  HttpError,
  Inject,
  Injectable,
  InjectionToken,
  Module,
  Post,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type Context,
} from 'keel';
import { useServedApp } from '../factories/app';

const API_TOKEN = new InjectionToken<string>('API_TOKEN');

@Injectable()
class BearerGuard implements CanActivate {
  constructor(@Inject(API_TOKEN) private readonly token: string) {}
  canActivate(ctx: Context) {
    if (ctx.req.get('authorization') !== `Bearer ${this.token}`)
      throw new HttpError(401, 'missing or wrong token');
    return true;
  }
}

const Roles = (...roles: string[]) => SetMetadata('roles', roles);

@Injectable()
class RolesGuard implements CanActivate {
  canActivate(ctx: Context) {
    const roles = ctx.metadata<string[]>('roles');
    return roles === undefined || roles.includes(ctx.req.get('x-role') ?? '');
  }
}

class NeverGuard implements CanActivate {
  async canActivate() {
    await new Promise((resolve) => setImmediate(resolve));
    return false;
  }
}

const handled: string[] = [];

@Roles('reader')
@UseGuards(RolesGuard)
@Controller('documents')
class DocumentController {
  @Get() index() {
    handled.push('index');
    return { documents: [] };
  }
  @Roles('admin')
  @Delete(':id')
  destroy(ctx: Context) {
    handled.push('destroy');
    ctx.json(200, { deleted: ctx.param('id') });
  }
  @UseGuards(NeverGuard)
  @Get('sealed')
  sealed() {
    handled.push('sealed');
    return { sealed: true };
  }
}

@Controller('api')
class ApiController {
  @UseGuards(BearerGuard)
  @Post('things')
  store() {
    handled.push('store');
    return { stored: true };
  }
}

@Module({ controllers: [ApiController], providers: [{ provide: API_TOKEN, useValue: 's3cret' }] })
class ApiModule {}

// A global guard provided by an imported module: it sees every request with a route.
@Injectable()
class MaintenanceGuard implements CanActivate {
  canActivate(ctx: Context) {
    return ctx.req.get('x-maintenance') !== 'on';
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: MaintenanceGuard }] })
class MaintenanceModule {}

@Module({ imports: [ApiModule, MaintenanceModule], controllers: [DocumentController] })
class GuardedModule {}

describe('guards', () => {
  const served = useServedApp(GuardedModule);
  const url = (): string => served().url;
  beforeEach(() => {
    handled.length = 0;
  });

  test('a guard with an injected dependency lets the right token through', async () => {
    const res = await request(url()).post('/api/things').set('Authorization', 'Bearer s3cret');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ stored: true });
    expect(handled).toEqual(['store']);
  });

  test('a guard throwing HttpError(401) answers 401 and the handler never runs', async () => {
    const missing = await request(url()).post('/api/things');
    const wrong = await request(url()).post('/api/things').set('Authorization', 'Bearer guess');
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual({ error: 'missing or wrong token' });
    expect(handled).toEqual([]);
  });

  test('a guard resolving false is 403 {"error":"forbidden"}', async () => {
    const res = await request(url()).get('/documents/sealed').set('X-Role', 'reader');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden' });
    expect(handled).toEqual([]);
  });

  test('a roles guard reads SetMetadata from the method over the class', async () => {
    const readerList = await request(url()).get('/documents').set('X-Role', 'reader');
    const readerDelete = await request(url()).delete('/documents/4').set('X-Role', 'reader');
    const adminDelete = await request(url()).delete('/documents/4').set('X-Role', 'admin');
    const adminList = await request(url()).get('/documents').set('X-Role', 'admin');
    expect([readerList.status, readerDelete.status, adminDelete.status, adminList.status]).toEqual([
      200, 403, 200, 403,
    ]);
    expect(adminDelete.body).toEqual({ deleted: '4' });
    expect(handled).toEqual(['index', 'destroy']);
  });

  test('a global guard from APP_GUARD in an imported module guards every controller', async () => {
    const documents = await request(url())
      .get('/documents')
      .set('X-Role', 'reader')
      .set('X-Maintenance', 'on');
    const api = await request(url())
      .post('/api/things')
      .set('Authorization', 'Bearer s3cret')
      .set('X-Maintenance', 'on');
    expect([documents.status, api.status]).toEqual([403, 403]);
    expect(handled).toEqual([]);
  });

  test('a request that reaches no route is still 404, guards or not', async () => {
    const res = await request(url()).get('/nowhere').set('X-Maintenance', 'on');
    expect(res.status).toBe(404);
  });
});
