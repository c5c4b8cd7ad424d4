import type { Eta } from 'eta';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { HandlerErrors } from '../errors/handler-errors';

/**
 * Renders templates from one views directory with eta (autoescaped), refusing any name that
 * resolves outside it before a file is read.
 */
export class ViewRenderer {
  readonly #root: string;
  readonly #isCached: boolean;
  readonly #existing = new Map<string, boolean>();
  #eta: Eta | undefined;

  constructor(root: string, options: { cache: boolean }) {
    this.#root = path.resolve(root);
    this.#isCached = options.cache;
  }

  /**
   * Whether the template `name` exists (asked again each time unless templates are cached, so a
   * page added while developing is found). @example views.has('errors/404.html')
   */
  has(name: string): boolean {
    const known = this.#existing.get(name);
    if (known !== undefined) return known;
    const exists = existsSync(this.#file(name));
    if (this.#isCached) this.#existing.set(name, exists);
    return exists;
  }

  /** Renders `name` (relative to the views directory, such as `orders/index.html`) with `data`. */
  render(name: string, data: object = {}): string {
    const file = this.#file(name);
    const relative = path.relative(this.#root, file);
    // A leading slash makes eta resolve from the views root and never read the name as one of its `@named` templates.
    return this.#engine().render(`/${relative.split(path.sep).join('/')}`, data);
  }

  // The template's file, refused before anything is read when the name leaves the views directory.
  #file(name: string): string {
    const file = path.resolve(this.#root, name);
    const relative = path.relative(this.#root, file);
    if (
      name.includes('\0') ||
      relative === '' ||
      relative === '..' ||
      relative.startsWith(`..${path.sep}`) ||
      path.isAbsolute(relative)
    ) {
      throw HandlerErrors.templateOutsideViews(name, this.#root);
    }
    return file;
  }

  // eta loads with the first page rendered: a JSON service never loads it.
  #engine(): Eta {
    if (this.#eta) return this.#eta;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load
    const { Eta: Engine } = require('eta') as typeof import('eta');
    this.#eta = new Engine({
      views: this.#root,
      autoEscape: true,
      cache: this.#isCached,
      defaultExtension: '.html',
    });
    return this.#eta;
  }
}
