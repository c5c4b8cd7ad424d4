import { closingBracket, indexAtDepth, objectProperties, type Span } from './object-literal';

/** Where the options of a call are written: an object literal in place, or what stands there instead. */
export type CallOptions =
  { readonly kind: 'object'; readonly span: Span } | { readonly kind: 'elsewhere'; readonly found: string };

// A factory's parameters, then its arrow or its body; `async` and a return type are allowed.
const FUNCTION_START =
  /^(?:async\b\s*)?(?:function\b\s*(?:[A-Za-z_$][\w$]*\s*)?(?=\()|(?=\()|([A-Za-z_$][\w$]*)\s*(?==>))/;
const SNIPPET_LENGTH = 40;

/**
 * The argument lists of every call in `masked` that `opening` (a pattern ending in the call's `(`)
 * finds, as the spans of their parentheses; a call never closed is left out.
 *
 * @example
 * callArguments('DatabaseModule.forRoot({})', /DatabaseModule\s*\.\s*forRoot\s*\(/); // [{ open: 22, close: 25 }]
 */
export function callArguments(masked: string, opening: RegExp): Span[] {
  const global = new RegExp(opening.source, 'g');
  return [...masked.matchAll(global)]
    .map((match) => match.index + match[0].length - 1)
    .map((open) => ({ open, close: closingBracket(masked, open) }))
    .filter((span) => span.close > span.open);
}

/**
 * The object literal a call's options are written in: its one argument when that is an object, the
 * object a `useFactory` property of that argument returns, or the object a function argument
 * returns (`() => ({...})`, or a body with one `return {...}`). Anything else (a variable, a call, a
 * function defined elsewhere, more than one `return`) is `elsewhere`, saying what stands there.
 *
 * @example
 * callOptions(source, maskCommentsAndStrings(source), callArguments(masked, opening)[0]);
 */
export function callOptions(source: string, masked: string, args: Span): CallOptions {
  const start = skipSpace(masked, args.open + 1);
  if (masked[start] !== '{')
    return functionResult(source, masked, { from: start, to: args.close }, 'it is given');
  const span = { open: start, close: closingBracket(masked, start) };
  if (masked.slice(span.close + 1, args.close).trim() !== '') {
    return elsewhere(`it is given more than one argument: ${snippet(source, start, args.close)}`);
  }
  const factory = objectProperties(masked, span).find((property) => property.name === 'useFactory');
  if (!factory) return { kind: 'object', span };
  if (factory.kind === 'shorthand') return elsewhere('its useFactory is a function defined elsewhere');
  const range = { from: skipSpace(masked, factory.valueStart), to: factory.end };
  return functionResult(source, masked, range, 'its useFactory is', factory.kind === 'method');
}

interface Range {
  readonly from: number;
  readonly to: number;
}

// The object a function written in `range` returns; `said` starts what is reported otherwise. A
// method's value starts at its parameters.
function functionResult(
  source: string,
  masked: string,
  range: Range,
  said: string,
  isMethod = false,
): CallOptions {
  const head = isMethod ? [''] : FUNCTION_START.exec(masked.slice(range.from, range.to));
  if (!head) return elsewhere(`${said} \`${snippet(source, range.from, range.to)}\`, built elsewhere`);
  let cursor = range.from + (head[0] ?? '').length;
  if (!head[1]) cursor = closingBracket(masked, cursor) + 1;
  const isArrow = !isMethod && !/\bfunction\b/.test(head[0] ?? '');
  // An arrow's body follows its `=>`; a function's is its first block (a return type with braces of
  // its own holds no return, so it is refused, never edited).
  const bodyStart = isArrow ? afterArrow(masked, cursor, range.to) : masked.indexOf('{', cursor);
  if (bodyStart < 0 || bodyStart >= range.to)
    return elsewhere(`${said} a function whose body cannot be read`);
  if (masked[bodyStart] === '{') return blockResult(source, masked, bodyStart);
  return returnedObject(source, masked, { from: bodyStart, to: range.to }, 'its factory returns');
}

// Just past the `=>` at the depth of `from`, and the spaces after it; -1 when there is none.
function afterArrow(masked: string, from: number, to: number): number {
  const arrow = indexAtDepth(masked, from, to, (at) => masked.startsWith('=>', at));
  return arrow < 0 ? -1 : skipSpace(masked, arrow + 2);
}

// The one `return {...}` of the block at `open`; a block with none, or with more (an early return
// in a branch, a nested function), is not read.
function blockResult(source: string, masked: string, open: number): CallOptions {
  const close = closingBracket(masked, open);
  const block = masked.slice(open, close);
  const returns = [...block.matchAll(/(?<![\w$.])return\b/g)].map((match) => open + match.index);
  if (returns.length !== 1) {
    return elsewhere(
      returns.length === 0 ? 'its factory has no return' : `its factory returns in ${returns.length} places`,
    );
  }
  const at = returns[0] as number;
  if (indexAtDepth(masked, open + 1, close, (index) => index === at) !== at) {
    return elsewhere('its factory returns from inside a nested block');
  }
  // The statement ends at its `;`, or with the block.
  const semicolon = indexAtDepth(masked, at, close, (index) => masked[index] === ';');
  const end = semicolon < 0 ? close : semicolon;
  return returnedObject(
    source,
    masked,
    { from: skipSpace(masked, at + 'return'.length), to: end },
    'its factory returns',
  );
}

// An expression that is an object literal, bare or in parentheses (`({...})`), with at most an
// `as`/`satisfies` type after it.
function returnedObject(source: string, masked: string, range: Range, said: string): CallOptions {
  let start = range.from;
  let limit = range.to;
  if (masked[start] === '(') {
    limit = closingBracket(masked, start);
    start = skipSpace(masked, start + 1);
  }
  const close = masked[start] === '{' ? closingBracket(masked, start) : -1;
  if (
    close < 0 ||
    close > limit ||
    !/^\s*(?:(?:as|satisfies)\b[^]*)?$/.test(masked.slice(close + 1, limit))
  ) {
    return elsewhere(
      `${said} \`${snippet(source, range.from, range.to)}\`, not an object written out in place`,
    );
  }
  return { kind: 'object', span: { open: start, close } };
}

function skipSpace(masked: string, from: number): number {
  return from + (/^\s*/.exec(masked.slice(from))?.[0].length ?? 0);
}

function elsewhere(found: string): CallOptions {
  return { kind: 'elsewhere', found };
}

// The source between two indices on one line, shortened: what the message quotes.
function snippet(source: string, from: number, to: number): string {
  const text = source.slice(from, to).trim().replace(/\s+/g, ' ');
  return text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH - 1)}…` : text;
}
