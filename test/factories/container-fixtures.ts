import { Injectable } from 'keel';

/** A provider without dependencies. `now()` is fixed, so a test can assert on what it returns. */
@Injectable()
export class Clock {
  readonly zone = 'UTC';
  now(): number {
    return 1_700_000_000_000;
  }
}

/** A provider with one dependency, on {@link Clock}. */
@Injectable()
export class Scheduler {
  constructor(readonly clock: Clock) {}
}

/** A second provider without dependencies. */
@Injectable()
export class Mailer {
  readonly sent: string[] = [];
}
