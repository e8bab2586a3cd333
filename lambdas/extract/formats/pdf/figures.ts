// What a table's cells hold when they hold numbers: the figures the
// text-layer table finders look for in a column.

/** A number as tables print them (signs, brackets, separators, a currency, unit or percent sign, an exponent), a date or a time. */
export const FIGURE = /^(?:[-+−–(]?[$€£¥]?\s?\d[\d.,\s]*(?:E[-+]?\d+)?\s?[%)]?|\d{1,4}[-/.](?:\d{1,2}|\p{L}{3,9})[-/.]\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AP]M)?)$/iu;

/** A figure that is not a small whole number: a separator, a decimal, a sign, a date or time, or four digits. */
export const AMOUNT = /[.,%$€£¥:\/-]|\d{4}/;

/** A list's label ("3.", "12)", "(4)"), which FIGURE would take for a number. */
const ENUMERATOR = /^\(?\d{1,3}[.)]$/;

/** A word that is a figure and not a list's label. */
export const isFigure = (text: string) => FIGURE.test(text) && !ENUMERATOR.test(text);
