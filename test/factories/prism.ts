import path from 'node:path';
import { startChild, type ChildApp } from './child-app';
import { REPO_ROOT } from './cli';
import { closedPort } from './test-databases';

const PRISM = path.join(REPO_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

/** How long Prism may take to read a document and listen: it compiles every schema first. */
export const PRISM_START_TIMEOUT_MS = 60_000;

/** One finding of Prism's validator, as its `sl-violations` header lists them. */
export interface Violation {
  /** Where: `['request', ...]` or `['response', 'body', ...]`. */
  readonly location: readonly string[];
  readonly message: string;
  readonly severity: string;
}

/**
 * Starts `prism proxy <documentFile> <upstream>` (Stoplight Prism, the validating proxy) on a free
 * port of 127.0.0.1 and resolves once it listens. Request validation is off, so that bad requests
 * reach the application and its answers to them are checked too; with `errors`, an answer the
 * document does not describe is replaced by Prism's 500 `VIOLATIONS` problem, and a request without
 * the credentials an operation's security requires is refused by Prism itself.
 */
export async function startPrism(
  documentFile: string,
  upstream: string,
  { errors }: { errors: boolean },
): Promise<ChildApp> {
  const port = await closedPort();
  return startChild({
    args: [
      PRISM,
      'proxy',
      documentFile,
      upstream,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--errors',
      String(errors),
      '--validate-request',
      'false',
    ],
    env: { FORCE_COLOR: '0', NO_COLOR: '1' },
    urlFrom: (lines) =>
      lines.some((line) => String(line.text).includes('Prism is listening on'))
        ? `http://127.0.0.1:${port}`
        : undefined,
    startTimeoutMs: PRISM_START_TIMEOUT_MS,
  });
}

/** The violations Prism found in an answer it passed on (its `sl-violations` header), at `location`. */
export function violationsOf(res: Response, location: 'request' | 'response'): Violation[] {
  const header = res.headers.get('sl-violations');
  const all = header ? (JSON.parse(header) as Violation[]) : [];
  return all.filter((violation) => violation.location[0] === location);
}
