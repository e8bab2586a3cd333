// Numbers of a scanned numbered list that tesseract's page reading loses. Set
// a tab before their items' text, the numbers stand apart as a narrow column
// of their own, which tesseract reads as a block of a few garbled letters
// ("oo wu N" for nine numbers) or not at all, so the items come out as plain
// lines. The figures are still in the picture: the ink left of a line's first
// word, standing on its baseline as tall as a figure, is read again alone, as
// one line of digits and stops, and a "3." or "(3)" read there opens the item.

import type { OcrLine } from '../../engine/ocr.ts';
import type { GrayImage } from './image-rulings.ts';
import { DARK, stripBefore } from './ocr-bullets.ts';

type Box = [number, number, number, number];

export interface OcrMark {
  text: string;
  bbox: Box;
}

/** A number's ink is a figure's height (cap height, about 0.7 of the row) and at most three figures and a stop wide. */
const MIN_HEIGHT = 0.45;
const MAX_HEIGHT = 1;
const MAX_WIDTH = 1.8;
/** White around the ink in a snippet, in row heights: tesseract misreads figures cropped close (a "6." as "5."). */
const PAD = 0.6;
/** What the snippets are read with: figures, stops and brackets only. */
export const MARK_ALPHABET = '0123456789.()';
/** What a list's number reads as: "3." "12)" "(4)"; a bare figure left of a line is a table's or a line number. */
const NUMBER = /^(?:\d{1,3}[.)]|\(\d{1,3}\))$/;

/**
 * The numbers read before the lines of a scanned page, by line, and the lines that were tesseract's own
 * reading of them (narrow lines of short words over a number's ink, garbled or not), which the page drops in
 * their favour. `read` reads encoded snippets of the picture (ocrSnippets with MARK_ALPHABET).
 */
export async function numberMarks(
  lines: readonly OcrLine[],
  picture: GrayImage,
  read: (snippets: Uint8Array[]) => Promise<string[]>,
): Promise<{ marks: Map<OcrLine, OcrMark>; garbled: Set<OcrLine> }> {
  const narrow = new Set(lines.filter(isNarrow));
  const found = lines.filter((l) => !narrow.has(l)).flatMap((line) => {
    const ink = inkBefore(line, lines, narrow, picture);
    return ink ? [{ line, ink }] : [];
  });
  const texts = await read(found.map(({ ink }) => pgm(picture, ink.crop)));
  const marks = new Map<OcrLine, OcrMark>();
  found.forEach(({ line, ink }, i) => {
    const text = texts[i]!.replace(/\s+/g, '');
    if (NUMBER.test(text)) marks.set(line, { text, bbox: ink.bbox });
  });
  const inks = [...marks.values()].map((m) => m.bbox);
  const garbled = new Set([...narrow].filter((l) => inks.some((b) => overlaps(b, l.bbox))));
  return { marks, garbled };
}

/** A line no wider than a mark and of short words: a column of list numbers or bullets read as letters. */
function isNarrow(line: OcrLine): boolean {
  return line.bbox[2] - line.bbox[0] <= MAX_WIDTH * line.rowHeight && line.words.every((w) => w.text.length <= 3);
}

/** The ink left of `line`'s first word that could be its number: its box, and the snippet of the picture to read it from. */
function inkBefore(line: OcrLine, lines: readonly OcrLine[], narrow: ReadonlySet<OcrLine>, picture: GrayImage): { bbox: Box; crop: Box } | null {
  const first = line.words[0];
  const h = line.rowHeight;
  if (!first || NUMBER.test(first.text)) return null;
  // The garbled reading of the numbers stands where they do: it is not in the way.
  const strip = stripBefore(line, lines, picture, h, (other) => narrow.has(other));
  if (!strip) return null;
  const { left, right, top, bottom, base } = strip;
  let [x0, x1, y0, y1] = [right, left, bottom, top];
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      if (picture.pixels[y * picture.stride + x]! >= DARK) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x + 1);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y + 1);
    }
  }
  if (x1 <= x0) return null;
  // Figures stand on the baseline, as tall as figures are: a bullet is smaller, a word's descender or a rule elsewhere.
  const standing = Math.abs(y1 - base) <= 0.2 * h && y1 - y0 >= MIN_HEIGHT * h && y1 - y0 <= MAX_HEIGHT * h;
  if (!standing || x1 - x0 > MAX_WIDTH * h) return null;
  const pad = Math.ceil(PAD * h);
  const crop: Box = [Math.max(0, x0 - pad), Math.max(0, y0 - pad), Math.min(picture.width, x1 + pad), Math.min(picture.height, y1 + pad)];
  return { bbox: [x0, y0, x1, y1], crop };
}

const overlaps = (a: Box, b: Box) => Math.min(a[2], b[2]) > Math.max(a[0], b[0]) && Math.min(a[3], b[3]) > Math.max(a[1], b[1]);

/** A piece of the picture as a binary PGM, which tesseract reads as it reads a PNG. */
function pgm(picture: GrayImage, [x0, y0, x1, y1]: Box): Uint8Array {
  const [width, height] = [x1 - x0, y1 - y0];
  const head = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(head.length + width * height);
  out.set(head);
  for (let y = 0; y < height; y++) out.set(picture.pixels.subarray((y0 + y) * picture.stride + x0, (y0 + y) * picture.stride + x1), head.length + y * width);
  return out;
}
