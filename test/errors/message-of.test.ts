import vm from 'node:vm';
// messageOf is internal to the catalogue, so this unit test reaches into src/ directly.
import { messageOf } from '../../src/errors';

describe('messageOf', () => {
  test.each([
    ['an Error', new Error('boom'), 'boom'],
    [
      'an Error from another realm',
      vm.runInNewContext("new Error('from a sandbox')") as unknown,
      'from a sandbox',
    ],
    [
      'an AggregateError without a message (a refused connection to a name with two addresses)',
      new AggregateError([
        new Error('connect ECONNREFUSED ::1:5432'),
        new Error('connect ECONNREFUSED 127.0.0.1:5432'),
      ]),
      'connect ECONNREFUSED ::1:5432',
    ],
    [
      'an Error without a message, with a code',
      Object.assign(new Error(''), { code: 'ETIMEDOUT' }),
      'ETIMEDOUT',
    ],
    ['a string', 'plain words', 'plain words'],
  ])('reads %s', (_what, error, message) => {
    expect(messageOf(error)).toBe(message);
  });
});
