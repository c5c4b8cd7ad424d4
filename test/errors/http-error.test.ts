import { HttpError } from 'keel';

describe('HttpError', () => {
  test('a 4xx is an answer: its stack is its name and message alone, no frame captured', () => {
    const error = new HttpError(404, 'order not found');
    expect(error.stack).toBe('HttpError: order not found');
    expect(error).toBeInstanceOf(Error);
  });

  test('a 5xx is a fault: its stack names where it was made', () => {
    const error = new HttpError(503, 'database unavailable');
    expect(error.stack).toMatch(/^HttpError: database unavailable\n\s+at /);
    expect(error.stack).toContain('http-error.test.ts');
  });

  test('making a 4xx leaves the stack traces of other errors as they were', () => {
    const limit = Error.stackTraceLimit;
    void new HttpError(401, 'unauthenticated');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after').stack).toContain('http-error.test.ts');
  });
});
