import { hasBody, rawHeader } from '../../src/http/raw-headers';

// HTTP compares header names case-insensitively, in ASCII: the answer every lookup must give.
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

function expected(rawHeaders: readonly string[], name: string): string | undefined {
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (asciiLower(rawHeaders[index] as string) === name) return rawHeaders[index + 1];
  return undefined;
}

const NAMES = ['content-type', 'content-length', 'x-request-id', 'transfer-encoding', 'te', 'a'];

// Characters a name differs by: case, and the neighbours of letters, digits and `-` one bit away
// (`\r` is `-` without 0x20, `@` and `` ` `` frame the letters), and non-ASCII ones that lower to
// ASCII (the Kelvin sign lowers to `k`).
const SWAPS = ['', 'A', 'z', 'Z', '@', '`', '[', '{', '\r', '\x10', '0', '9', '-', '\u212a', 'é', 'É'];

// Every name in three cases, with each of its characters in the other case, and with each of its
// characters replaced by each of SWAPS.
function variants(name: string): string[] {
  const cased = [name, name.toUpperCase(), name.replace(/^./, (first) => first.toUpperCase())];
  return cased.flatMap((written) => [
    written,
    ...[...written].flatMap((character, at) =>
      [
        character === character.toLowerCase() ? character.toUpperCase() : character.toLowerCase(),
        ...SWAPS,
      ].map((swap) => written.slice(0, at) + swap + written.slice(at + 1)),
    ),
  ]);
}

describe('rawHeader', () => {
  it('finds a name in any ASCII case, and nothing that differs by any other character', () => {
    let found = 0;
    let missed = 0;
    for (const written of NAMES.flatMap(variants)) {
      const rawHeaders = ['Host', 'example.com', written, 'value'];
      for (const name of NAMES) {
        const answer = rawHeader(rawHeaders, name);
        expect({ written, name, answer }).toEqual({ written, name, answer: expected(rawHeaders, name) });
        if (answer === undefined) missed += 1;
        else found += 1;
      }
    }
    // Both answers are common among the cases.
    expect([found > 100, missed > 1000]).toEqual([true, true]);
  });

  it('gives the first of repeated names, and undefined for none', () => {
    expect(
      rawHeader(['Content-Type', 'text/plain', 'content-type', 'application/json'], 'content-type'),
    ).toBe('text/plain');
    expect(rawHeader(['CONTENT-TYPE', 'text/plain'], 'content-type')).toBe('text/plain');
    expect(rawHeader(['Content-Typf', 'text/plain'], 'content-type')).toBeUndefined();
    expect(rawHeader(['\u212aeep-alive', 'x'], 'keep-alive')).toBeUndefined();
    expect(rawHeader([], 'content-type')).toBeUndefined();
  });
});

describe('hasBody', () => {
  it('is a declared length or a chunked body, in any case', () => {
    expect(hasBody(['Host', 'a', 'Content-Length', '0'])).toBe(true);
    expect(hasBody(['TRANSFER-ENCODING', 'chunked'])).toBe(true);
    expect(hasBody(['Host', 'a', 'Content-Type', 'application/json'])).toBe(false);
  });
});
