/** A place in a source: the index of an opening bracket and of the one that closes it. */
export interface Span {
  readonly open: number;
  readonly close: number;
}

/** One property of an object literal, as written. */
export interface Property {
  /** `value` (`key: value`), `method` (`key() {}`), `shorthand` (`key`), `spread`, or `other` (a quoted or computed key, an accessor). */
  readonly kind: 'value' | 'method' | 'shorthand' | 'spread' | 'other';
  /** Its key, when it is a plain name. */
  readonly name?: string;
  /** Where the property starts, and where its value (or, for a method, its parameters) starts. */
  readonly start: number;
  readonly valueStart: number;
  /** Just past its last character that is code (not a comma, a space or a comment). */
  readonly end: number;
}

const OPENERS = '([{';
const CLOSERS = ')]}';
const PROPERTY_HEAD = /^(?:async\s+)?(?:\*\s*)?([A-Za-z_$][\w$]*)\s*(:|\(|$)/;

/**
 * The index of the bracket that closes the one at `open` in `masked` (comments and strings blanked,
 * see `maskCommentsAndStrings`), or -1 when it is never closed.
 *
 * @example
 * closingBracket('f({ a: [1] })', 1); // 12
 */
export function closingBracket(masked: string, open: number): number {
  let depth = 0;
  for (let cursor = open; cursor < masked.length; cursor += 1) {
    const char = masked.charAt(cursor);
    if (OPENERS.includes(char)) depth += 1;
    else if (CLOSERS.includes(char)) {
      depth -= 1;
      if (depth === 0) return cursor;
    }
  }
  return -1;
}

/**
 * The first index from `from` up to `to` that `isWanted` accepts among those outside every bracket
 * opened after `from` (and before any bracket closes one opened before it), or -1.
 *
 * @example
 * indexAtDepth('a(;);b', 0, 6, (at) => 'a(;);b'[at] === ';'); // 4
 */
export function indexAtDepth(
  masked: string,
  from: number,
  to: number,
  isWanted: (index: number) => boolean,
): number {
  let depth = 0;
  for (let cursor = from; cursor < to; cursor += 1) {
    const char = masked.charAt(cursor);
    if (OPENERS.includes(char)) depth += 1;
    else if (CLOSERS.includes(char)) depth -= 1;
    else if (depth === 0 && isWanted(cursor)) return cursor;
  }
  return -1;
}

/**
 * The properties of the object literal `span` encloses in `masked`, in order: only its own, never
 * those of an object nested in a value. A quoted key is blanked in the mask, so it reads as `other`.
 *
 * @example
 * objectProperties('{ a: 1, ...b }', { open: 0, close: 13 }).map((p) => p.kind); // ['value', 'spread']
 */
export function objectProperties(masked: string, span: Span): Property[] {
  const properties: Property[] = [];
  let start = span.open + 1;
  let depth = 0;
  for (let cursor = start; cursor <= span.close; cursor += 1) {
    const char = masked.charAt(cursor);
    if (cursor === span.close || (depth === 0 && char === ',')) {
      const property = readProperty(masked, start, cursor);
      if (property) properties.push(property);
      start = cursor + 1;
    } else if (OPENERS.includes(char)) depth += 1;
    else if (CLOSERS.includes(char)) depth -= 1;
  }
  return properties;
}

function readProperty(masked: string, from: number, to: number): Property | undefined {
  const text = masked.slice(from, to);
  const leading = text.length - text.trimStart().length;
  const code = text.trim();
  if (code === '') return undefined;
  const start = from + leading;
  const end = start + code.length;
  if (code.startsWith('...')) return { kind: 'spread', start, valueStart: start + 3, end };
  const head = PROPERTY_HEAD.exec(code);
  if (!head?.[1]) return { kind: 'other', start, valueStart: start, end };
  const [matched, name, after] = head;
  if (after === '') return { kind: 'shorthand', name, start, valueStart: end, end };
  // A method's value starts at its parameters' `(`; a property's just past its `:`.
  const valueStart = start + matched.length - (after === '(' ? 1 : 0);
  return { kind: after === '(' ? 'method' : 'value', name, start, valueStart, end };
}
