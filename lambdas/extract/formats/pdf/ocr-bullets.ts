// Bullets tesseract leaves out. Its LSTM model reads a round bullet as "e"
// at best (ocr-words.ts takes those), and often drops it altogether, so a
// scanned list comes out as plain lines. The mark is still in the picture:
// a lone, solid, roughly square blob standing clear of the line's first word,
// above its baseline, about as high as a lower-case letter or less.

import type { OcrLine } from '../../engine/ocr.ts';
import type { GrayImage } from './image-rulings.ts';

/** Darker than this is ink: a mark's, a bold line's strokes (ocr-words.ts), a list number's (ocr-marks.ts). */
export const DARK = 128;
/** How far left of the first word a mark (a bullet, a list's number) may stand, in row heights (a tab stop or two). */
const REACH = 3;
/** The least space between a mark and its text, in row heights: a mark touching a word is part of it. */
const MIN_GAP = 0.25;
/** A bullet's height and width, in row heights: a full stop is smaller, a letter or a figure taller. */
const MIN_SIZE = 0.12;
const MAX_SIZE = 0.5;
/** A bullet is about as wide as high (a dash or a rule is not). */
const MAX_ASPECT = 1.7;
/** Share of its box that is ink: a filled disc covers 0.79, a square all of it; a ring or a letter far less. */
const MIN_FILL = 0.55;

/**
 * The pixel box [x0, y0, x1, y1] (y down) of a bullet left of `line`'s first
 * word that OCR did not read, or null. `rowHeight` is the line's in pixels;
 * `lines` are the page's, whose words the mark must stand clear of (the end
 * of a line in the column to the left is no bullet).
 */
export function bulletBefore(line: OcrLine, lines: readonly OcrLine[], picture: GrayImage, rowHeight: number): [number, number, number, number] | null {
  const strip = stripBefore(line, lines, picture, rowHeight);
  if (!strip) return null;
  const { left, right, top, bottom, base } = strip;
  // The window's inked columns, in runs: one run is one mark; two or more are text, figures or a column's end.
  const inked: number[] = [];
  for (let x = left; x < right; x++) {
    let n = 0;
    for (let y = top; y < bottom; y++) if (picture.pixels[y * picture.stride + x]! < DARK) n++;
    inked.push(n);
  }
  const start = inked.findIndex((n) => n > 0);
  if (start < 0) return null;
  let end = start;
  while (end < inked.length && inked[end]! > 0) end++;
  if (inked.slice(end).some((n) => n > 0)) return null;
  let y0 = bottom;
  let y1 = top;
  let ink = 0;
  for (let x = left + start; x < left + end; x++) {
    for (let y = top; y < bottom; y++) {
      if (picture.pixels[y * picture.stride + x]! >= DARK) continue;
      ink++;
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y + 1);
    }
  }
  const width = end - start;
  const height = y1 - y0;
  const middle = (y0 + y1) / 2;
  const sized = (d: number) => d >= MIN_SIZE * rowHeight && d <= MAX_SIZE * rowHeight;
  const square = Math.max(width, height) <= MAX_ASPECT * Math.min(width, height);
  // Its middle on the lower-case letters' middle: above a full stop, below an apostrophe.
  const placed = middle <= base - 0.1 * rowHeight && middle >= base - 0.6 * rowHeight;
  if (!sized(width) || !sized(height) || !square || !placed || ink < MIN_FILL * width * height) return null;
  return [left + start, y0, left + end, y1];
}

/**
 * The strip of the picture left of `line`'s first word where a mark before it would stand: from a tab stop or
 * two before the word, or from the end of another line's words in the way (the column to the left), to a little
 * short of the word; from a row's height above its baseline to a little below. Words of lines `passable` lets
 * through (a garbled reading of the marks themselves) are not in the way. Null when no room is left.
 */
export function stripBefore(
  line: OcrLine,
  lines: readonly OcrLine[],
  picture: GrayImage,
  rowHeight: number,
  passable: (other: OcrLine) => boolean = () => false,
): { left: number; right: number; top: number; bottom: number; base: number } | null {
  const first = line.words[0];
  if (!first || rowHeight <= 0) return null;
  const [bx0, by0, bx1, by1] = line.baseline;
  const slope = bx1 > bx0 ? (by1 - by0) / (bx1 - bx0) : 0;
  const base = by0 + slope * (first.bbox[0] - bx0);
  const top = Math.max(0, Math.floor(base - rowHeight));
  const bottom = Math.min(picture.height, Math.ceil(base + 0.15 * rowHeight));
  const right = Math.min(picture.width, Math.floor(first.bbox[0] - MIN_GAP * rowHeight));
  let left = Math.max(0, Math.floor(first.bbox[0] - REACH * rowHeight));
  for (const other of lines) {
    if (passable(other)) continue;
    for (const w of other.words) {
      if (w.bbox[2] <= first.bbox[0] && w.bbox[3] > top && w.bbox[1] < bottom) left = Math.max(left, Math.ceil(w.bbox[2]) + 1);
    }
  }
  return right - left < 2 || bottom - top < 2 ? null : { left, right, top, bottom, base };
}
