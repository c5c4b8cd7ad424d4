import type { Application } from 'keel';
import { setImmediate as afterPendingCallbacks } from 'node:timers/promises';

/** Where the in-process tests listen (port 0: a free one). */
export const HOST = '127.0.0.1';

/** A promise and the function that settles it, for handlers the test holds open. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

// With shutdownDelayMs at 0 and synchronous hooks, the drain starts within the callbacks close()
// queues; once they have run, the server has stopped accepting. (Wrapped: an async function
// returning the promise itself would wait for the whole shutdown.)
export async function closeUntilDraining(app: Application): Promise<{ closing: Promise<void> }> {
  const closing = app.close();
  await afterPendingCallbacks();
  return { closing };
}
