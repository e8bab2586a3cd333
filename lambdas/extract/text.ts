// Character-set detection and decoding for text formats.
//
// The same detection feeds decoding (extraction) and code-point counting (the
// page quota at submission), so both always agree on the encoding.

import { isUtf8 } from 'node:buffer';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'windows-1252';

export interface DetectedEncoding {
  encoding: TextEncodingName;
  bomLength: number;
}

/** Bytes examined when inferring UTF-16/32 from NUL patterns. */
const SNIFF_BYTES = 4096;

export function detectEncoding(bytes: Uint8Array): DetectedEncoding {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xef && b1 === 0xbb && b2 === 0xbf) return { encoding: 'utf-8', bomLength: 3 };
  // UTF-32LE's BOM starts with UTF-16LE's, so test it first.
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return { encoding: 'utf-32le', bomLength: 4 };
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return { encoding: 'utf-32be', bomLength: 4 };
  if (b0 === 0xff && b1 === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  const wide = sniffWide(bytes.subarray(0, SNIFF_BYTES));
  if (wide) return { encoding: wide, bomLength: 0 };
  return { encoding: isUtf8(bytes) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/** UTF-16/32 without a BOM: text in them is full of NULs in fixed positions. */
function sniffWide(sample: Uint8Array): TextEncodingName | null {
  const groups = Math.floor(sample.length / 4);
  if (groups >= 1) {
    let le = 0;
    let be = 0;
    for (let i = 0; i < groups * 4; i += 4) {
      // A code point is at most 0x10FFFF, so its top byte is 0 and the next is at most 0x10.
      // ...and a text code point is never U+0000.
      if (sample[i + 3] === 0 && sample[i + 2]! <= 0x10 && (sample[i]! | sample[i + 1]!) !== 0) le++;
      if (sample[i] === 0 && sample[i + 1]! <= 0x10 && (sample[i + 2]! | sample[i + 3]!) !== 0) be++;
    }
    if (le === groups) return 'utf-32le';
    if (be === groups) return 'utf-32be';
  }
  const pairs = Math.floor(sample.length / 2);
  if (pairs < 1) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (sample[i] === 0) evenZeros++;
    if (sample[i + 1] === 0) oddZeros++;
  }
  // Latin-script UTF-16 has a NUL in one half of most units and few in the other
  // (U+xx00 characters, like the low surrogate of some emoji).
  if (oddZeros >= pairs * 0.25 && evenZeros * 10 <= oddZeros) return 'utf-16le';
  if (evenZeros >= pairs * 0.25 && oddZeros * 10 <= evenZeros) return 'utf-16be';
  return null;
}

export function decodeText(bytes: Uint8Array): { text: string; encoding: string } {
  const { encoding, bomLength } = detectEncoding(bytes);
  return { text: decodeAs(bytes.subarray(bomLength), encoding), encoding };
}

export function decodeAs(body: Uint8Array, encoding: TextEncodingName): string {
  switch (encoding) {
    case 'utf-8':
    case 'utf-16le':
    case 'utf-16be':
      // ignoreBOM: the BOM is already cut off; a second one is content.
      return new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
    case 'utf-32le':
    case 'utf-32be':
      return decodeUtf32(body, encoding === 'utf-32le');
    case 'windows-1252':
      return decodeCp1252(body);
  }
}

function decodeUtf32(body: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const parts: string[] = [];
  const batch: number[] = [];
  for (let i = 0; i < body.length; i += 4) {
    let cp = 0xfffd;
    if (i + 4 <= body.length) {
      const v = view.getUint32(i, littleEndian);
      if (v <= 0x10ffff && (v < 0xd800 || v > 0xdfff)) cp = v;
    }
    batch.push(cp);
    if (batch.length === 8192) {
      parts.push(String.fromCodePoint(...batch));
      batch.length = 0;
    }
  }
  parts.push(String.fromCodePoint(...batch));
  return parts.join('');
}

// Node 20's TextDecoder('windows-1252') decodes as Latin-1 (nodejs/node#56542),
// so the 0x80-0x9F block is mapped here. Bytes undefined in cp1252 keep their
// C1 code point, as the WHATWG decoder does.
const CP1252_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeCp1252(body: Uint8Array): string {
  const latin1 = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  return latin1.replace(/[\x80-\x9f]/g, (c) => CP1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

/**
 * The number of code points decodeText would produce, without building the
 * string: the page quota is computed from it at submission.
 */
export function countDecodedCodePoints(bytes: Uint8Array): number {
  const { encoding, bomLength } = detectEncoding(bytes);
  const body = bytes.subarray(bomLength);
  switch (encoding) {
    case 'utf-8': {
      // Valid UTF-8 (checked by detection): every byte that is not a continuation starts a code point.
      let n = 0;
      for (let i = 0; i < body.length; i++) if ((body[i]! & 0xc0) !== 0x80) n++;
      return n;
    }
    case 'utf-16le':
    case 'utf-16be':
      return countUtf16(body, encoding === 'utf-16le');
    case 'utf-32le':
    case 'utf-32be':
      return Math.ceil(body.length / 4);
    case 'windows-1252':
      return body.length;
  }
}

/** Mirrors the WHATWG decoder: a valid pair is one code point; anything else is one U+FFFD per unit. */
function countUtf16(body: Uint8Array, littleEndian: boolean): number {
  const units = body.length >> 1;
  const unit = (i: number) => (littleEndian ? body[2 * i]! | (body[2 * i + 1]! << 8) : (body[2 * i]! << 8) | body[2 * i + 1]!);
  let n = 0;
  for (let i = 0; i < units; i++) {
    const u = unit(i);
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < units) {
      const next = unit(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n + (body.length & 1);
}

/**
 * Whether the start of the file reads as text: no NULs and few control
 * characters once decoded. Binary data decoded as cp1252 is full of both.
 */
export function looksLikeText(bytes: Uint8Array, sampleBytes = 65536): boolean {
  const { encoding, bomLength } = detectEncoding(bytes);
  let sample = bytes.subarray(bomLength, bomLength + sampleBytes);
  if (encoding === 'utf-8' && sample.length < bytes.length - bomLength) {
    // Cut at a code point boundary so the sample's tail is not a false U+FFFD.
    let end = sample.length;
    while (end > 0 && (sample[end - 1]! & 0xc0) === 0x80) end--;
    sample = sample.subarray(0, Math.max(0, end - 1));
  }
  const text = decodeAs(sample, encoding);
  if (text.length === 0) return true;
  let controls = 0;
  let replacements = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    // Tab, LF, VT, FF, CR and ESC (ANSI colours in logs) are normal in text.
    if ((c < 0x20 && !(c >= 0x09 && c <= 0x0d) && c !== 0x1b) || (c >= 0x7f && c <= 0x9f)) controls++;
    else if (c === 0xfffd) replacements++;
  }
  return controls <= text.length * 0.01 && replacements <= text.length * 0.01;
}
