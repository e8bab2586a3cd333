// A page read by OCR as the words a text layer gives: tesseract's lines and
// words, from the rendered page's pixels into the page's points (y up, as
// PDFium's boxes are), each boxed from its line's baseline by the line's row
// height, as a font's ascent and descent box a glyph. The scan's lines,
// blocks, headings, lists and tables are then found by the rules a text PDF's
// are. Tesseract's LSTM model reads no weight or font: a line is bold when
// its strokes are (in the page's picture, its dark runs across a row are
// much wider than the body's), and no line is fixed-pitch.

import type { OcrLine } from '../../engine/ocr.ts';
import type { GrayImage } from './image-rulings.ts';
import { STARTS_LOWER } from '../../engine/letters.ts';
import { bulletBefore, DARK } from './ocr-bullets.ts';
import type { OcrMark } from './ocr-marks.ts';
import { isRtl } from './script.ts';
import type { Word } from './words.ts';

/** A letter and a hyphen at the end of a line's last word: the word goes on below. */
const LETTER_HYPHEN_END = /\p{L}-$/u;
/** A line's strokes this many times as wide as the body's are bold (bold faces run 1.5 to 2 times a regular stem). */
const BOLD_STROKE = 1.4;
/** Fewer dark runs than this say too little about a line's weight. */
const MIN_RUNS = 30;

/** What tesseract reads a round bullet as (• most often as "e"). */
const BULLET_READINGS = /^[eo©®«»*+¢°•·@]$/u;

/** Row heights within this share of the page's usual one are the body's: OCR measures one font a pixel or two apart from line to line. */
const SAME_SIZE = 0.12;

/**
 * `picture`: the page as OCR read it, whose strokes tell bold lines; without it no line is bold. `numbers`: the
 * numbers read again before lines whose list numbers the page's reading lost (ocr-marks.ts).
 */
export function ocrWords(lines: readonly OcrLine[], pixelsPerPoint: number, pageHeight: number, picture?: GrayImage, numbers?: ReadonlyMap<OcrLine, OcrMark>): Word[] {
  const usual = usualRowHeight(lines);
  const bold = picture ? boldLines(lines, picture) : new Set<OcrLine>();
  const words: Word[] = [];
  for (const line of lines) {
    const rowHeight = Math.abs(line.rowHeight - usual) <= SAME_SIZE * usual ? usual : line.rowHeight;
    const [bx0, by0, bx1, by1] = line.baseline;
    const slope = bx1 > bx0 ? (by1 - by0) / (bx1 - bx0) : 0;
    // A line that opens with a lone mark a tab away from its text opens a list item: the mark is a bullet, whatever tesseract took it for.
    const [first, second] = line.words;
    const number = numbers?.get(line);
    const misread = !number && first !== undefined && second !== undefined && BULLET_READINGS.test(first.text) && second.bbox[0] - first.bbox[2] >= 0.8 * rowHeight;
    // One it did not read at all is still in the picture.
    const unread = picture && first && !misread && !number ? bulletBefore(line, lines, picture, rowHeight) : null;
    const mark = number ?? (unread && { text: '•', bbox: unread });
    const marked = mark ? [mark, ...line.words] : line.words;
    marked.forEach((w, i) => {
      const text = i === 0 && misread ? '•' : w.text;
      // The baseline under the word's middle: a scan is rarely quite level.
      const foot = by0 + slope * ((w.bbox[0] + w.bbox[2]) / 2 - bx0) + line.descenders;
      const order = words.length;
      words.push({
        x0: w.bbox[0] / pixelsPerPoint,
        x1: w.bbox[2] / pixelsPerPoint,
        top: pageHeight - (foot - rowHeight) / pixelsPerPoint,
        bottom: pageHeight - foot / pixelsPerPoint,
        text,
        first: order,
        last: order,
        size: rowHeight / pixelsPerPoint,
        bold: bold.has(line),
        italic: false,
        mono: false,
        // A hyphen that ends a line splits a word, as PDFium reports it for a text layer.
        hyphen: i === marked.length - 1 && LETTER_HYPHEN_END.test(w.text),
        spaced: true,
        rtlChars: [...w.text].filter((c) => isRtl(c.codePointAt(0)!)).length,
        mcid: -1,
      });
    });
  }
  return words;
}

/** The row height most of the page's words are read at: the body's. */
function usualRowHeight(lines: readonly OcrLine[]): number {
  const weighted = lines.flatMap((l) => l.words.map(() => l.rowHeight)).sort((a, b) => a - b);
  return weighted[Math.floor(weighted.length / 2)] ?? 0;
}

/** Lines whose strokes are much wider than the page's usual stroke: the mean run of dark pixels across a row of their words. */
function boldLines(lines: readonly OcrLine[], picture: GrayImage): Set<OcrLine> {
  const strokes = lines.map((line) => ({ line, ...strokeOf(line, picture) }));
  // The usual stroke: the median of the dark runs' widths, each line weighted by its runs.
  const byWidth = strokes.filter((s) => s.runs > 0).sort((a, b) => a.width - b.width);
  let half = byWidth.reduce((n, s) => n + s.runs, 0) / 2;
  const usual = byWidth.find((s) => (half -= s.runs) <= 0)?.width ?? 0;
  // A line that opens in lower case carries on a sentence: a blurred or heavily inked scan's line, not a bold heading.
  const bold = (s: (typeof strokes)[number]) => usual > 0 && s.runs >= MIN_RUNS && s.width >= BOLD_STROKE * usual && !STARTS_LOWER.test(s.line.words[0]!.text);
  return new Set(strokes.filter(bold).map((s) => s.line));
}

function strokeOf(line: OcrLine, { pixels, width, height, stride }: GrayImage): { width: number; runs: number } {
  let dark = 0;
  let runs = 0;
  for (const word of line.words) {
    const [x0, y0, x1, y1] = word.bbox.map(Math.round) as [number, number, number, number];
    for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
      let inRun = false;
      for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) {
        if (pixels[y * stride + x]! < DARK) {
          dark++;
          if (!inRun) runs++;
          inRun = true;
        } else inRun = false;
      }
    }
  }
  return { width: runs > 0 ? dark / runs : 0, runs };
}
