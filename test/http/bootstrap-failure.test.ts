import { Injectable, type OnApplicationBootstrap } from 'keel';
import request from 'supertest';
import { bootApp, listenerOf, moduleWith } from '../factories/app';
import { captureLog } from '../factories/log';

@Injectable()
class BrokenWarmUp implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    throw new Error('cache warm-up failed');
  }
}

test('a request that meets a failed onApplicationBootstrap is a 500 with the headers of every error answer, its reason only in the log', async () => {
  const log = captureLog();
  // A hook that fails with no caller to reject sets the process's exit code: the suite's own is kept.
  const exitCode = process.exitCode;
  const app = await bootApp(moduleWith({ providers: [BrokenWarmUp] }), { logger: log.logger });
  const response = await request(listenerOf(app)).get('/anything');
  expect(process.exitCode).toBe(1);
  process.exitCode = exitCode;
  await app.close().catch(() => undefined);
  expect(response.status).toBe(500);
  expect(response.body).toEqual({ error: 'internal server error' });
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(log.text()).toContain('cache warm-up failed');
});
