import { expect, test } from '@jest/globals';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as keel from 'keel';
import * as keelTesting from 'keel/testing';
import { REPO_ROOT, runNode } from '../factories/cli';

// The public surface of `keel` and `keel/testing` is what api/*.api.md records, from the
// declarations the global setup built into dist/. A change to it fails here until
// `npm run api:report` rewrites the reports, so that every change to the surface shows in review.
const API_EXTRACTOR = path.join(
  REPO_ROOT,
  'node_modules',
  '@microsoft',
  'api-extractor',
  'bin',
  'api-extractor',
);
const REPORTS_BUILT = path.join(REPO_ROOT, 'node_modules', '.cache', 'api-extractor');

test.each(['keel', 'keel-testing'])(
  'the declarations of %s match its API report (npm run api:report updates it)',
  async (name) => {
    const built = path.join(REPORTS_BUILT, `${name}.api.md`);
    rmSync(built, { force: true });
    const run = await runNode(API_EXTRACTOR, ['run', '-c', `api/${name}.api-extractor.json`], {
      timeoutMs: 90_000,
    });
    if (existsSync(built)) {
      expect(readFileSync(built, 'utf8')).toBe(
        readFileSync(path.join(REPO_ROOT, 'api', `${name}.api.md`), 'utf8'),
      );
    }
    expect({ code: run.code, output: run.stdout + run.stderr }).toEqual({
      code: 0,
      output: expect.any(String),
    });
  },
  120_000,
);

// The API reports do not tell a class exported as a value from one exported as a type only: these
// are the names an application uses as values (decorators, modules, tokens, injected classes).
test('keel exports as values exactly what applications write', () => {
  expect(Object.keys(keel).sort()).toEqual([
    'APP_FILTER',
    'APP_GUARD',
    'APP_INTERCEPTOR',
    'APP_MIDDLEWARE',
    'All',
    'ApiResource',
    'ApplicationStatus',
    'Auth',
    'AuthModule',
    'AuthTables1764547200000',
    'Authenticated',
    'Authenticates',
    'Body',
    'Broadcast',
    'Can',
    'Catch',
    'ConfigModule',
    'ConnectedSocket',
    'Context',
    'Controller',
    'Cookies',
    'Cors',
    'Cron',
    'Ctx',
    'CurrentUser',
    'DatabaseModule',
    'Delete',
    'Form',
    'FrameworkError',
    'Gateway',
    'Get',
    'Global',
    'Head',
    'Header',
    'Headers',
    'HealthModule',
    'HttpCode',
    'HttpError',
    'Inject',
    'InjectRepository',
    'Injectable',
    'InjectionToken',
    'Job',
    'Jobs',
    'JobsModule',
    'LOGGER',
    'LastEventId',
    'MessageBody',
    'Metrics',
    'MetricsModule',
    'Module',
    'OnConnect',
    'OnDisconnect',
    'OnMessage',
    'OpenApiModule',
    'Optional',
    'Options',
    'Param',
    'ParseBoolPipe',
    'ParseIntPipe',
    'ParseUUIDPipe',
    'PartialType',
    'Patch',
    'Policy',
    'Post',
    'Public',
    'Put',
    'Query',
    'RateLimit',
    'RateLimitModule',
    'RealtimeModule',
    'RealtimeSocket',
    'RealtimeTables1764633600000',
    'Resource',
    'Returns',
    'SerializeOptions',
    'SessionModule',
    'SetMetadata',
    'SkipCsrf',
    'Sse',
    'UseFilters',
    'UseGuards',
    'UseInterceptors',
    'UseMiddleware',
    'Version',
    'apiTokens',
    'createApplication',
    'createParamDecorator',
    'currentRequest',
    'documentedRule',
    'embeddedPostgres',
    'hashPassword',
    'httpCheck',
    'initializeOnce',
    'jwt',
    'loadConfig',
    'needsRehash',
    'redisCheck',
    'registerHealthRoutes',
    'session',
    'verifyPassword',
  ]);
  expect(Object.keys(keelTesting)).toEqual(['createTestingApplication']);
});
