/**
 * A fixed sequence of numbers in [0, 1) from `seed`, so that a generated case that fails can be
 * made again.
 *
 * @example const random = seededRandom(7); random(); // 0.0000037...
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}
