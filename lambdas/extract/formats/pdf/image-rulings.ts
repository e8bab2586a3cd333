// The ruling lines a scanned page shows: runs of dark pixels longer than any
// letter is wide or tall, in the page rendered for OCR, as the rulings a text
// PDF draws with paths (rulings.ts) in page space, so ruled-tables.ts finds a
// scanned table's grid as it finds a drawn one. A line a few pixels thick is
// one ruling; a dark band thicker than a rule (a shaded header row) gives its
// two edges, as a filled rectangle's path does.

import type { Ruling } from './rulings.ts';

export interface GrayImage {
  /** One byte a pixel, 0 black to 255 white, rows `stride` bytes apart. */
  pixels: Uint8Array;
  width: number;
  height: number;
  stride: number;
}

/** Darker than this is ink (antialiased thin rules come out mid-gray). */
const INK = 160;
/** Shortest rule, in points: longer than a letter of a 20-point heading is tall. */
const MIN_RULE = 20;
/** Thicker than this (points), a dark band is a filled area, which gives its edges. */
const MAX_RULE_THICKNESS = 3;

interface Run {
  /** Row (horizontal) or column (vertical) in pixels. */
  at: number;
  from: number;
  to: number;
}

export function imageRulings(img: GrayImage, pixelsPerPoint: number, pageHeight: number): Ruling[] {
  const min = Math.max(8, Math.round(MIN_RULE * pixelsPerPoint));
  const horizontal: Run[] = [];
  const vertical: Run[] = [];
  // Row by row: horizontal runs as they end, and for every column the length of the dark run ending in this row.
  const down = new Int32Array(img.width);
  for (let y = 0; y <= img.height; y++) {
    const row = y * img.stride;
    let start = -1;
    for (let x = 0; x <= img.width; x++) {
      const dark = y < img.height && x < img.width && img.pixels[row + x]! < INK;
      if (dark) {
        if (start < 0) start = x;
      } else if (start >= 0) {
        if (x - start >= min) horizontal.push({ at: y, from: start, to: x });
        start = -1;
      }
      if (x === img.width) continue;
      if (dark) down[x]!++;
      else if (down[x]! > 0) {
        if (down[x]! >= min) vertical.push({ at: x, from: y - down[x]!, to: y });
        down[x] = 0;
      }
    }
  }
  const thick = MAX_RULE_THICKNESS * pixelsPerPoint;
  const toX = (px: number) => px / pixelsPerPoint;
  const toY = (px: number) => pageHeight - px / pixelsPerPoint;
  // A thin band is one rule along its middle; a thick one, a filled area, gives its two edges.
  const edges = (band: Band) => (band.last - band.first + 1 > thick ? [band.first, band.last + 1] : [(band.first + band.last + 1) / 2]);
  const rulings: Ruling[] = [];
  for (const band of bands(horizontal)) for (const at of edges(band)) rulings.push({ dir: 'h', at: toY(at), from: toX(band.from), to: toX(band.to) });
  // Page space runs y up: the run's first pixel row is its top.
  for (const band of bands(vertical)) for (const at of edges(band)) rulings.push({ dir: 'v', at: toX(at), from: toY(band.to), to: toY(band.from) });
  return rulings;
}

/** Rows (or columns) `first` to `last` of runs that overlap, spanning `from` to `to`: a rule drawn a few pixels thick. */
interface Band {
  first: number;
  last: number;
  from: number;
  to: number;
}

/** Runs in neighbouring rows (or columns) that overlap, as one band. */
function bands(runs: Run[]): Band[] {
  runs.sort((a, b) => a.at - b.at || a.from - b.from);
  const out: Band[] = [];
  // Bands that reached the last row (or column) read: only those can take the next.
  let open: typeof out = [];
  let at = -1;
  for (const r of runs) {
    if (r.at !== at) {
      open = open.filter((b) => b.last >= r.at - 1);
      at = r.at;
    }
    const band = open.find((b) => r.from < b.to && r.to > b.from);
    if (band) {
      band.last = r.at;
      band.from = Math.min(band.from, r.from);
      band.to = Math.max(band.to, r.to);
    } else {
      const b = { first: r.at, last: r.at, from: r.from, to: r.to };
      open.push(b);
      out.push(b);
    }
  }
  return out;
}

/** Glyphs OCR reads a vertical rule as. */
const BAR = /^[|!Il[\]()]$/;

/**
 * Words without the rules OCR read as letters: a lone bar standing on a
 * vertical ruling is the ruling ("| 120" in a table's cell), and so is a bar
 * glued to a word's end that the ruling runs through.
 */
export function withoutRuleGlyphs<T extends { x0: number; x1: number; top: number; bottom: number; text: string }>(words: T[], rulings: readonly Ruling[]): T[] {
  const vertical = rulings.filter((r) => r.dir === 'v');
  if (vertical.length === 0) return words;
  const on = (x: number, w: T) => vertical.some((r) => Math.abs(r.at - x) <= 1.5 && r.from <= w.top && r.to >= w.bottom);
  const out: T[] = [];
  for (const w of words) {
    const chars = [...w.text];
    if (chars.length === 1 && BAR.test(w.text) && on((w.x0 + w.x1) / 2, w)) continue;
    const share = (w.x1 - w.x0) / chars.length;
    if (chars.length > 1 && /^\|/.test(w.text) && on(w.x0 + share / 2, w)) out.push({ ...w, text: w.text.slice(1), x0: w.x0 + share });
    else if (chars.length > 1 && /\|$/.test(w.text) && on(w.x1 - share / 2, w)) out.push({ ...w, text: w.text.slice(0, -1), x1: w.x1 - share });
    else out.push(w);
  }
  return out;
}
