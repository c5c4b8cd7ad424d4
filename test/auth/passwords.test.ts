import { hashPassword, needsRehash, verifyPassword } from 'keel';

jest.setTimeout(120_000);

// Lower than OWASP's default, so that 400 derivations take seconds: the parameters change how long
// one derivation takes, not whether the two paths take alike.
const FAST = { cost: 2 ** 14 } as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

describe('hashPassword / verifyPassword / needsRehash', () => {
  test('a hash states its parameters, OWASP scrypt by default, and verifies only its own password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
    expect(await verifyPassword('anything', undefined)).toBe(false);
  });

  test('needsRehash says when the parameters were raised since the hash was made', async () => {
    const weak = await hashPassword('pw', FAST);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(weak, FAST)).toBe(false);
    expect(await verifyPassword('pw', weak)).toBe(true);
    expect(needsRehash('garbage')).toBe(true);
  });

  test('an unknown user (no hash) and a known user with a wrong password take the same time within 10 %', async () => {
    const known = await hashPassword('the right one', FAST);
    // Warm both paths: the stand-in hash is made once, on first use.
    await verifyPassword('x', undefined, FAST);
    await verifyPassword('x', known, FAST);
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 200; i++) {
      let start = performance.now();
      expect(await verifyPassword(`guess ${i}`, undefined, FAST)).toBe(false);
      unknown.push(performance.now() - start);
      start = performance.now();
      expect(await verifyPassword(`guess ${i}`, known, FAST)).toBe(false);
      wrong.push(performance.now() - start);
    }
    const [a, b] = [median(unknown), median(wrong)];
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.1);
  });
});
