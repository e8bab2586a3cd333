// Plain text and Markdown: the decoded text as it is, paged by the quota rule
// so chunks and metadata.pages match what was reserved at submission. The
// blocks of a Markdown file are read from its own syntax; a plain text file's
// are its paragraphs (the engine's default).
//
// A large file is split into runs of its text pages, each read from its own
// bytes (planTextRuns, extractTextRange): the pages a chunk decodes are the
// pages a whole read cuts, and its blocks are those a whole read finds.

import { isUtf8 } from 'node:buffer';
import { TEXT_PAGE_CHARS, textPages } from '../../engine/text-pages.ts';
import { decodeAs, decodeText, detectEncoding, type TextEncodingName } from '../../containers/text-decoding.ts';
import { paragraphDrafts } from '../../engine/elements.ts';
import { splitByCodePoints } from '../../engine/text-stats.ts';
import type { ByteRun, RangeSlice, TextLayout } from '../../engine/byte-ranges.ts';
import type { DraftElement, FormatContext, FormatOutput } from '../../engine/types.ts';
import { byteOffsets, UNIT_BYTES } from './csv.ts';
import { firstNotBefore } from '../../engine/binary-search.ts';

export function extractPlain(bytes: Uint8Array): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  return { pages: splitByCodePoints(text, TEXT_PAGE_CHARS), pageSeparator: '', unit: 'text_page', metadata: { encoding } };
}

export function extractMarkdown(bytes: Uint8Array): FormatOutput {
  const out = extractPlain(bytes);
  return { ...out, elements: markdownBlocks(out.pages.join('')) };
}

/** The format module: a chunk's own bytes when given them (RangeSlice), else the file. */
export function extractText(bytes: Uint8Array, ctx: Pick<FormatContext, 'range'>, format: 'text' | 'markdown'): FormatOutput {
  if (ctx.range) return extractTextRange(bytes, ctx.range);
  return format === 'markdown' ? extractMarkdown(bytes) : extractPlain(bytes);
}

/**
 * One chunk's pages from its bytes (the run's, read up to its readEnd), with
 * the blocks that start on them as a whole read finds them: read from the
 * first block that starts in the chunk, the one running on over its end read
 * whole. Page numbers continue from the code points before the run.
 */
export function extractTextRange(bytes: Uint8Array, slice: RangeSlice): FormatOutput {
  const layout = slice.layout as TextLayout;
  const [start, end, codePoints, blocksFrom = start, readEnd = end] = slice.run;
  if (bytes.byteLength !== readEnd - start) throw new Error(`a text chunk is read from bytes ${start}-${readEnd}, but ${bytes.byteLength} bytes came`);
  // The run starts and ends on code points, and so does where its blocks start: each piece decodes alone.
  const piece = (from: number, to: number) => (to > from ? decodeAs(bytes.subarray(from - start, to - start), layout.encoding) : '');
  const from = Math.min(blocksFrom, end);
  const lead = piece(start, from);
  const own = piece(from, end);
  const content = lead + own;
  const blockText = blocksFrom >= end ? '' : own + piece(end, readEnd);
  const blocks = layout.format === 'markdown' ? markdownBlocks(blockText) : paragraphDrafts(blockText);
  // Blocks that start past the run's end are the next chunk's; those that run on past it keep their full text or are cut at the chunk's end (toElements), as a whole read's selection of these pages does.
  const elements = blocks.filter((d) => d.start < own.length).map((d) => ({ ...d, start: d.start + lead.length, end: d.end + lead.length }));
  return {
    pages: splitByCodePoints(content, TEXT_PAGE_CHARS),
    pageSeparator: '',
    unit: 'text_page',
    elements,
    pageRun: { first: Math.floor(codePoints / TEXT_PAGE_CHARS) + 1, total: layout.pages_total },
    metadata: { encoding: layout.encoding },
  };
}

/** How a text encoding steps over code points in bytes, as its decoder reads them. */
interface CodePoints {
  /** The code point at byte `at` and its length in bytes. */
  next(at: number): [codePoint: number, bytes: number];
  /** The code point ending at byte `at` and its length in bytes. */
  prev(at: number): [codePoint: number, bytes: number];
}

/** The stepper of an encoding whose code points can be found in its bytes; null for the East Asian multi-byte ones. */
function codePointsOf(bytes: Uint8Array, encoding: TextEncodingName, bomLength: number): CodePoints | null {
  const n = bytes.byteLength;
  if (encoding === 'utf-8') {
    // Valid UTF-8 (planTextRuns checked it): a lead byte says the length, continuation bytes are 10xxxxxx.
    const at = (i: number): [number, number] => {
      const b = bytes[i]!;
      if (b < 0x80) return [b, 1];
      const len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      let cp = b & (0xff >> (len + 1));
      for (let k = 1; k < len; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
      return [cp, len];
    };
    return {
      next: at,
      prev: (i) => {
        let s = i - 1;
        while (s > bomLength && (bytes[s]! & 0xc0) === 0x80) s--;
        return at(s);
      },
    };
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const le = encoding === 'utf-16le';
    const unit = (i: number) => (le ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
    const high = (u: number) => u >= 0xd800 && u <= 0xdbff;
    const low = (u: number) => u >= 0xdc00 && u <= 0xdfff;
    // A lone surrogate or a trailing odd byte decodes to one U+FFFD (countUtf16 counts the same).
    return {
      next: (i) => {
        if (i + 1 >= n) return [0xfffd, n - i];
        const u = unit(i);
        if (high(u) && i + 3 < n && low(unit(i + 2))) return [0x10000 + ((u - 0xd800) << 10) + (unit(i + 2) - 0xdc00), 4];
        return [high(u) || low(u) ? 0xfffd : u, 2];
      },
      prev: (i) => {
        if ((i - bomLength) % 2 === 1) return [0xfffd, 1];
        const u = unit(i - 2);
        if (low(u) && i - 4 >= bomLength && high(unit(i - 4))) return [0x10000 + ((unit(i - 4) - 0xd800) << 10) + (u - 0xdc00), 4];
        return [high(u) || low(u) ? 0xfffd : u, 2];
      },
    };
  }
  if (encoding === 'utf-32le' || encoding === 'utf-32be') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const le = encoding === 'utf-32le';
    const at = (i: number): [number, number] => {
      if (i + 4 > n) return [0xfffd, n - i];
      const v = view.getUint32(i, le);
      return [v <= 0x10ffff && (v < 0xd800 || v > 0xdfff) ? v : 0xfffd, 4];
    };
    return { next: at, prev: (i) => at(i - ((i - bomLength) % 4 || 4)) };
  }
  if (encoding === 'windows-1252') {
    // Only whitespace and line breaks are asked of it, and no byte from 0x80 to 0x9F is either in Windows-1252.
    return { next: (i) => [bytes[i]!, 1], prev: (i) => [bytes[i - 1]!, 1] };
  }
  return null;
}

/** What \s matches in a JavaScript regular expression (paragraphDrafts' blank lines). */
function isSpace(cp: number): boolean {
  return (
    cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000 || cp === 0xfeff
  );
}

const NEWLINE = 0x0a;

/**
 * The layout and one ByteRun per run of pages (as planned, ascending), or
 * null when code points cannot be found in the file's bytes (an East Asian
 * multi-byte encoding): those chunks read the whole file.
 *
 * Runs are cut where pages are, every 3,000 code points, never on a line or
 * paragraph boundary: a page is the quota's unit, and a chunk's pages must be
 * the pages a whole read numbers. A code point boundary is never inside a
 * UTF-8 sequence or a UTF-16 surrogate pair, and the byte order mark stays
 * before the first run (each run is decoded as the encoding the whole file
 * was detected in). What a cut inside a paragraph or block changes is only
 * where blocks start, which each run is told (blocksFrom, readEnd).
 */
export function planTextRuns(bytes: Uint8Array, format: 'text' | 'markdown', runs: Array<{ first_page: number; last_page: number }>): { layout: TextLayout; runs: ByteRun[] } | null {
  const { encoding, bomLength } = detectEncoding(bytes);
  // UTF-8 with bad bytes (detection lets a few through) cannot be stepped by its lead bytes: its chunks read the whole file.
  if (encoding === 'utf-8' && !isUtf8(bytes.subarray(bomLength))) return null;
  const steps = codePointsOf(bytes, encoding, bomLength);
  if (!steps) return null;
  // Byte offsets of the page starts the runs need, in one walk over the code points.
  const wanted = [...new Set(runs.flatMap((r) => [(r.first_page - 1) * TEXT_PAGE_CHARS, r.last_page * TEXT_PAGE_CHARS]))].sort((a, b) => a - b);
  const byteAt = new Map<number, number>();
  const utf8 = encoding === 'utf-8';
  let at = bomLength;
  let count = 0;
  let w = 0;
  for (; at < bytes.byteLength; count++) {
    while (w < wanted.length && wanted[w] === count) byteAt.set(wanted[w++]!, at);
    if (utf8) {
      // The hot loop of a 500 MB file: a lead byte says its sequence's length, without decoding it.
      const b = bytes[at]!;
      at += b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    } else at += steps.next(at)[1];
  }
  while (w < wanted.length && wanted[w] === count) byteAt.set(wanted[w++]!, at);
  const offset = (cp: number) => byteAt.get(cp) ?? bytes.byteLength;
  const cuts = runs.map((r) => [offset((r.first_page - 1) * TEXT_PAGE_CHARS), offset(r.last_page * TEXT_PAGE_CHARS)] as const);
  const layout: TextLayout = { format, encoding, pages_total: textPages(count) };
  if (format === 'markdown') return { layout, runs: markdownRuns(bytes, encoding, bomLength, runs, cuts) };
  return {
    layout,
    runs: cuts.map(([start, end], i): ByteRun => [start, end, (runs[i]!.first_page - 1) * TEXT_PAGE_CHARS, paragraphResume(bytes, steps, bomLength, start, end), end]),
  };
}

/**
 * Where a run's paragraphs start (paragraphDrafts: runs of lines with a
 * character other than whitespace): at the run's start, unless a paragraph
 * runs on over it from before, then where that paragraph ends, or at the
 * run's end when it runs over all of it. Found from the lines around the cut,
 * never more than the run.
 */
function paragraphResume(bytes: Uint8Array, steps: CodePoints, bomLength: number, start: number, end: number): number {
  if (start <= bomLength) return start;
  // Whether the line from `at` backwards (to the line break before it) or forwards (to the one after it) has a character other than whitespace.
  const textBefore = (at: number) => {
    for (let i = at; i > bomLength; ) {
      const [cp, len] = steps.prev(i);
      if (cp === NEWLINE) return false;
      if (!isSpace(cp)) return true;
      i -= len;
    }
    return false;
  };
  const textAfter = (at: number) => {
    for (let i = at; i < bytes.byteLength; ) {
      const [cp, len] = steps.next(i);
      if (cp === NEWLINE) return false;
      if (!isSpace(cp)) return true;
      i += len;
    }
    return false;
  };
  const [before, newlineLength] = steps.prev(start);
  const atLineStart = before === NEWLINE;
  const runsOn = atLineStart ? textBefore(start - newlineLength) && textAfter(start) : textBefore(start) || textAfter(start);
  if (!runsOn) return start;
  // The paragraph ends at the end of the last line with text in its run of lines.
  let i = start;
  for (;;) {
    let newline = 0;
    while (i < end) {
      const [cp, len] = steps.next(i);
      if (cp === NEWLINE) {
        newline = len;
        break;
      }
      i += len;
    }
    if (i >= end) return end;
    if (!textAfter(i + newline)) return i;
    i += newline;
  }
}

/**
 * A Markdown file's blocks depend on all the lines before them (a fence opens
 * a code block until it closes), so its runs are found in its decoded text:
 * each run's blocks start after the block that runs on over its start, and
 * it reads on to the end of the block that runs on over its end.
 */
function markdownRuns(bytes: Uint8Array, encoding: TextEncodingName, bomLength: number, runs: Array<{ first_page: number }>, cuts: ReadonlyArray<readonly [number, number]>): ByteRun[] {
  const text = decodeAs(bytes.subarray(bomLength), encoding);
  const width = UNIT_BYTES[encoding as keyof typeof UNIT_BYTES];
  const blocks = markdownBlocks(text);
  // Byte offsets to UTF-16 offsets: the cuts are code point boundaries, found again by walking the text.
  const unitOf = unitOffsets(text, cuts.flatMap(([s, e]) => [s - bomLength, e - bomLength]), width);
  const resumes: number[] = [];
  const straddling = (cut: number) => {
    // Blocks are in order and do not overlap: the last that starts before the cut is the only one that can run over it.
    const b = blocks[firstNotBefore(blocks.length, (i) => blocks[i]!.start < cut) - 1];
    return b && lineEndAfter(text, b.end) > cut ? b : null;
  };
  const unitsOut: number[] = [];
  for (const [s, e] of cuts) {
    const us = unitOf.get(s - bomLength)!;
    const ue = unitOf.get(e - bomLength)!;
    const over = us > 0 ? straddling(us) : null;
    const resume = over ? Math.min(lineEndAfter(text, over.end) + 1, ue) : us;
    const tail = straddling(ue);
    unitsOut.push(resume, tail && tail.start < ue && tail.start >= resume ? Math.max(ue, tail.end) : ue);
    resumes.push(resume);
  }
  const bytesOf = byteOffsets(text, [...new Set(unitsOut)].sort((a, b) => a - b), width === undefined ? 0 : width);
  return cuts.map(([start, end], i): ByteRun => {
    const from = Math.max(start, bomLength + bytesOf.get(unitsOut[2 * i]!)!.bytes);
    const readEnd = Math.max(end, bomLength + bytesOf.get(unitsOut[2 * i + 1]!)!.bytes);
    return [start, end, (runs[i]!.first_page - 1) * TEXT_PAGE_CHARS, from, readEnd];
  });
}

/** The offset of the line break ending the line `at` is on (or the text's end). */
function lineEndAfter(text: string, at: number): number {
  const i = text.indexOf('\n', at);
  return i < 0 ? text.length : i;
}

/** UTF-16 offsets in `text` of byte offsets (after the byte order mark) that fall on code points. */
function unitOffsets(text: string, byteOffsetsAscending: number[], width: number | undefined): Map<number, number> {
  const wanted = [...new Set(byteOffsetsAscending)].sort((a, b) => a - b);
  const out = new Map<number, number>();
  let unit = 0;
  let bytes = 0;
  let w = 0;
  while (w < wanted.length) {
    if (bytes === wanted[w]) out.set(wanted[w++]!, unit);
    else if (unit >= text.length) out.set(wanted[w++]!, text.length);
    else {
      const c = text.charCodeAt(unit);
      const pair = c >= 0xd800 && c <= 0xdbff && unit + 1 < text.length && (text.charCodeAt(unit + 1) & 0xfc00) === 0xdc00;
      bytes += width === 0 ? (pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3) : width === -1 ? 4 : (width ?? 1) * (pair ? 2 : 1);
      unit += pair ? 2 : 1;
    }
  }
  return out;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const LIST_ITEM = /^([ \t]*)(?:[-*+•]|(\d{1,9})[.)])[ \t]+(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^ {0,3}\|/;

/** Headings, list items, fenced code, tables and paragraphs of Markdown source, with their offsets in it. */
export function markdownBlocks(text: string): DraftElement[] {
  const drafts: DraftElement[] = [];
  const lines: Array<{ text: string; start: number; end: number }> = [];
  let at = 0;
  for (const line of text.split('\n')) {
    lines.push({ text: line.replace(/\r$/, ''), start: at, end: at + line.replace(/\r$/, '').length });
    at += line.length + 1;
  }
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.text.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      let j = i + 1;
      while (j < lines.length && !lines[j]!.text.trimStart().startsWith(fence[1]!)) j++;
      const last = lines[Math.min(j, lines.length - 1)]!;
      const body = lines.slice(i + 1, j).map((l) => l.text).join('\n');
      drafts.push({ type: 'code', start: line.start, end: last.end, text: body });
      i = j + 1;
      continue;
    }
    const heading = HEADING.exec(line.text);
    if (heading) {
      drafts.push({ type: 'heading', level: heading[1]!.length, start: line.start, end: line.end, text: heading[2]! });
      i++;
      continue;
    }
    const item = LIST_ITEM.exec(line.text);
    if (item) {
      const depth = Math.floor(item[1]!.replace(/\t/g, '    ').length / 2);
      drafts.push({ type: 'list_item', level: depth, ordered: item[2] !== undefined, start: line.start, end: line.end, text: item[3]! });
      i++;
      continue;
    }
    if (TABLE_ROW.test(line.text)) {
      let j = i;
      while (j + 1 < lines.length && TABLE_ROW.test(lines[j + 1]!.text)) j++;
      drafts.push({ type: 'table', start: line.start, end: lines[j]!.end });
      i = j + 1;
      continue;
    }
    // A paragraph runs to a blank line or to a line that starts another kind of block.
    let j = i;
    while (j + 1 < lines.length) {
      const next = lines[j + 1]!.text;
      if (next.trim() === '' || HEADING.test(next) || FENCE.test(next) || LIST_ITEM.test(next) || TABLE_ROW.test(next)) break;
      j++;
    }
    drafts.push({ type: 'paragraph', start: line.start, end: lines[j]!.end });
    i = j + 1;
  }
  return drafts;
}
