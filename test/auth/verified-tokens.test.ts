import { VerifiedTokens } from '../../src/auth/verified-tokens';

const T0 = 1_764_633_600_000;
// JWT-shaped strings: the cache reads only their last characters and compares them whole.
const tokenOf = (name: string): string => `header.${name}.${'s'.repeat(40)}${name.padStart(8, '0')}`;
const claimsOf = (sub: string, expS = T0 / 1000 + 3600) => ({ sub, exp: expS });

describe('VerifiedTokens', () => {
  test('gives back the claims of a kept token, frozen, and nothing for another', () => {
    const tokens = new VerifiedTokens(0);
    const kept = tokens.keep(tokenOf('a'), claimsOf('1'), T0);
    expect(Object.isFrozen(kept)).toBe(true);
    expect(tokens.claimsOf(tokenOf('a'), T0 + 1)).toBe(kept);
    expect(tokens.claimsOf(tokenOf('b'), T0 + 1)).toBeUndefined();
  });

  test('a token ending as a kept one does, but different before, is not taken for it', () => {
    const tokens = new VerifiedTokens(0);
    tokens.keep(tokenOf('a'), claimsOf('1'), T0);
    const sameTail = `other.${tokenOf('a').slice(-50)}`;
    expect(sameTail.slice(-43)).toBe(tokenOf('a').slice(-43));
    expect(tokens.claimsOf(sameTail, T0)).toBeUndefined();
  });

  test('keeps a token until its exp with the tolerance, not a millisecond past it', () => {
    const tokens = new VerifiedTokens(5, { maxTokens: 10, maxAgeMs: 3_600_000 });
    const expS = T0 / 1000 + 30;
    tokens.keep(tokenOf('a'), claimsOf('1', expS), T0);
    expect(tokens.claimsOf(tokenOf('a'), expS * 1000 + 4_999)).toBeDefined();
    expect(tokens.claimsOf(tokenOf('a'), expS * 1000 + 5_000)).toBeUndefined();
  });

  test('keeps a token no longer than maxAgeMs after it verified, whatever its exp', () => {
    const tokens = new VerifiedTokens(0, { maxTokens: 10, maxAgeMs: 60_000 });
    tokens.keep(tokenOf('a'), claimsOf('1'), T0);
    expect(tokens.claimsOf(tokenOf('a'), T0 + 59_999)).toBeDefined();
    expect(tokens.claimsOf(tokenOf('a'), T0 + 60_000)).toBeUndefined();
  });

  test('does not keep a token that is already past its exp', () => {
    const tokens = new VerifiedTokens(0);
    tokens.keep(tokenOf('a'), claimsOf('1', T0 / 1000 - 1), T0);
    expect(tokens.claimsOf(tokenOf('a'), T0)).toBeUndefined();
  });

  test('past maxTokens, the token kept longest ago makes way', () => {
    const tokens = new VerifiedTokens(0, { maxTokens: 2, maxAgeMs: 60_000 });
    tokens.keep(tokenOf('a'), claimsOf('1'), T0);
    tokens.keep(tokenOf('b'), claimsOf('2'), T0);
    tokens.keep(tokenOf('a'), claimsOf('1'), T0 + 1);
    tokens.keep(tokenOf('c'), claimsOf('3'), T0 + 2);
    expect(tokens.claimsOf(tokenOf('b'), T0 + 3)).toBeUndefined();
    expect(tokens.claimsOf(tokenOf('a'), T0 + 3)).toMatchObject({ sub: '1' });
    expect(tokens.claimsOf(tokenOf('c'), T0 + 3)).toMatchObject({ sub: '3' });
  });
});
