// Which way a page's scripts read, in one place for the reader's modules: the
// right-to-left letters (Hebrew, Arabic, Syriac, Thaana, NKo and their
// presentation forms), the left-to-right letters beside them, and Chinese
// and Japanese, which set no spaces between words.

const RTL_RANGES = '\\u0590-\\u08ff\\ufb1d-\\ufdff\\ufe70-\\ufeff';

/** A right-to-left letter anywhere in a text. */
export const RTL_CHAR = new RegExp(`[${RTL_RANGES}]`);

/** The same test on a character code, for the per-character loop (the ranges of RTL_RANGES). */
export const isRtl = (code: number) => (code >= 0x0590 && code <= 0x08ff) || (code >= 0xfb1d && code <= 0xfdff) || (code >= 0xfe70 && code <= 0xfeff);

/** A letter of a left-to-right script: Latin, Greek, Cyrillic and others that are not right to left. */
export const LTR_LETTER = new RegExp(`(?![${RTL_RANGES}])\\p{L}`, 'u');

const RTL_LETTERS = new RegExp(`[${RTL_RANGES}]`, 'gu');
const LETTERS = /\p{L}/gu;

/** Text most of whose letters are right to left. */
export function mostlyRtl(text: string): boolean {
  const letters = text.match(LETTERS)?.length ?? 0;
  return letters > 0 && (text.match(RTL_LETTERS)?.length ?? 0) > 0.5 * letters;
}

// Han ideographs, kana and their punctuation and full-width forms (not Hangul: Korean spaces its words).
const HAN_KANA = '\\u3000-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef';
export const HAN_KANA_END = new RegExp(`[${HAN_KANA}]$`, 'u');
export const HAN_KANA_START = new RegExp(`^[${HAN_KANA}]`, 'u');
