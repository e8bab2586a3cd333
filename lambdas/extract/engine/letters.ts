// Letter tests the readers make of every word, line and paragraph, written
// once here as module constants. esbuild (tsx, `npm start`'s build, the Lambda bundles)
// writes a regular expression with a Unicode property (`\p{L}`) as
// `new RegExp(...)` for every Node target, so one written inside a function
// is built again at each call: 180 ns a test against 31 ns for a constant,
// on words of which a corpus pass tests millions.

export const LETTER = /\p{L}/u;
export const ONE_LETTER = /^\p{L}$/u;
/** One to three letters: a piece of a word set letter-spaced. */
export const LETTER_PIECE = /^\p{L}{1,3}$/u;
export const STARTS_WITH_LETTER = /^\p{L}/u;
export const STARTS_UPPER = /^\p{Lu}/u;
export const STARTS_LOWER = /^\p{Ll}/u;
/** A lower-case letter and a hyphen at the end: a word broken across a line. */
export const LOWER_HYPHEN_END = /\p{Ll}-$/u;
