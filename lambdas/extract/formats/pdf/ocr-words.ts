// A page read by OCR as the words a text layer gives: tesseract's lines and
// words, from the rendered page's pixels into the page's points (y up, as
// PDFium's boxes are), each boxed from its line's baseline by the line's row
// height, as a font's ascent and descent box a glyph. The scan's lines,
// blocks, headings, lists and tables are then found by the rules a text PDF's
// are; only weight and font are unknown (tesseract's LSTM model reads
// neither), so a heading stands out by its size or its numbering.

import type { OcrLine } from '../../engine/ocr.ts';
import { isRtl } from './script.ts';
import type { Word } from './words.ts';

/** What tesseract reads a round bullet as (• most often as "e"). */
const BULLET_READINGS = /^[eo©®«»*+¢°•·@]$/u;

/** Row heights within this share of the page's usual one are the body's: OCR measures one font a pixel or two apart from line to line. */
const SAME_SIZE = 0.12;

export function ocrWords(lines: readonly OcrLine[], pixelsPerPoint: number, pageHeight: number): Word[] {
  const usual = usualRowHeight(lines);
  const words: Word[] = [];
  for (const line of lines) {
    const rowHeight = Math.abs(line.rowHeight - usual) <= SAME_SIZE * usual ? usual : line.rowHeight;
    const [bx0, by0, bx1, by1] = line.baseline;
    const slope = bx1 > bx0 ? (by1 - by0) / (bx1 - bx0) : 0;
    line.words.forEach((w, i) => {
      // A line that opens with a lone mark a tab away from its text opens a list item: the mark is a bullet, whatever tesseract took it for.
      const next = line.words[i + 1];
      const text = i === 0 && next && BULLET_READINGS.test(w.text) && next.bbox[0] - w.bbox[2] >= 0.8 * rowHeight ? '•' : w.text;
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
        bold: false,
        italic: false,
        mono: false,
        // A hyphen that ends a line splits a word, as PDFium reports it for a text layer.
        hyphen: i === line.words.length - 1 && /\p{L}-$/u.test(w.text),
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
