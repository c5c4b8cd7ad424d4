// on-exit-leak-free ships no types; this is the part of its API keel calls.
declare module 'on-exit-leak-free' {
  /** Calls `onExit(object, 'exit')` when the process exits, as long as `object` has not been collected. */
  export function register<T extends object>(object: T, onExit: (object: T, event: 'exit') => void): void;
}
