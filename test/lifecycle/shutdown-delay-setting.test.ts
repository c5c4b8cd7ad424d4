import { Controller, Get, Module } from 'keel';
import { bootApp } from '../factories/app';
import { HOST } from '../factories/gates';
import { get, within } from '../factories/http-client';

@Controller('state')
class StateController {
  @Get()
  show() {
    return { ok: true };
  }
}

@Module({ controllers: [StateController] })
class AppModule {}

test('a shutdown delay set after boot keeps the application serving through it', async () => {
  const app = await bootApp(AppModule, { handleSignals: false, logger: false });
  app.setShutdownDelay(1000);
  const { url } = await app.listen(0, HOST);

  const startedAt = Date.now();
  const closing = app.close();
  const during = await get(`${url}/state`);
  await within(closing, 10_000, 'close()');

  expect(during).toMatchObject({ status: 200 });
  expect(app.isShuttingDown).toBe(true);
  // The delay is a lower bound: a loaded machine only makes the shutdown longer.
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
});

test('a shutdown delay that is no number of milliseconds is refused naming the option', async () => {
  const app = await bootApp(AppModule, { handleSignals: false, logger: false });
  expect(() => app.setShutdownDelay(-5)).toThrow(
    /E_INVALID_OPTION: the option shutdownDelayMs is -5: expected a number of milliseconds/,
  );
  await app.close();
});

test('a shutdown delay set once the application listens is refused, saying to set it before', async () => {
  const app = await bootApp(AppModule, { handleSignals: false, logger: false });
  await app.listen(0, HOST);
  expect(() => app.setShutdownDelay(100)).toThrow(
    /setShutdownDelay\(\) was called after listen\(\).*\nFix: call setShutdownDelay\(\) before app.listen\(\) or app.run\(\)/,
  );
  await app.close();
});
