/**
 * A fixed sequence of numbers in [0, 1) from `seed`, so that a generated case that fails can be
 * made again.
 *
 * @example const random = seededRandom(7); random(); // 0.597...
 */
export function seededRandom(seed: number): () => number {
  let state = seed & 0x7fffffff;
  // The C library's linear congruential generator, modulo 2^31. Math.imul keeps the product's low
  // 32 bits exactly, where a plain multiplication passes 2^53 and rounds.
  return () => (state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff) / 2147483648;
}
