/**
 * A Content-Security-Policy as helmet wrote it once at boot, ready to carry each page's nonce:
 * the header is cut where the nonce goes, so a page costs a concatenation. `upgrade-insecure-requests`
 * is kept only for pages served over HTTPS: over plain HTTP it would send the page's forms and links
 * to an `https://` address that does not answer.
 *
 * @example
 * const policy = new PagePolicy("default-src 'self';script-src 'self';upgrade-insecure-requests");
 * policy.header('abc', false); // "default-src 'self';script-src 'self' 'nonce-abc'"
 */
export class PagePolicy {
  // [before the nonce, after it] for HTTPS and for plain HTTP; the whole header where scripts are
  // not restricted, or the policy allows inline scripts already, which a nonce would only undo.
  readonly #secure: readonly [string, string] | string;
  readonly #plain: readonly [string, string] | string;

  constructor(header: string) {
    const directives = header
      .split(';')
      .map((directive) => directive.trim())
      .filter((directive) => directive !== '');
    this.#secure = withNonceSlot(directives);
    this.#plain = withNonceSlot(directives.filter((directive) => directive !== 'upgrade-insecure-requests'));
  }

  /** The header for a page with `nonce`, served over HTTPS or not. @example policy.header(nonce, true) */
  header(nonce: string, isSecure: boolean): string {
    const parts = isSecure ? this.#secure : this.#plain;
    return typeof parts === 'string' ? parts : `${parts[0]}${nonce}${parts[1]}`;
  }
}

// The nonce joins `script-src`, or a `script-src` made from `default-src` where there is none, so
// that styles and the rest keep what `default-src` says of them.
function withNonceSlot(directives: readonly string[]): readonly [string, string] | string {
  const scripts = directives.findIndex((directive) => nameOf(directive) === 'script-src');
  const fallback = directives.find((directive) => nameOf(directive) === 'default-src');
  const source = scripts >= 0 ? directives[scripts] : fallback?.replace(/^default-src/, 'script-src');
  if (source === undefined || source.includes("'unsafe-inline'")) return directives.join(';');
  const listed = scripts >= 0 ? directives : [...directives, source];
  const index = scripts >= 0 ? scripts : listed.length - 1;
  const before = [...listed.slice(0, index), `${source} 'nonce-`].join(';');
  const after = ["'", ...listed.slice(index + 1)].join(';');
  return [before, after];
}

function nameOf(directive: string): string {
  return directive.split(' ', 1)[0] ?? '';
}
