import { isEmail } from 'class-validator';
import { isPlainEmail } from '../../src/binding/plain-email';
import { seededRandom } from '../factories/seeded-random';

const PIECES = [
  'a',
  'Z',
  '0',
  '9',
  '.',
  '.',
  '@',
  '@',
  '-',
  '_',
  '+',
  "'",
  '"',
  ' ',
  'é',
  '\n',
  'xn--',
  'com',
  'io',
];
const LOCAL_CHARACTERS = ['a', 'Z', '0', 'q', 'r', 's', '-', '_', '+', "'", '!', '.'];
const ODD_CHARACTERS = ['.', 'é', '"', ' ', '@', '_', '-'];
const DOMAIN_CHARACTERS = ['a', 'b', '0', 'x', 'y', 'z', '-'];
const TOP_LEVEL_DOMAINS = ['com', 'io', 'c', '12', 'xn--p1ai', 'co', 'c0', ''];

function randomString(random: () => number): string {
  const pick = (list: readonly string[]): string => list[Math.floor(random() * list.length)] as string;
  const run = (characters: readonly string[], most: number): string =>
    Array.from({ length: Math.floor(random() * most) }, () => pick(characters)).join('');
  // Half of them shaped like an address (a local part, labels, a top-level domain), so that both
  // answers come up; half any string of the pieces.
  if (random() < 0.5) return run(PIECES, 24);
  const labels = Array.from({ length: 1 + Math.floor(random() * 3) }, () => run(DOMAIN_CHARACTERS, 6));
  const address = `${run(LOCAL_CHARACTERS, 8)}@${labels.join('.')}.${pick(TOP_LEVEL_DOMAINS)}`;
  if (random() < 0.5) return address;
  // One odd character put anywhere.
  const at = Math.floor(random() * (address.length + 1));
  return address.slice(0, at) + pick(ODD_CHARACTERS) + address.slice(at);
}

// Ordinary addresses around a boundary: a local part, a label or the whole at, below and above its limit.
function boundaryStrings(): string[] {
  const strings: string[] = [];
  for (const local of [63, 64, 65]) strings.push(`${'a'.repeat(local)}@example.com`);
  for (const label of [62, 63, 64]) strings.push(`ada@${'b'.repeat(label)}.com`);
  for (const total of [253, 254, 255]) {
    const labels = Array.from({ length: 5 }, () => 'c'.repeat(60)).join('.');
    const domain = `${labels}.org`.slice(0, total - 'ada@'.length - 4) + '.org';
    strings.push(`ada@${domain.replace(/^\.+|\.(?=\.)/g, 'd')}`);
  }
  for (const tld of ['c', 'co', 'c0', '12', 'xn--p1ai', 'a'.repeat(63), 'a'.repeat(64)])
    strings.push(`ada@example.${tld}`);
  return strings;
}

const ACCEPTED_AT_ONCE = [
  'ada@example.com',
  'first.last+tag@sub.example.co.uk',
  "o'brien@example.org",
  'A-Z_0-9!#$%&*/=?^`{|}~@x-y.example.museum',
];

const LEFT_TO_ISEMAIL = [
  '"quoted local"@example.com',
  'ünïcødé@example.com',
  'ada@exämple.com',
  'ada@xn--bcher-kva.xn--p1ai',
  'ada..lovelace@example.com',
  '.ada@example.com',
  'ada.@example.com',
  'ada@-example.com',
  'ada@example-.com',
  'ada@example.com.',
  'ada@example..com',
  'ada@example',
  'ada@example.c0m',
  'ada@@example.com',
  'ada@exa_mple.com',
  'ada @example.com',
  'ada@example.com\n',
  'Ada <ada@example.com>',
  '',
];

describe('isPlainEmail, the shortcut in front of @IsEmail()', () => {
  it('accepts only what class-validator accepts, over crafted, boundary and random strings', () => {
    const random = seededRandom(20261127);
    const strings = [...ACCEPTED_AT_ONCE, ...LEFT_TO_ISEMAIL, ...boundaryStrings()];
    for (let i = 0; i < 200_000; i++) strings.push(randomString(random));
    const wronglyAccepted = strings.filter((text) => isPlainEmail(text) && !isEmail(text));
    expect(wronglyAccepted).toEqual([]);
    // The random strings reach both answers, so that the comparison is not of rejections alone.
    expect(strings.filter((text) => isPlainEmail(text)).length).toBeGreaterThan(1_000);
  });

  it('accepts ordinary addresses itself, at the limits class-validator sets', () => {
    for (const text of ACCEPTED_AT_ONCE) expect([text, isPlainEmail(text)]).toEqual([text, true]);
    expect(isPlainEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isPlainEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
    expect(isPlainEmail(`ada@${'b'.repeat(63)}.com`)).toBe(true);
    expect(isPlainEmail(`ada@${'b'.repeat(64)}.com`)).toBe(false);
  });

  it('leaves the rest to class-validator, whose answer stands', () => {
    for (const text of LEFT_TO_ISEMAIL) expect([text, isPlainEmail(text)]).toEqual([text, false]);
    // Some of them class-validator accepts: the shortcut's false is no verdict.
    expect(LEFT_TO_ISEMAIL.filter((text) => isEmail(text))).toEqual(
      expect.arrayContaining([
        '"quoted local"@example.com',
        'ünïcødé@example.com',
        'ada@xn--bcher-kva.xn--p1ai',
      ]),
    );
  });
});
