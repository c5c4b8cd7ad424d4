import pino from 'pino';
import type { Logger } from 'keel';

/** One JSON line as pino writes it, with the fields keel's error responder adds. */
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
  /** The request the line was logged in, when it was. */
  readonly requestId?: string;
}

/** A real pino logger writing to memory, and what it wrote. */
export interface LogCapture {
  readonly logger: Logger;
  /** Every line written so far, parsed. */
  entries(): LogEntry[];
  /** Every line written so far, as written. */
  text(): string;
}

/** pino's numeric level for `error`. */
export const ERROR_LEVEL = 50;

/** A pino logger whose JSON lines are kept in memory, for tests that read the log. */
export function captureLog(): LogCapture {
  const lines: string[] = [];
  const logger = pino(
    {},
    {
      write: (line: string) => {
        lines.push(line);
      },
    },
  );
  return {
    logger,
    text: () => lines.join(''),
    entries: () => lines.map((line) => JSON.parse(line) as LogEntry),
  };
}
