// A list counter written in a numbering level's format (ECMA-376 Part 1,
// 17.18.59 ST_NumberFormat): 4, 04, d, D, iv, IV, 4th, Four, Fourth, ④.
// Formats of scripts we do not spell out (CJK counting, Hebrew, Arabic
// abjad, ...) are written as decimal digits: the reader still sees which
// item it is, where a wrong glyph would mislead.

import { letters, roman } from '../../engine/list-counters.ts';

function ordinal(n: number): string {
  const tens = Math.abs(n) % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][Math.abs(n) % 10] ?? 'th');
  return `${n}${suffix}`;
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function words(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : '');
  if (n < 1000) return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${words(n % 100)}` : ''}`;
  return `${words(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${words(n % 1000)}` : ''}`;
}

const ORDINAL_WORDS: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };

function ordinalWords(n: number): string {
  const w = words(n);
  return w.replace(/([a-z]+)$/, (last) => ORDINAL_WORDS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`));
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Numbers in a circle, ① to ⑳ (U+2460), and the like: beyond twenty Word writes plain digits too. */
function enclosed(n: number, first: number): string {
  return n >= 1 && n <= 20 ? String.fromCodePoint(first + n - 1) : String(n);
}

/**
 * `n` written as the numbering format `format` writes it; `custom` is a
 * w:numFmt w:format picture (Word 2010's "001, 002, 003, ..."), of which the
 * zero-padded decimals are read.
 */
export function formatNumber(n: number, format: string, custom?: string): string {
  switch (format) {
    case 'decimal':
      return String(n);
    case 'decimalZero':
      return n >= 0 && n < 10 ? `0${n}` : String(n);
    case 'lowerLetter':
      return letters(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'ordinal':
      return ordinal(n);
    case 'cardinalText':
      return n >= 0 && n < 1_000_000 ? capital(words(n)) : String(n);
    case 'ordinalText':
      return n >= 1 && n < 1_000_000 ? capital(ordinalWords(n)) : String(n);
    case 'decimalEnclosedCircle':
      return enclosed(n, 0x2460);
    case 'decimalEnclosedParen':
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2474 + n - 1) : `(${n})`;
    case 'decimalEnclosedFullstop':
      return n >= 1 && n <= 20 ? String.fromCodePoint(0x2488 + n - 1) : `${n}.`;
    case 'decimalFullWidth':
    case 'decimalFullWidth2':
      return String(n).replace(/\d/g, (d) => String.fromCodePoint(0xff10 + Number(d)));
    case 'chicago':
      return n >= 1 ? ['*', '†', '‡', '§'][(n - 1) % 4]!.repeat(Math.ceil(n / 4)) : String(n);
    case 'none':
      return '';
    case 'custom': {
      const padded = custom && /^(0+)1\b/.exec(custom.trim());
      return padded ? String(n).padStart(padded[1]!.length + 1, '0') : String(n);
    }
    default:
      return String(n);
  }
}
