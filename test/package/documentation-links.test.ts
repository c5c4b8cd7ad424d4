import { describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../factories/cli';
import { documentationPages, headingAnchors, proseOf, readPage } from '../factories/documentation';

// Every relative link of the documentation points to a file that exists and, when it names one, to a
// heading of that file: a page moved or a heading renamed fails here rather than on a reader.
const LINK = /!?\[[^\]]*\]\(([^)\s]+)\)/g;

function relativeLinks(page: string): string[] {
  const prose = proseOf(readPage(page)).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(LINK)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

describe.each(documentationPages())('%s', (page) => {
  test('every relative link resolves to a file, and its anchor to a heading there', () => {
    const broken = relativeLinks(page).filter((link) => {
      const [file, anchor] = link.split('#');
      const target = file === '' ? page : path.join(path.dirname(page), file);
      if (!existsSync(path.join(REPO_ROOT, target))) return true;
      if (anchor === undefined) return false;
      return !target.endsWith('.md') || !headingAnchors(readPage(target)).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});

test('the documentation’s pages link to each other: every page under docs/ is reachable from README.md', () => {
  const reached = new Set<string>();
  const queue = ['README.md'];
  while (queue.length > 0) {
    const page = queue.shift() as string;
    if (reached.has(page)) continue;
    reached.add(page);
    for (const link of relativeLinks(page)) {
      const file = link.split('#')[0];
      if (file.endsWith('.md')) queue.push(path.join(path.dirname(page), file));
    }
  }
  expect(documentationPages().filter((page) => !reached.has(page))).toEqual([]);
});
