/** One edited place of a file, as lines: `removed` from line `line` on, `added` in their place. */
export interface LineChange {
  readonly line: number;
  readonly removed: readonly string[];
  readonly added: readonly string[];
}

/** A replacement of the text between two indices of a source. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/**
 * `source` with `edits` (which must not overlap) applied, each at the indices of the source as given.
 *
 * @example
 * applyEdits('ab', [{ start: 1, end: 1, replacement: '-' }]); // 'a-b'
 */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  return [...edits]
    .sort((a, b) => b.start - a.start)
    .reduce((text, edit) => text.slice(0, edit.start) + edit.replacement + text.slice(edit.end), source);
}

/**
 * The whole lines an edit touches, before and after, less the lines it leaves as they were: what a
 * report shows as a small diff.
 *
 * @example
 * lineChange('a\nb\n', { start: 2, end: 3, replacement: 'c' }); // { line: 2, removed: ['b'], added: ['c'] }
 */
export function lineChange(source: string, edit: Edit): LineChange {
  const lineStart = source.lastIndexOf('\n', edit.start - 1) + 1;
  const nextBreak = source.indexOf('\n', edit.end);
  const lineEnd = nextBreak < 0 ? source.length : nextBreak;
  const removed = source.slice(lineStart, lineEnd).split('\n');
  const added = (
    source.slice(lineStart, edit.start) +
    edit.replacement +
    source.slice(edit.end, lineEnd)
  ).split('\n');
  let line = source.slice(0, lineStart).split('\n').length;
  while (removed.length > 0 && added.length > 0 && removed[0] === added[0]) {
    removed.shift();
    added.shift();
    line += 1;
  }
  while (removed.length > 0 && added.length > 0 && removed.at(-1) === added.at(-1)) {
    removed.pop();
    added.pop();
  }
  return { line, removed, added };
}
