import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_GROUPS, type ErrorEntry } from '../../src/errors';

// Read from the groups, not from `Errors`: spreading the groups into one object would hide a key given twice.
const entries = Object.entries(ERROR_GROUPS).flatMap(([group, builders]) =>
  Object.entries(builders as Readonly<Record<string, ErrorEntry>>).map(([key, entry]) => ({
    group,
    key,
    entry,
  })),
);

function repeated(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

// The table's rows: | `E_CODE` | status or exit | meaning |
function documentedCodes(): Map<string, string> {
  const table = readFileSync(join(__dirname, '../../docs/reference/error-codes.md'), 'utf8');
  const rows = table.matchAll(/^\|\s*`(E_[A-Z0-9_]+)`\s*\|\s*([^|]*?)\s*\|/gm);
  return new Map([...rows].map(([, code = '', status = '']) => [code, status]));
}

describe('the error catalogue', () => {
  test('every group is a table of entries, each with a code and a message', () => {
    expect(entries.length).toBeGreaterThan(100);
    for (const { group, key, entry } of entries) {
      expect({ at: `${group}.${key}`, code: entry.code }).toEqual({
        at: `${group}.${key}`,
        code: expect.stringMatching(/^E_[A-Z0-9_]+$/),
      });
      expect({ at: `${group}.${key}`, message: typeof entry.message }).toEqual({
        at: `${group}.${key}`,
        message: 'function',
      });
    }
  });

  test('no key is given to two builders across the registry', () => {
    expect(repeated(entries.map(({ key }) => key))).toEqual([]);
  });

  test('no code is given to two entries across the registry', () => {
    expect(repeated(entries.map(({ entry }) => entry.code))).toEqual([]);
  });

  test('an entry has a status or an exit code, never both, and a status is an error status', () => {
    for (const { group, key, entry } of entries) {
      const at = `${group}.${key}`;
      expect({ at, both: entry.status !== undefined && entry.exitCode !== undefined }).toEqual({
        at,
        both: false,
      });
      if (entry.status !== undefined) {
        expect({ at, isErrorStatus: entry.status >= 400 && entry.status <= 599 }).toEqual({
          at,
          isErrorStatus: true,
        });
      }
    }
  });

  test('docs/reference/error-codes.md lists every code, with its status or exit code, and no other', () => {
    const documented = documentedCodes();
    const codes = entries.map(({ entry }) => entry.code);
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented.keys()].filter((code) => !codes.includes(code))).toEqual([]);
    for (const { entry } of entries) {
      const shown = entry.status ?? (entry.exitCode === undefined ? '—' : `exit ${entry.exitCode}`);
      expect({ code: entry.code, shown: documented.get(entry.code) }).toEqual({
        code: entry.code,
        shown: String(shown),
      });
    }
  });
});
