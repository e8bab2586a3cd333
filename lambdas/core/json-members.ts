// The members of a JSON object found in its bytes without parsing their
// values: a stored part's result is read a member at a time (aggregate.ts),
// each pass of the merge parsing only the members it writes, so a pass over
// the tables does not build every part's content and elements too. JSON's
// structural bytes are ASCII and never occur inside a multi-byte UTF-8
// sequence, so the scan works on the bytes as they are.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * Byte ranges of the values of the members of the object whose '{' is at
 * `from`, by member name. At the member named `stop` the scan ends: its
 * value's end is not looked for (-1), nor are the members after it.
 */
export function objectMembers(bytes: Uint8Array, from = 0, stop?: string): Map<string, [start: number, end: number]> {
  const members = new Map<string, [number, number]>();
  let i = skipSpace(bytes, from);
  if (bytes[i] !== OPEN_OBJECT) throw malformed(i, 'an object');
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_OBJECT) return members;
  for (;;) {
    if (bytes[i] !== QUOTE) throw malformed(i, 'a member name');
    const keyEnd = stringEnd(bytes, i);
    const key = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + i, keyEnd - i).toString('utf8')) as string;
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) throw malformed(i, "':'");
    const start = skipSpace(bytes, i + 1);
    if (key === stop) return members.set(key, [start, -1]);
    const end = valueEnd(bytes, start);
    members.set(key, [start, end]);
    i = skipSpace(bytes, end);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
    else if (bytes[i] === CLOSE_OBJECT) return members;
    else throw malformed(i, "',' or '}'");
  }
}

/** The value in `bytes` between `range`, parsed. */
export function parseMember<T>(bytes: Uint8Array, [start, end]: [number, number]): T {
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8')) as T;
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i;
}

/** Just past the closing quote of the string whose opening quote is at `i`. */
function stringEnd(bytes: Uint8Array, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) throw malformed(i, 'the end of a string');
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** Just past the value that starts at `i`. */
function valueEnd(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let at = i; at < bytes.length; ) {
      const b = bytes[at]!;
      if (b === QUOTE) {
        at = stringEnd(bytes, at);
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
      else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --depth === 0) return at + 1;
      at++;
    }
    throw malformed(i, 'the end of a container');
  }
  // A number, true, false or null: up to the next delimiter.
  let at = i;
  while (at < bytes.length && bytes[at] !== COMMA && bytes[at] !== CLOSE_OBJECT && bytes[at] !== CLOSE_ARRAY && bytes[at]! > 0x20) at++;
  if (at === i) throw malformed(i, 'a value');
  return at;
}

/** A SyntaxError, as JSON.parse throws for what is not JSON. */
function malformed(at: number, expected: string): SyntaxError {
  return new SyntaxError(`malformed JSON: expected ${expected} at byte ${at}`);
}
