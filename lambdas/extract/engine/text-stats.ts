// Counting and slicing text by code points, so counts and offsets mean the
// same thing in every client language (not UTF-16 units).

export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      n--;
      i++;
    }
  }
  return n;
}

/** Whitespace-separated tokens. */
export function wordCount(s: string): number {
  let n = 0;
  const word = /\S+/g;
  while (word.exec(s)) n++;
  return n;
}

/** Consecutive slices of at most `size` code points; a surrogate pair is never split. At least one slice. */
export function splitByCodePoints(s: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < s.length) {
    let end = start;
    for (let count = 0; count < size && end < s.length; count++) {
      end += isHigh(s.charCodeAt(end)) && end + 1 < s.length && isLow(s.charCodeAt(end + 1)) ? 2 : 1;
    }
    out.push(s.slice(start, end));
    start = end;
  }
  return out.length > 0 ? out : [''];
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
