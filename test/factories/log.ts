import pino from 'pino';
import type { Logger } from 'keel';
import { eventually } from './eventually';

/** One JSON line as pino writes it, with the fields keel's error responder and access log add. */
export interface LogEntry {
  readonly level: number;
  readonly msg?: string;
  readonly method?: string;
  readonly url?: string;
  readonly err?: {
    readonly type?: string;
    readonly message?: string;
    readonly stack?: string;
    readonly code?: string;
  };
  readonly requestId?: string;
  readonly traceId?: string;
  readonly spanId?: string;
  readonly path?: string;
  readonly route?: string | null;
  readonly status?: number | null;
  readonly ms?: number;
  readonly bytes?: number | null;
  readonly aborted?: boolean;
}

/** A real pino logger writing to memory, and what it wrote. */
export interface LogCapture {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  entries(): LogEntry[];
  /** Every line written so far, as written. */
  text(): string;
  /**
   * Resolves with the first line, written already or later, that `matches`; rejects after `within`
   * ms (default 10 s), naming `what`.
   */
  next(
    matches: (entry: LogEntry) => boolean,
    wait?: { readonly what?: string; readonly within?: number },
  ): Promise<LogEntry>;
}

/** pino's numeric levels. */
export const DEBUG_LEVEL = 20;
export const INFO_LEVEL = 30;
export const ERROR_LEVEL = 50;

/** A pino logger (at `level`, default info) whose JSON lines are kept in memory, for tests that read the log. */
export function captureLog(level = 'info'): LogCapture {
  const lines: string[] = [];
  // Parsed once, as written: a test waiting on a line reads them all at every try.
  const parsed: LogEntry[] = [];
  const logger = pino(
    { level },
    {
      write: (line: string) => {
        lines.push(line);
        parsed.push(JSON.parse(line) as LogEntry);
      },
    },
  );
  return {
    logger,
    text: () => lines.join(''),
    entries: () => [...parsed],
    next: (matches, { what = 'a matching log line', within = 10_000 } = {}) =>
      eventually(() => parsed.find(matches) ?? false, { within, every: 10, what }),
  };
}
