// Character-set detection and decoding for text formats.
//
// The same detection feeds decoding (extraction) and code-point counting (the
// page quota at submission), so both always agree on the encoding.

import { isUtf8 } from 'node:buffer';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'windows-1252' | CjkEncoding;

/** East Asian multi-byte encodings recognised in text that is not UTF-8. */
export type CjkEncoding = 'shift_jis' | 'euc-kr' | 'gb18030' | 'big5';

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
  if (isUtf8(bytes)) return { encoding: 'utf-8', bomLength: 0 };
  // East Asian text first: some of its double-byte characters happen to be valid UTF-8 sequences.
  const cjk = sniffCjk(bytes.subarray(0, CJK_SNIFF_BYTES));
  if (cjk) return { encoding: cjk, bomLength: 0 };
  return { encoding: mostlyUtf8(bytes) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/** Bytes examined when telling UTF-8 with a few bad bytes from a single-byte code page. */
const UTF8_SNIFF_BYTES = 1 << 20;

/**
 * UTF-8 that is not valid throughout, yet is UTF-8: cut inside its last
 * character (a truncated file), or with a few stray bytes among many valid
 * characters of two bytes or more (a Latin-1 byte pasted in, a damaged
 * sector). Its characters then decode as they are, each bad sequence as one
 * U+FFFD, where reading the whole file as Windows-1252 would garble every
 * one of them. Text in a single-byte code page almost never forms a valid
 * multi-byte sequence, so it stays what it is.
 */
function mostlyUtf8(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, UTF8_SNIFF_BYTES);
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < sample.length; ) {
    const b = sample[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = utf8SequenceLength(sample, i);
    if (length > 0) {
      valid++;
      i += length;
    } else if (length === 0) {
      // A sequence cut by the sample's end, or by the file's: neither is an error of the text.
      break;
    } else {
      invalid++;
      i += -length;
    }
  }
  return valid > 0 && valid >= 4 * invalid;
}

/**
 * The length of the valid UTF-8 sequence at `at` (a byte of 0x80 or more);
 * 0 where the bytes end inside a valid start of one; minus the bytes the
 * WHATWG decoder replaces by one U+FFFD where it is invalid.
 */
function utf8SequenceLength(bytes: Uint8Array, at: number): number {
  const b = bytes[at]!;
  const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
  if (need < 0) return -1;
  // The second byte's range narrows after E0, ED, F0 and F4 (no overlong forms, surrogates or code points past U+10FFFF).
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  for (let k = 1; k <= need; k++) {
    if (at + k >= bytes.length) return 0;
    const c = bytes[at + k]!;
    if (c < (k === 1 ? low : 0x80) || c > (k === 1 ? high : 0xbf)) return -k;
  }
  return need + 1;
}

/** Bytes examined when telling an East Asian encoding from Windows-1252. */
const CJK_SNIFF_BYTES = 65536;
const CJK_CANDIDATES: CjkEncoding[] = ['shift_jis', 'euc-kr', 'gb18030', 'big5'];

/**
 * The most frequent Chinese characters, simplified and traditional: a right
 * decoding of Chinese text is full of them, a wrong one (Big5 read as GBK,
 * Shift-JIS read as Big5) gives rare characters at random.
 */
// Pure: a module-level `new Set` is otherwise kept as a side effect, with its characters, in every bundle that imports
// this module for anything (the API functions reach it through page counting's error class).
const COMMON_HAN = /* @__PURE__ */ new Set(
  '的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日' +
    '這個們來為國說時會對於著過發後裡種經麼學現當沒動還進樣開從實與關點電問給題體應無義',
);

/** The most frequent Hangul syllables: a wrong decoding into Hangul gives rare ones at random. */
const COMMON_HANGUL = /* @__PURE__ */ new Set(
  '이다는의에을하고가서지기한로를어리대사으도자수있니아인시나해정게구보부들요만라장제위우전그것주국상내일적면였했습과와때미소생비성동원경말학문연중실계개거무분오년후더저운현데간회음발세관여공용모마신방유조단물된법및업영결본당각행치합민진화교통러같또없않까할할던바두러야며록금천명서울',
);

/**
 * Text in Shift-JIS, EUC-KR, GB18030 or Big5: the candidate that decodes the
 * sample without an error and reads most like its language (kana, Hangul
 * syllables, common Chinese characters, CJK punctuation), if that is most of
 * the non-ASCII text. Western text in Windows-1252 fails to decode as these
 * or decodes into rare characters.
 */
function sniffCjk(sample: Uint8Array): CjkEncoding | null {
  let high = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i]! >= 0x80) high++;
  if (high < 2) return null;
  let best: CjkEncoding | null = null;
  let bestScore = 0;
  for (const encoding of CJK_CANDIDATES) {
    const text = fatalDecode(sample, encoding);
    if (text === null) continue;
    let nonAscii = 0;
    let good = 0;
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c < 0x80) continue;
      nonAscii++;
      if (
        (c >= 0x3040 && c <= 0x30ff) || // hiragana, katakana
        COMMON_HANGUL.has(ch) ||
        (c >= 0x3000 && c <= 0x303f) || // CJK punctuation
        (c >= 0xff01 && c <= 0xff5e) || // full-width forms
        COMMON_HAN.has(ch)
      ) good++;
    }
    const score = nonAscii === 0 ? 0 : good / nonAscii;
    if (score > bestScore) [best, bestScore] = [encoding, score];
  }
  return bestScore >= 0.25 ? best : null;
}

/** The sample decoded, or null on an invalid sequence; a sequence cut by the sample's end is forgiven. */
function fatalDecode(sample: Uint8Array, encoding: CjkEncoding): string | null {
  for (const cut of [0, 1]) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(sample.subarray(0, sample.length - cut));
    } catch {
      // try once more without the last byte
    }
  }
  return null;
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

/**
 * The text of `body` in `encoding`. A NUL is read as a space: it shows as
 * nothing, and a NUL in a result breaks the databases and parsers that take
 * it (PostgreSQL refuses it in text); one code point for one keeps the page
 * count and the byte offsets of a split file.
 */
export function decodeAs(body: Uint8Array, encoding: TextEncodingName): string {
  const text = decodeRaw(body, encoding);
  return text.includes('\0') ? text.replaceAll('\0', ' ') : text;
}

function decodeRaw(body: Uint8Array, encoding: TextEncodingName): string {
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
    default:
      return new TextDecoder(encoding).decode(body);
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
      // UTF-8 with bad bytes (mostlyUtf8) counts as the decoder replaces them.
      if (!isUtf8(body)) return countCodePoints(decodeAs(body, encoding));
      // Valid UTF-8: every byte that is not a continuation starts a code point.
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
    default:
      return countCodePoints(decodeAs(body, encoding));
  }
}

function countCodePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
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
 * Whether the start of the file reads as text: few NULs and other control
 * characters once decoded, and few bytes that do not decode. Binary data
 * decoded as cp1252 is full of them; a text with a stray NUL or a damaged
 * byte here and there is still text, and a file cut inside its last
 * character too.
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
  const text = decodeRaw(sample, encoding);
  if (text.length === 0) return true;
  let controls = 0;
  // A UTF-16 or UTF-32 file cut inside its last character ends in one U+FFFD.
  let replacements = text.endsWith('\ufffd') ? -1 : 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Tab, LF, VT, FF, CR and ESC (ANSI colours in logs) are normal in text.
    if ((c < 0x20 && !(c >= 0x09 && c <= 0x0d) && c !== 0x1b) || (c >= 0x7f && c <= 0x9f)) controls++;
    else if (c === 0xfffd) replacements++;
  }
  return controls <= text.length * 0.01 && replacements <= text.length * 0.01;
}

/** Text in a Windows code page, as legacy Office writes byte strings; Windows-1252 when the page is unknown. */
export function decodeCodepage(bytes: Uint8Array, codepage: number): string {
  const label =
    codepage === 65001 ? 'utf-8'
    : codepage === 1200 ? 'utf-16le'
    : codepage === 932 ? 'shift_jis'
    : codepage === 936 ? 'gbk'
    : codepage === 949 ? 'euc-kr'
    : codepage === 950 ? 'big5'
    : codepage === 10000 ? 'macintosh'
    : codepage === 874 || (codepage >= 1250 && codepage <= 1258) ? `windows-${codepage}`
    : null;
  // Node's own windows-1252 decoder is Latin-1 (see text-decoding.ts), so that page is decoded there.
  if (label === null || label === 'windows-1252') return decodeRaw(bytes, 'windows-1252');
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return decodeRaw(bytes, 'windows-1252');
  }
}
