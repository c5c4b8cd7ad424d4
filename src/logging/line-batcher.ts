import * as onExit from 'on-exit-leak-free';

/** What the batcher hands its bytes to: pino's sonic-boom destination in `contentMode: 'buffer'`. */
export interface BufferSink {
  write(bytes: Buffer): boolean;
  flush(callback?: (error?: Error) => unknown): void;
  flushSync(): void;
}

// Lines are encoded into slabs of this size; each batch handed on is a view of one.
const SLAB_BYTES = 64 * 1024;

/**
 * A log destination that encodes each line into a shared slab at once and hands the lines of one
 * turn of the event loop to `sink` as a single buffer. Written line by line, sonic-boom measures
 * the chunk each line joins and keeps every line's string alive until it is written, which a busy
 * access log pays twice: in the measuring, and in the garbage collector copying the kept strings.
 * Here a line's string dies as soon as it is encoded, and sonic-boom sees one buffer per turn:
 * its partial writes, its retries on `EAGAIN` and its flush at exit stay what they are.
 *
 * Lines keep their order: every line of the logger goes through the same slab.
 *
 * @example
 * const batcher = new LineBatcher(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }));
 * const logger = pino({}, batcher);
 */
export class LineBatcher {
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  // The slab's bytes before `start` were handed on; those from `start` to `end` are pending.
  private start = 0;
  private end = 0;
  private handOnScheduled = false;

  constructor(private readonly sink: BufferSink) {
    // A process that exits at once (`process.exit()`, an uncaught error) never reaches the turn's
    // end: the sink's own exit hook writes only what it was handed. Held weakly, so a batcher whose
    // logger is gone does not stay registered.
    onExit.register(this, flushAtExit);
  }

  /** Encodes `line` into the batch; the batch is handed on at the end of this turn of the event loop. */
  write(line: string): boolean {
    // A string of n UTF-16 units never takes more than 3n bytes in UTF-8.
    if (line.length * 3 > this.slab.length - this.end) this.startSlab(line.length * 3);
    this.end += this.slab.write(line, this.end);
    if (!this.handOnScheduled) {
      this.handOnScheduled = true;
      setImmediate(this.handOnScheduledBatch);
    }
    return true;
  }

  /** Hands the batch on and asks the sink to write what it holds; pino's `logger.flush(cb)` calls this. */
  flush(callback?: (error?: Error) => void): void {
    this.handOn();
    this.sink.flush(callback);
  }

  /** Hands the batch on and writes everything synchronously: for the last lines before the process exits. */
  flushSync(): void {
    this.handOn();
    this.sink.flushSync();
  }

  private readonly handOnScheduledBatch = (): void => {
    this.handOnScheduled = false;
    this.handOn();
  };

  private handOn(): void {
    if (this.end === this.start) return;
    // A view, not a copy: the bytes handed on are never written again, since the batch only grows past them.
    this.sink.write(this.slab.subarray(this.start, this.end));
    this.start = this.end;
  }

  private startSlab(bytesNeeded: number): void {
    this.handOn();
    this.slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, bytesNeeded));
    this.start = 0;
    this.end = 0;
  }
}

function flushAtExit(batcher: LineBatcher): void {
  batcher.flushSync();
}
