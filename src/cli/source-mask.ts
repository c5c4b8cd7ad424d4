/**
 * `source` with the text of its comments and string literals (template literals whole) blanked out,
 * line breaks kept: the same length, so an index into the mask is an index into the source, and
 * nothing found in the mask stands inside a comment or a string. Strings are filled with
 * `stringFill` (a space by default): another character keeps them code, where a value ends.
 *
 * @example
 * maskCommentsAndStrings("f('x') // y"); // "f(   )     "
 * maskCommentsAndStrings("f('x') // y", '"'); // 'f(""")     '
 */
export function maskCommentsAndStrings(source: string, stringFill = ' '): string {
  let masked = '';
  let index = 0;
  while (index < source.length) {
    const end = skippedEnd(source, index);
    if (end === index) {
      masked += source[index];
      index += 1;
    } else {
      const fill = source.startsWith('/', index) ? ' ' : stringFill;
      masked += source.slice(index, end).replace(/[^\r\n]/g, fill);
      index = end;
    }
  }
  return masked;
}

// Where the comment or string starting at `index` ends, or `index` when none starts there. An
// unclosed one runs to the end of the file (or, for a quoted string, of the line).
function skippedEnd(source: string, index: number): number {
  const start = source.slice(index, index + 2);
  if (start === '//') return endOf(source, source.indexOf('\n', index), 0);
  if (start === '/*') return endOf(source, source.indexOf('*/', index + 2), 2);
  const quote = source[index];
  if (quote !== "'" && quote !== '"' && quote !== '`') return index;
  let cursor = index + 1;
  while (cursor < source.length && source[cursor] !== quote) {
    if (quote !== '`' && source[cursor] === '\n') return cursor;
    cursor += source[cursor] === '\\' ? 2 : 1;
  }
  return Math.min(cursor + 1, source.length);
}

function endOf(source: string, found: number, length: number): number {
  return found < 0 ? source.length : found + length;
}
