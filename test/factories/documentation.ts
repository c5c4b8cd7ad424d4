import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** The pages of keel's documentation, relative to the repository's root: the READMEs, the changelog and docs/. */
export function documentationPages(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return ['README.md', 'CHANGELOG.md', 'bench/README.md', 'sample/README.md', ...docs.sort()];
}

/** A page's text, by its path relative to the repository's root. */
export function readPage(page: string): string {
  return readFileSync(path.join(ROOT, page), 'utf8');
}

/** A page's text with its fenced code blocks blanked out (their lines kept, so line numbers hold). */
export function proseOf(text: string): string {
  let isFenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        isFenced = !isFenced;
        return '';
      }
      return isFenced ? '' : line;
    })
    .join('\n');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as -, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of proseOf(text).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}
