import type { ApplicationOptions } from 'keel';
import { bootApp, moduleWith } from '../factories/app';

describe('shutdown options', () => {
  test.each<[keyof ApplicationOptions, unknown]>([
    ['shutdownDelayMs', -1],
    ['shutdownDelayMs', Number.NaN],
    ['shutdownDelayMs', '100'],
    ['shutdownTimeoutMs', Number.POSITIVE_INFINITY],
    ['shutdownTimeoutMs', 2 ** 31],
    ['handleSignals', 'no'],
  ])('%s = %p fails boot with E_INVALID_OPTION', async (option, value) => {
    await expect(bootApp(moduleWith({}), { [option]: value })).rejects.toMatchObject({
      code: 'E_INVALID_OPTION',
      message: expect.stringContaining(`the option ${option} is`) as unknown,
    });
  });

  test('the bounds are accepted: 0 and the longest timer Node can set', async () => {
    const app = await bootApp(moduleWith({}), {
      handleSignals: false,
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 2 ** 31 - 1,
    });

    await expect(app.close()).resolves.toBeUndefined();
  });
});
