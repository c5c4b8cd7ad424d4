import * as onExit from 'on-exit-leak-free';

/**
 * What the batcher hands its bytes to: pino's sonic-boom destination with `sync: true` and
 * `contentMode: 'buffer'`, which has written (or dropped, on a closed pipe) what it is given by the
 * time `write` returns, so the batcher's buffer is free again.
 */
export interface SynchronousSink {
  write(bytes: Buffer): boolean;
  flushSync(): void;
}

// The buffer the lines of one turn are encoded into: a busy turn's worth of access lines.
const BATCH_BYTES = 64 * 1024;

/**
 * A log destination that encodes each line into one buffer at once and hands the lines of one turn
 * of the event loop to `sink` in a single write. Written line by line, each line costs a write
 * system call (pino's default) or, asynchronously, sonic-boom's measuring of the chunk each line
 * joins and a hand-off to libuv's thread pool. Here a line's string dies as soon as it is encoded,
 * and stdout gets one write a turn: a turn's lines are out before the next turn reads a request.
 *
 * Lines keep their order: every line of the logger goes through the same buffer.
 *
 * @example
 * const stdout = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' });
 * const logger = pino({}, new LineBatcher(stdout));
 */
export class LineBatcher {
  private readonly batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  private end = 0;
  private handOnScheduled = false;

  constructor(private readonly sink: SynchronousSink) {
    // A process that exits at once (`process.exit()`, an uncaught error) never reaches the turn's
    // end. Held weakly, so a batcher whose logger is gone does not stay registered.
    onExit.register(this, flushAtExit);
  }

  /** Encodes `line` into the batch, which is handed on at the end of this turn of the event loop. */
  write(line: string): boolean {
    // A string of n UTF-16 units never takes more than 3n bytes in UTF-8.
    const mostBytes = line.length * 3;
    if (mostBytes > BATCH_BYTES - this.end) {
      this.handOn();
      // A line longer than the batch could hold goes out by itself, in its order.
      if (mostBytes > BATCH_BYTES) return this.sink.write(Buffer.from(line, 'utf8'));
    }
    this.end += this.batch.write(line, this.end);
    if (!this.handOnScheduled) {
      this.handOnScheduled = true;
      setImmediate(this.handOnScheduledBatch);
    }
    return true;
  }

  /** Writes the batch now; pino's `logger.flush()` calls this. */
  flush(callback?: (error?: Error) => void): void {
    this.handOn();
    callback?.();
  }

  /** Writes the batch now, for the last lines before the process exits. */
  flushSync(): void {
    this.handOn();
    this.sink.flushSync();
  }

  private readonly handOnScheduledBatch = (): void => {
    this.handOnScheduled = false;
    this.handOn();
  };

  private handOn(): void {
    if (this.end === 0) return;
    const bytes = this.end;
    // Reset first: a sink that throws must not make the next turn write these bytes again.
    this.end = 0;
    this.sink.write(this.batch.subarray(0, bytes));
  }
}

function flushAtExit(batcher: LineBatcher): void {
  batcher.flushSync();
}
