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
const BATCH_BYTES = 192 * 1024;
// The UTF-16 units the batch holds whatever they are: a unit never takes more than 3 bytes in UTF-8.
const BATCH_UNITS = BATCH_BYTES / 3;

/**
 * A log destination that joins the lines of one turn of the event loop, encodes them into one
 * buffer at the turn's end and hands that to `sink` in a single write. Written line by line, each
 * line costs a write system call (pino's default) or, asynchronously, sonic-boom's measuring of the
 * chunk each line joins and a hand-off to libuv's thread pool; encoded line by line, a call into
 * C++ each (about 1,100 of an access line's 10,000 instructions, where a turn writes several).
 * Here stdout gets one write a turn: a turn's lines are out before the next turn reads a request.
 *
 * Lines keep their order: every line of the logger goes through the same string and buffer.
 *
 * @example
 * const stdout = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' });
 * const logger = pino({}, new LineBatcher(stdout));
 */
export class LineBatcher {
  private readonly batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  // The turn's lines, joined: encoded at once when handed on, not one call into C++ a line.
  private pending = '';
  private handOnScheduled = false;

  constructor(private readonly sink: SynchronousSink) {
    // A process that exits at once (`process.exit()`, an uncaught error) never reaches the turn's
    // end. Held weakly, so a batcher whose logger is gone does not stay registered.
    onExit.register(this, flushAtExit);
  }

  /** Adds `line` to the turn's lines, which are encoded and handed on at the end of this turn of the event loop. */
  write(line: string): boolean {
    if (this.pending.length + line.length > BATCH_UNITS) {
      this.handOn();
      // A line longer than the batch could hold goes out by itself, in its order.
      if (line.length > BATCH_UNITS) return this.sink.write(Buffer.from(line, 'utf8'));
    }
    this.pending += line;
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
    if (this.pending === '') return;
    const lines = this.pending;
    // Reset first: a sink that throws must not make the next turn write these lines again.
    this.pending = '';
    this.sink.write(this.batch.subarray(0, this.batch.write(lines, 0)));
  }
}

function flushAtExit(batcher: LineBatcher): void {
  batcher.flushSync();
}
