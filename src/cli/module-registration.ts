import { maskCommentsAndStrings } from './source-mask';

/** What to add to the root module for one controller. */
export interface ModuleEntry {
  readonly className: string;
  /** The import line that brings the class into the module file. */
  readonly importLine: string;
}

/** One edited place of a file, as lines: `removed` from line `line` on, `added` in their place. */
export interface LineChange {
  readonly line: number;
  readonly removed: readonly string[];
  readonly added: readonly string[];
}

/** What registering a controller in a module file comes to. */
export type Registration =
  | { readonly kind: 'edit'; readonly text: string; readonly changes: readonly LineChange[] }
  | { readonly kind: 'registered' }
  | { readonly kind: 'manual'; readonly reason: string };

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** Where a class is registered: the `key: [...]` list of the object literal a call takes. */
export interface ListSite {
  /** The key whose array lists the classes: `controllers`, `migrations`. */
  readonly key: string;
  /** The call, as the reader writes it: `@Module({...})`. */
  readonly call: string;
  /** Where a reader adds the lines by hand when the file cannot be edited safely. */
  readonly place: string;
  /** Whether the text just before the object literal's `{` is that call's opening. */
  readonly opensCall: RegExp;
}

/** The controllers of `@Module({...})`: where `make:controller` registers a controller. */
export const CONTROLLERS_SITE: ListSite = {
  key: 'controllers',
  call: '@Module({...})',
  place: 'the module you pass to createApplication',
  opensCall: /@Module\s*\(\s*$/,
};
// A statement from `import` to its module string at the end of a line; it may span lines.
const IMPORT_STATEMENT = /^import\s[^;]*?['"][^'"\n]*['"][ \t]*;?[ \t]*$/gm;
const PLAIN_NAMES = /^[\s\w$,]*$/;

/**
 * Plans adding `entry` to the one `controllers: [...]` of `@Module({...})` (or the list `site` names)
 * in a module file and its
 * import line after the last import, as a conservative text edit that keeps the file's line endings
 * and byte order mark: anything it cannot read with certainty (no list or more than one, comments,
 * spreads or calls inside it, no import to follow) gives `manual`, with the reason.
 *
 * @example
 * planRegistration("import { Module } from 'keel';\n@Module({ controllers: [] })\nexport class AppModule {}\n",
 *   { className: 'OrderController', importLine: "import { OrderController } from './order';" });
 * // { kind: 'edit', text: "...controllers: [OrderController]...", changes: [...] }
 */
export function planRegistration(
  source: string,
  entry: ModuleEntry,
  site: ListSite = CONTROLLERS_SITE,
): Registration {
  const bom = source.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = source.slice(bom.length);
  // Only a file whose every line ends in CRLF is edited as LF and turned back; a mixed one is kept as is.
  const isCrlf = body.includes('\r\n') && !/(?<!\r)\n/.test(body);
  const plan = planLfRegistration(isCrlf ? body.replace(/\r\n/g, '\n') : body, entry, site);
  if (plan.kind !== 'edit') return plan;
  return { ...plan, text: bom + (isCrlf ? plan.text.replace(/\n/g, '\r\n') : plan.text) };
}

function planLfRegistration(source: string, entry: ModuleEntry, site: ListSite): Registration {
  const masked = maskCommentsAndStrings(source);
  const pattern = new RegExp(`\\b${site.key}\\s*:`, 'g');
  const keys = [...masked.matchAll(pattern)].filter((key) => isKeyOf(masked, key.index, site.opensCall));
  if (keys.length > 1) return manual(`it has ${keys.length} ${site.key}: keys`);
  const key = keys[0];
  if (!key) {
    return manual(
      source.search(pattern) >= 0
        ? `its ${site.key}: key is inside a comment or a string, or outside ${site.call}`
        : `it has no ${site.key}: [...] in ${site.call}`,
    );
  }
  const open =
    key.index + key[0].length + (/^\s*/.exec(source.slice(key.index + key[0].length))?.[0].length ?? 0);
  const close = masked.indexOf(']', open);
  if (source[open] !== '[' || close < 0)
    return manual(`its ${site.key} is not an array written out in place`);
  const inner = source.slice(open + 1, close);
  if (!PLAIN_NAMES.test(inner)) return manual(`its ${site.key} list holds more than plain class names`);

  const listed = inner.split(',').map((name) => name.trim());
  if (listed.includes(entry.className)) return { kind: 'registered' };
  if (new RegExp(`(?<![\\w$])${escape(entry.className)}(?![\\w$])`).test(source)) {
    return manual(`it already mentions ${entry.className} outside its ${site.key} list`);
  }
  // An import inside a template literal is text, not a place to add one after.
  const imports = [...source.matchAll(IMPORT_STATEMENT)].filter((match) => masked[match.index] === 'i');
  const lastImport = imports.at(-1);
  if (!lastImport) return manual('it has no import lines to add one after');
  const importEnd = lastImport.index + lastImport[0].length;
  if (importEnd > key.index) return manual('its imports do not all come before the module');

  const edits: Edit[] = [
    { start: importEnd, end: importEnd, replacement: `\n${entry.importLine}` },
    { start: open + 1, end: close, replacement: appendToList(inner, entry.className) },
  ];
  return {
    kind: 'edit',
    text: applyEdits(source, edits),
    changes: edits.map((edit) => lineChange(source, edit)),
  };
}

function manual(reason: string): Registration {
  return { kind: 'manual', reason };
}

// Keeps the list's own layout: one line stays one line; a list of one name a line gets one more line,
// indented like the last, with a trailing comma where the others have one.
function appendToList(inner: string, name: string): string {
  const items = inner.trim();
  if (items === '') return name;
  if (!inner.includes('\n')) return `${items.replace(/,$/, '')}, ${name}`;
  const content = inner.trimEnd();
  const closing = inner.slice(content.length);
  const lastLine = content.slice(content.lastIndexOf('\n') + 1);
  const indent = /^\s*/.exec(lastLine)?.[0] ?? '';
  const hasTrailingComma = content.endsWith(',');
  return `${hasTrailingComma ? content : `${content},`}\n${indent}${name}${hasTrailingComma ? ',' : ''}${closing}`;
}

// Whether the key at `index` belongs to the object literal the site's call is made with, not to an
// object nested in it or found elsewhere.
function isKeyOf(masked: string, index: number, opensCall: RegExp): boolean {
  let depth = 0;
  for (let cursor = index - 1; cursor >= 0; cursor -= 1) {
    const char = masked.charAt(cursor);
    if ('}])'.includes(char)) depth += 1;
    else if ('{[('.includes(char)) {
      if (depth === 0) return char === '{' && opensCall.test(masked.slice(0, cursor));
      depth -= 1;
    }
  }
  return false;
}

function applyEdits(source: string, edits: readonly Edit[]): string {
  return [...edits]
    .sort((a, b) => b.start - a.start)
    .reduce((text, edit) => text.slice(0, edit.start) + edit.replacement + text.slice(edit.end), source);
}

// The whole lines an edit touches, before and after, less the lines it leaves as they were.
function lineChange(source: string, edit: Edit): LineChange {
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

function escape(name: string): string {
  return name.replace(/\$/g, '\\$');
}
