// Joining pages into `content` and cutting `chunks`. Offsets count code
// points of `content` (like metadata.char_count), end exclusive; the cutting
// works in UTF-16 units and converts at the end.

import type { PlacedDraft } from './elements.ts';
import type { Chunk, Element, ExtractionConfig, Table } from './types.ts';
import { firstNotBefore } from './binary-search.ts';

export interface JoinedPages {
  content: string;
  /** UTF-16 offset in `content` where each kept page starts. */
  starts: number[];
  /** UTF-16 length of each kept page, without the separator after it. */
  lengths: number[];
  /** 1-based page number of each kept page. */
  numbers: number[];
}

export function joinPages(pages: string[], separator: string, numbers: number[] = pages.map((_, i) => i + 1)): JoinedPages {
  const starts: number[] = [];
  let offset = 0;
  for (const text of pages) {
    starts.push(offset);
    offset += text.length + separator.length;
  }
  return { content: pages.join(separator), starts, lengths: pages.map((p) => p.length), numbers };
}

/**
 * The blocks as the result's elements: offsets moved from their page's text
 * into `content` and counted in code points, pages numbered, table indexes
 * into the tables kept. Blocks on pages not kept are left out.
 */
export function toElements(drafts: PlacedDraft[], kept: number[], joined: JoinedPages, separator: string, allTables: Table[], keptTables: Table[]): Element[] {
  const { content, starts, lengths, numbers } = joined;
  const position = new Map(kept.map((page, k) => [page, k]));
  const tableIndex = new Map(keptTables.map((t, i) => [t, i]));
  const toCp = codePointOffsets(content);
  const elements: Element[] = [];
  for (const d of drafts) {
    const k = position.get(d.page);
    if (k === undefined) continue;
    const start = starts[k]! + d.start;
    // A flow format's block may run on into the next text pages (they join with no separator) while they are kept.
    let last = k;
    while (separator === '' && d.end > lengths[k]! + (starts[last]! - starts[k]!) && last + 1 < kept.length && kept[last + 1] === kept[last]! + 1) last++;
    const end = Math.min(starts[k]! + d.end, starts[last]! + lengths[last]!);
    const table = d.table === undefined ? undefined : tableIndex.get(allTables[d.table]!);
    if (d.type === 'table' && d.table !== undefined && table === undefined) continue;
    elements.push({
      type: d.type,
      text: d.text ?? content.slice(start, end),
      page: numbers[k]!,
      ...(d.bbox ? { bbox: d.bbox } : {}),
      ...(d.level !== undefined ? { level: d.level } : {}),
      ...(d.ordered !== undefined ? { ordered: d.ordered } : {}),
      ...(table !== undefined ? { table } : {}),
      char_start: toCp(start),
      char_end: toCp(Math.max(start, end)),
    });
  }
  return elements;
}

export function makeChunks(joined: JoinedPages, chunking: ExtractionConfig['chunking'], sections?: number[], elements: Element[] = []): Chunk[] {
  const { content, starts } = joined;
  let segments: Array<[number, number]>;
  if (chunking.strategy === 'page') {
    // Page chunks end at the page's own text, not the separator after it.
    segments = starts.map((s, i) => [s, s + joined.lengths[i]!] as [number, number]);
  } else {
    const bounds = chunking.strategy === 'section' && sections && sections.length > 0 ? sections : chunking.strategy === 'section' ? starts : [0];
    const sorted = [...new Set([0, ...bounds.filter((b) => b > 0 && b < content.length)])].sort((a, b) => a - b);
    // Tables and list items are not cut when the cut can move to their start.
    const whole = elements.filter((e) => e.type === 'table' || e.type === 'list_item');
    const wholeStarts = toUtf16(content, whole.map((e) => e.char_start));
    const wholeEnds = toUtf16(content, whole.map((e) => e.char_end));
    const keepWhole = whole.map((_, i) => [wholeStarts[i]!, wholeEnds[i]!] as [number, number]);
    segments = sorted.flatMap((s, i) =>
      splitBySize(content, s, i + 1 < sorted.length ? sorted[i + 1]! : content.length, chunking.max_chars, chunking.overlap, keepWhole),
    );
  }
  const toCp = codePointOffsets(content);
  const paths = headingPaths(elements);
  const chunks: Chunk[] = [];
  for (const [s, e] of segments) {
    const text = content.slice(s, e);
    // A chunk of only whitespace (a blank page, a scan without OCR) carries nothing.
    if (text.trim() === '') continue;
    const char_start = toCp(s);
    const char_end = toCp(e);
    const boxes = boxesWithin(elements, char_start, char_end);
    chunks.push({
      index: chunks.length,
      text,
      page_start: joined.numbers[pageAt(starts, s)]!,
      page_end: joined.numbers[pageAt(starts, Math.max(s, e - 1))]!,
      char_start,
      char_end,
      headings: paths.at(char_start),
      ...(boxes.length > 0 ? { boxes } : {}),
    });
  }
  return chunks;
}

/**
 * The headings in force at offsets asked in increasing order (chunks start
 * in order), walking the elements once: each heading closes those of its
 * level and below. An offset that goes back starts over.
 */
export function headingPaths(elements: Element[]): { at(offset: number): string[] } {
  let path: Array<{ level: number; text: string }> = [];
  let next = 0;
  let last = -1;
  return {
    at(offset) {
      if (offset < last) [path, next] = [[], 0];
      last = offset;
      for (; next < elements.length && elements[next]!.char_start <= offset; next++) {
        const e = elements[next]!;
        if (e.type !== 'heading' && e.type !== 'title') continue;
        // A title stands above every heading.
        const level = e.type === 'title' ? 0 : (e.level ?? 1);
        while (path.length > 0 && path.at(-1)!.level >= level) path.pop();
        path.push({ level, text: e.text });
      }
      return path.map((h) => h.text);
    },
  };
}


/** The boxes of the elements that share text with [start, end), or that stand empty inside it (figures). */
function boxesWithin(elements: Element[], start: number, end: number): Array<{ page: number; bbox: NonNullable<Element['bbox']> }> {
  const out: Array<{ page: number; bbox: NonNullable<Element['bbox']> }> = [];
  let lo = firstNotBefore(elements.length, (i) => elements[i]!.char_start < start);
  while (lo > 0 && elements[lo - 1]!.char_end > start) lo--;
  for (let i = lo; i < elements.length && elements[i]!.char_start < end; i++) {
    const e = elements[i]!;
    if (!e.bbox || e.type === 'page_header' || e.type === 'page_footer') continue;
    const shares = e.char_end > start || (e.char_start === e.char_end && e.char_start >= start);
    if (shares) out.push({ page: e.page, bbox: e.bbox });
  }
  return out;
}

function splitBySize(content: string, start: number, end: number, max: number, overlap: number, keepWhole: Array<[number, number]> = []): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = start;
  while (s < end) {
    let e = Math.min(end, s + max);
    if (e < end) {
      // Prefer to cut after a paragraph, a line, then a space, in the last fifth of the window.
      const floor = s + Math.floor(max * 0.8);
      const window = content.slice(floor, e);
      const para = window.lastIndexOf('\n\n');
      const line = window.lastIndexOf('\n');
      const cut = para >= 0 ? para + 2 : line >= 0 ? line + 1 : window.lastIndexOf(' ') + 1;
      if (cut > 0) e = floor + cut;
      // Inside a table or list item that started in this chunk: cut before it instead.
      const inside = keepWhole.find(([a, b]) => a < e && e < b && a > s);
      if (inside) e = inside[0];
      if (isLowSurrogate(content.charCodeAt(e))) e--;
    }
    out.push([s, e]);
    if (e >= end) break;
    let next = Math.max(s + 1, e - Math.min(overlap, max - 1));
    if (isLowSurrogate(content.charCodeAt(next))) next--;
    s = next <= s ? e : next;
  }
  return out;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function pageAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Code-point offsets in `s` to UTF-16 offsets. */
export function toUtf16(s: string, offsets: number[]): number[] {
  // UTF-16 index of each surrogate pair's high half.
  const pairs: number[] = [];
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      pairs.push(i);
      i++;
    }
  }
  if (pairs.length === 0) return offsets;
  return offsets.map((x) => {
    // Pairs that start before code point x: the j-th pair starts at code point pairs[j] - j.
    return x + firstNotBefore(pairs.length, (j) => pairs[j]! - j < x);
  });
}

/** UTF-16 offset to code-point offset. */
export function codePointOffsets(s: string): (utf16: number) => number {
  const pairs: number[] = [];
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      pairs.push(i + 1);
      i++;
    }
  }
  if (pairs.length === 0) return (x) => x;
  return (x) => x - firstNotBefore(pairs.length, (j) => pairs[j]! < x);
}
