// The mask is internal to the CLI, so this unit test reaches into src/ directly.
import { maskCommentsAndStrings } from '../../src/cli/source-mask';

describe('maskCommentsAndStrings', () => {
  test.each([
    ["f('x') // y", 'f(   )     '],
    ['a /* b\nc */ d', 'a     \n     d'],
    ['s = `x\n${y}`;', 's =   \n     ;'],
    ["'it\\'s' + \"q\"", '        +    '],
    ["'open\nnext", '     \nnext'],
  ])('blanks the comments and strings of %j, keeping its length and line breaks', (source, masked) => {
    expect(maskCommentsAndStrings(source)).toBe(masked);
  });

  test('fills strings with the character given, and still blanks comments', () => {
    expect(maskCommentsAndStrings("f('x', `y`) // z", '"')).toBe('f(""", """)     ');
  });
});
