import { hundredthsAsJson } from '../../src/observability/hundredths-as-json';
import { seededRandom } from '../factories/seeded-random';

describe('hundredthsAsJson', () => {
  test.each([0, 0.01, 0.1, 0.4, 0.5, 1, 9.99, 10.05, 12.3, 99.99, 100, 1234.5, 86_400_000.01])(
    '%s is written as JSON.stringify writes it',
    (ms) => {
      expect(hundredthsAsJson(ms)).toBe(JSON.stringify(ms));
    },
  );

  test.each([-1, -0.01, 1e12, Number.NaN, Infinity])('%s, out of its range, too', (ms) => {
    expect(hundredthsAsJson(ms)).toBe(JSON.stringify(ms));
  });

  test('100,000 durations rounded as the access line rounds them come out as JSON.stringify writes them', () => {
    const random = seededRandom(47);
    const mismatches: number[] = [];
    for (let draw = 0; draw < 100_000; draw++) {
      const ms = Math.round(random() * (draw % 3 === 0 ? 100_000 : 5) * 100) / 100;
      if (hundredthsAsJson(ms) !== JSON.stringify(ms)) mismatches.push(ms);
    }
    expect(mismatches).toEqual([]);
  });
});
