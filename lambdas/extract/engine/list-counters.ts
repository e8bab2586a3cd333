// A list item's counter written as lower-case roman numerals or letters, as
// word processors and LaTeX number items (the formats that number their
// lists themselves: ooxml/numerals.ts, latex/source.ts).

const ROMAN: Array<[number, string]> = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** Lower-case roman numerals; outside 1-3999 the decimal number. */
export function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  let out = '';
  for (const [value, digits] of ROMAN) {
    while (n >= value) {
      out += digits;
      n -= value;
    }
  }
  return out;
}

/** Letters as Word and LaTeX count past z: a..z, then aa..zz, aaa..: the letter repeated once per pass through the alphabet. */
export function letters(n: number): string {
  if (n <= 0) return String(n);
  return String.fromCharCode(97 + ((n - 1) % 26)).repeat(Math.ceil(n / 26));
}
