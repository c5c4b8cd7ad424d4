/**
 * An error in how the application is put together (or, for the `E_NO_RESPONSE` family, in a
 * handler): its message names the culprit and the fix, and `code` says which it is.
 *
 * @example
 * await expect(createApplication(AppModule)).rejects.toMatchObject({ code: 'E_UNKNOWN_DEPENDENCY' });
 */
export class FrameworkError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
    this.name = 'FrameworkError';
  }
}
