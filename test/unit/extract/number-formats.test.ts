import { describe, expect, it } from 'vitest';
import { formatNumber, serialToDate } from '../../../lambdas/extract/engine/number-formats.ts';

describe('spreadsheet number formats', () => {
  it.each([
    [1234.5, 'General', '1234.5'],
    [0.1 + 0.2, 'General', '0.3'],
    [1234.567, '#,##0.00', '1,234.57'],
    [-1234.567, '#,##0', '-1,235'],
    [-3, '#,##0.00;(#,##0.00)', '(3.00)'],
    [0, '0.00;-0.00;"zero"', 'zero'],
    [0.256, '0.0%', '25.6%'],
    [12345.678, '0.00E+00', '1.23E+04'],
    [1500000, '#,##0,,"M"', '2M'],
    [9.5, '[$€-407] #,##0.00', '€ 9.50'],
    [42, '"Total: "0', 'Total: 42'],
    // Without a negative section the minus leads the whole text, as Excel shows it.
    [-366.6, '"$"#,##0.00', '-$366.60'],
    [-9.5, '[$€-407] #,##0.00', '-€ 9.50'],
    [-12345.678, '0.00E+00', '-1.23E+04'],
  ])('shows %s with %s as %s', (value, code, shown) => {
    expect(formatNumber(value, code)).toBe(shown);
  });

  it.each([
    [45292, 'yyyy-mm-dd', '2024-01-01'],
    [45292, 'd-mmm-yy', '1-Jan-24'],
    [45292, 'dddd, mmmm d, yyyy', 'Monday, January 1, 2024'],
    [45292.75, 'h:mm AM/PM', '6:00 PM'],
    [45292.5, 'yyyy-mm-dd hh:mm:ss', '2024-01-01 12:00:00'],
    [1.5, '[h]:mm', '36:00'],
  ])('shows the date serial %s with %s as %s', (value, code, shown) => {
    expect(formatNumber(value, code)).toBe(shown);
  });

  it('counts the 1900 system with its fictitious leap day, and the 1904 system', () => {
    expect(serialToDate(59).toISOString().slice(0, 10)).toBe('1900-02-28');
    expect(serialToDate(61).toISOString().slice(0, 10)).toBe('1900-03-01');
    expect(serialToDate(0, true).toISOString().slice(0, 10)).toBe('1904-01-01');
  });
});
