import { CliError, FrameworkError, HttpError, defineErrors } from '../../src/errors';
import { RequestErrors } from '../../src/errors/request-errors';

const Examples = defineErrors({
  answer: { code: 'E_EXAMPLE_ANSWER', status: 404, message: (what: string) => `no ${what}` },
  command: { code: 'E_EXAMPLE_COMMAND', exitCode: 2, message: () => 'usage' },
  boot: {
    code: 'E_EXAMPLE_BOOT',
    message: (what: string, _cause?: unknown) => `${what} failed`,
    extras: (_what: string, cause?: unknown) => (cause === undefined ? {} : { cause }),
  },
});

describe('a builder of the catalogue', () => {
  test('is its entry: the code, status and exit code are read without building anything', () => {
    expect([Examples.answer.code, Examples.answer.status]).toEqual(['E_EXAMPLE_ANSWER', 404]);
    expect([Examples.command.code, Examples.command.exitCode]).toEqual(['E_EXAMPLE_COMMAND', 2]);
    expect(Examples.boot.code).toBe('E_EXAMPLE_BOOT');
  });

  test('with a status, builds an HttpError that carries the code and keeps the message as the client sees it', () => {
    const error = Examples.answer('order');
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, code: 'E_EXAMPLE_ANSWER', message: 'no order', expose: true });
  });

  test('with an exit code, builds a CliError; with neither, a FrameworkError whose message starts with its code', () => {
    expect(Examples.command()).toBeInstanceOf(CliError);
    expect(Examples.command()).toMatchObject({ exitCode: 2, message: 'E_EXAMPLE_COMMAND: usage' });
    expect(Examples.boot('boot')).toBeInstanceOf(FrameworkError);
    expect(Examples.boot('boot').message).toBe('E_EXAMPLE_BOOT: boot failed');
  });

  test('gives a cause only when its extras name one', () => {
    const cause = new Error('disk full');
    expect(Examples.boot('boot', cause).cause).toBe(cause);
    expect('cause' in Examples.boot('boot')).toBe(false);
  });

  test("keel's own answers carry their code and status, and a 5xx hides its message", () => {
    expect(RequestErrors.routeNotFound('GET', '/x')).toMatchObject({
      code: 'E_ROUTE_NOT_FOUND',
      status: 404,
      message: 'no route for GET /x',
    });
    expect(RequestErrors.internalServerError()).toMatchObject({ status: 500, expose: false });
  });

  test('an HttpError a user builds has no code, as before', () => {
    expect(new HttpError(404, 'order not found').code).toBeUndefined();
  });
});
