// Whether a page's text layer can be read at all. Some fonts map their glyphs
// to the wrong characters: a subset font without a usable character map gives
// control codes or punctuation for letters, so the text layer of a page that
// shows plain prose reads as "! \" # $ % &" or nothing. Such a page is read
// from its picture, as a scan is (OCR "auto").

import { withBuffer, type Pdfium } from './pdfium.ts';

interface TextExports {
  FPDFText_GetText(textPage: number, start: number, count: number, buffer: number): number;
}

/** Characters a layer needs before it is judged: a page number or a short label says nothing either way. */
const MIN_JUDGED = 40;

/**
 * Fewer than half of the text layer's characters are letters or figures, the others control codes and
 * punctuation. Symbols (a dingbat font's glyphs, arrows, a symbol font's private-use bullets and boxes), spaces,
 * line ends and PDFium's line-end hyphen (U+0002) count for neither; a run of one mark (leader dots, a rule of
 * dashes, spaced or not) counts once.
 */
export function illegible(m: Pdfium, textPage: number, count: number): boolean {
  const x = m.pdfium.wasmExports as unknown as TextExports;
  // UTF-16 code units, and the terminating zero FPDFText_GetText writes.
  return withBuffer(m, 2 * (count + 1), (buffer) => {
    const units = x.FPDFText_GetText(textPage, 0, count, buffer);
    const text = new Uint16Array(m.pdfium.HEAPU16.buffer, buffer, Math.max(0, units - 1));
    let all = 0;
    let readable = 0;
    let last = -1;
    for (const unit of text) {
      if (unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d || unit === 0x02 || unit === 0xa0) continue;
      // Surrogates (letters past the first plane, mostly) and private-use characters are not judged.
      if ((unit >= 0xd800 && unit <= 0xdfff) || (unit >= 0xe000 && unit <= 0xf8ff)) continue;
      // ASCII by its code (most of the characters of most pages), the rest by its Unicode category.
      const ascii = unit < 0x80;
      const letter = (unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7a;
      if (ascii ? letter || (unit >= 0x30 && unit <= 0x39) : LETTER_OR_FIGURE.test(String.fromCharCode(unit))) {
        readable++;
        all++;
      } else if (unit !== last && (ascii || PUNCTUATION.test(String.fromCharCode(unit)))) all++;
      last = unit;
    }
    return all >= MIN_JUDGED && readable < all / 2;
  });
}

const LETTER_OR_FIGURE = /[\p{L}\p{N}]/u;
const PUNCTUATION = /\p{P}/u;
