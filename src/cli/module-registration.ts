import { callArguments, callOptions, type CallOptions } from './call-options';
import { objectProperties, type Property, type Span } from './object-literal';
import { maskCommentsAndStrings } from './source-mask';
import { applyEdits, lineChange, type Edit, type LineChange } from './text-edit';

export type { LineChange } from './text-edit';

/** What to add to the root module for one controller. */
export interface ModuleEntry {
  readonly className: string;
  /** The import line that brings the class into the module file. */
  readonly importLine: string;
}

/** What registering a controller in a module file comes to. */
export type Registration =
  | { readonly kind: 'edit'; readonly text: string; readonly changes: readonly LineChange[] }
  | { readonly kind: 'registered' }
  | { readonly kind: 'manual'; readonly reason: string };

/** Where a class is registered: the `key: [...]` list of the object literal a call takes. */
export interface ListSite {
  /** The key whose array lists the classes: `controllers`, `migrations`. */
  readonly key: string;
  /** The call, as the reader writes it: `@Module({...})`. */
  readonly call: string;
  /** Where a reader adds the lines by hand when the file cannot be edited safely. */
  readonly place: string;
  /** The call's opening, up to its `(`: `@Module(`. */
  readonly opening: RegExp;
  /** Whether a call whose options have no such key gets one (`migrations: [Name]`), or is left to the reader. */
  readonly addsMissingKey: boolean;
}

/** The controllers of `@Module({...})`: where `make:controller` registers a controller. */
export const CONTROLLERS_SITE: ListSite = {
  key: 'controllers',
  call: '@Module({...})',
  place: 'the module you pass to createApplication',
  opening: /@Module\s*\(/,
  addsMissingKey: false,
};
// A statement from `import` to its module string at the end of a line; it may span lines.
const IMPORT_STATEMENT = /^import\s[^;]*?['"][^'"\n]*['"][ \t]*;?[ \t]*$/gm;
const PLAIN_NAMES = /^[\s\w$,]*$/;

/**
 * Plans adding `entry` to the one `controllers: [...]` of `@Module({...})` (or the list `site` names:
 * for migrations, in the options object `DatabaseModule.forRoot` is given or its factory returns,
 * adding the key when the options have none) in a module file, and its import line after the last
 * import, as a conservative text edit that keeps the file's line endings and byte order mark:
 * anything it cannot read with certainty (no list or more than one, comments, spreads or calls
 * inside it, options built elsewhere, no import to follow) gives `manual`, with the reason.
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
  // Strings filled, not blanked: a value that ends in one still ends there.
  const masked = maskCommentsAndStrings(source, '"');
  const calls = callArguments(masked, site.opening).map((args) => callOptions(source, masked, args));
  const keyed = calls.flatMap((options) =>
    options.kind === 'object'
      ? objectProperties(masked, options.span)
          .filter((property) => property.name === site.key)
          .map((property) => ({ options: options.span, property }))
      : [],
  );
  if (keyed.length > 1) return manual(`it has ${keyed.length} ${site.key}: keys`);
  const target = keyed[0];
  if (!target && !site.addsMissingKey) {
    return manual(
      new RegExp(`\\b${site.key}\\s*:`).test(source)
        ? `its ${site.key}: key is inside a comment or a string, or outside ${site.call}`
        : `it has no ${site.key}: [...] in ${site.call}`,
    );
  }
  if (new RegExp(`(?<![\\w$])${escape(entry.className)}(?![\\w$])`).test(masked)) {
    return target && listedNames(source, masked, target.property)?.includes(entry.className)
      ? { kind: 'registered' }
      : manual(`it already mentions ${entry.className} outside its ${site.key} list`);
  }
  const change = target
    ? listEdit(source, masked, target.property, site, entry.className)
    : keyInsertion(source, masked, calls, site, entry.className);
  if ('reason' in change) return manual(change.reason);
  const at = target ? target.options.open : change.start;
  // An import inside a template literal is text, not a place to add one after.
  const imports = [...source.matchAll(IMPORT_STATEMENT)].filter((match) => masked[match.index] === 'i');
  const lastImport = imports.at(-1);
  if (!lastImport) return manual('it has no import lines to add one after');
  const importEnd = lastImport.index + lastImport[0].length;
  if (importEnd > at) return manual('its imports do not all come before the module');

  const edits: Edit[] = [{ start: importEnd, end: importEnd, replacement: `\n${entry.importLine}` }, change];
  return {
    kind: 'edit',
    text: applyEdits(source, edits),
    changes: edits.map((edit) => lineChange(source, edit)),
  };
}

type Planned = Edit | { readonly reason: string };

// The names a `key: [A, B]` property lists, or undefined when it is not such a list.
function listedNames(source: string, masked: string, property: Property): string[] | undefined {
  const list = listSpan(masked, property);
  const inner = list && source.slice(list.open + 1, list.close);
  return inner !== undefined && PLAIN_NAMES.test(inner)
    ? inner.split(',').map((name) => name.trim())
    : undefined;
}

function listSpan(masked: string, property: Property): Span | undefined {
  if (property.kind !== 'value') return undefined;
  const open = property.valueStart + (/^\s*/.exec(masked.slice(property.valueStart))?.[0].length ?? 0);
  const close = masked.indexOf(']', open);
  return masked[open] === '[' && close >= 0 && close < property.end ? { open, close } : undefined;
}

// Adds `name` to the list the property holds.
function listEdit(source: string, masked: string, property: Property, site: ListSite, name: string): Planned {
  const list = listSpan(masked, property);
  if (!list) return { reason: `its ${site.key} is not an array written out in place` };
  const inner = source.slice(list.open + 1, list.close);
  if (!PLAIN_NAMES.test(inner)) return { reason: `its ${site.key} list holds more than plain class names` };
  return { start: list.open + 1, end: list.close, replacement: appendToList(inner, name) };
}

// Adds `key: [name]` as the last property of the one call's options, in their layout.
function keyInsertion(
  source: string,
  masked: string,
  calls: readonly CallOptions[],
  site: ListSite,
  name: string,
): Planned {
  const [options, ...others] = calls;
  if (!options) return { reason: `it has no ${site.call}` };
  if (others.length > 0) return { reason: `it has ${calls.length} calls of ${site.call}` };
  if (options.kind === 'elsewhere') {
    return { reason: `the options of ${site.call} are not an object it can read: ${options.found}` };
  }
  const properties = objectProperties(masked, options.span);
  if (properties.some(({ kind }) => kind === 'spread' || kind === 'other')) {
    return {
      reason: `its options hold a spread or a quoted or computed key, which may give ${site.key} already`,
    };
  }
  return propertyInsertion(source, masked, options.span, `${site.key}: [${name}]`);
}

function propertyInsertion(source: string, masked: string, object: Span, property: string): Edit {
  const codeEnd = masked.slice(0, object.close).trimEnd().length;
  if (codeEnd === object.open + 1) return { start: codeEnd, end: object.close, replacement: ` ${property} ` };
  const hasTrailingComma = masked[codeEnd - 1] === ',';
  const lineEnd = source.indexOf('\n', codeEnd);
  if (lineEnd < 0 || lineEnd > object.close) {
    const replacement = hasTrailingComma ? ` ${property},` : `, ${property}`;
    return { start: codeEnd, end: codeEnd, replacement };
  }
  // One property a line: a new last line, indented as the last property's first line, after any
  // comment that ends the line before it.
  const lastStart = masked.lastIndexOf('\n', objectProperties(masked, object).at(-1)?.start ?? codeEnd) + 1;
  const indent = /^[ \t]*/.exec(source.slice(lastStart))?.[0] ?? '';
  const replacement = `${hasTrailingComma ? '' : ','}${source.slice(codeEnd, lineEnd)}\n${indent}${property}${hasTrailingComma ? ',' : ''}`;
  return { start: codeEnd, end: lineEnd, replacement };
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

function escape(name: string): string {
  return name.replace(/\$/g, '\\$');
}
