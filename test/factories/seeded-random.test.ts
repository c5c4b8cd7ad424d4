import { seededRandom } from './seeded-random';

// The same generator in exact integer arithmetic: what seededRandom's numbers must be.
function exactSequence(seed: number, count: number): number[] {
  let state = BigInt(seed);
  const numbers: number[] = [];
  for (let i = 0; i < count; i += 1) {
    state = (state * 1103515245n + 12345n) % 2147483648n;
    numbers.push(Number(state) / 2147483648);
  }
  return numbers;
}

describe('seededRandom', () => {
  it.each([0, 1, 7, 2024, 2147483647])(
    'gives the linear congruential sequence of seed %i exactly',
    (seed) => {
      const random = seededRandom(seed);
      const drawn = Array.from({ length: 10_000 }, () => random());

      expect(drawn).toEqual(exactSequence(seed, 10_000));
      expect(drawn.every((n) => n >= 0 && n < 1)).toBe(true);
    },
  );
});
