import { renderTable } from '../../bench/src/report/markdown-table';
import { formatNumber, median, ratio } from '../../bench/src/report/statistics';

describe('benchmark report', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even one', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('has no median and no ratio where there is nothing to divide by', () => {
    expect(median([])).toBeNaN();
    expect(ratio(5, 0)).toBeNaN();
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('pads every column of a table to its widest cell', () => {
    expect(
      renderTable(
        ['server', 'req/s'],
        [
          ['keel', '1200'],
          ['express', '9'],
        ],
      ),
    ).toBe(
      ['| server  | req/s |', '|---------|-------|', '| keel    | 1200  |', '| express | 9     |'].join('\n'),
    );
  });
});
