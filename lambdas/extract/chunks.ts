// Joining pages into `content` and cutting `chunks`. Offsets count code
// points of `content` (like metadata.char_count), end exclusive; the cutting
// works in UTF-16 units and converts at the end.

import type { Chunk, ExtractionConfig } from './types.ts';

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

export function makeChunks(joined: JoinedPages, chunking: ExtractionConfig['chunking'], sections?: number[]): Chunk[] {
  const { content, starts } = joined;
  let segments: Array<[number, number]>;
  if (chunking.strategy === 'page') {
    // Page chunks end at the page's own text, not the separator after it.
    segments = starts.map((s, i) => [s, s + joined.lengths[i]!] as [number, number]);
  } else {
    const bounds = chunking.strategy === 'section' && sections && sections.length > 0 ? sections : chunking.strategy === 'section' ? starts : [0];
    const sorted = [...new Set([0, ...bounds.filter((b) => b > 0 && b < content.length)])].sort((a, b) => a - b);
    segments = sorted.flatMap((s, i) => splitBySize(content, s, i + 1 < sorted.length ? sorted[i + 1]! : content.length, chunking.max_chars, chunking.overlap));
  }
  const toCp = codePointOffsets(content);
  const chunks: Chunk[] = [];
  for (const [s, e] of segments) {
    const text = content.slice(s, e);
    // A chunk of only whitespace (a blank page, a scan without OCR) carries nothing.
    if (text.trim() === '') continue;
    chunks.push({
      index: chunks.length,
      text,
      page_start: joined.numbers[pageAt(starts, s)]!,
      page_end: joined.numbers[pageAt(starts, Math.max(s, e - 1))]!,
      char_start: toCp(s),
      char_end: toCp(e),
    });
  }
  return chunks;
}

function splitBySize(content: string, start: number, end: number, max: number, overlap: number): Array<[number, number]> {
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

/** UTF-16 offset to code-point offset. */
function codePointOffsets(s: string): (utf16: number) => number {
  const pairs: number[] = [];
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      pairs.push(i + 1);
      i++;
    }
  }
  if (pairs.length === 0) return (x) => x;
  return (x) => {
    let lo = 0;
    let hi = pairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return x - lo;
  };
}
