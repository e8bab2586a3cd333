// The page, slide and sheet limits, one check for both paths: a format reading
// a whole document refuses one over its limit before reading any of it, and
// a large document is checked where it is planned into chunks, since each
// chunk is held to the limit only over its own pages (without that a
// 5,001-page PDF passed when it was large enough to be split and failed when
// it was not). This module loads no format's reader, so the functions that
// only plan and aggregate can read it.

import { ExtractionError } from './types.ts';

/** Larger PDFs are refused before any text is extracted. */
export const MAX_PDF_PAGES = 5000;
/** Larger presentations are refused before any slide is read (the PDF page limit). */
export const MAX_SLIDES = 5000;
/** Sheets in one legacy workbook; larger ones are refused before any sheet is read (the PDF page limit). */
export const MAX_SHEETS = 5000;

const LIMITS: Record<string, { max: number; what: (n: string) => string }> = {
  pdf: { max: MAX_PDF_PAGES, what: (n) => `The PDF has ${n} pages` },
  pptx: { max: MAX_SLIDES, what: (n) => `The presentation has ${n} slides` },
  ppt: { max: MAX_SLIDES, what: (n) => `The presentation has ${n} slides` },
  xls: { max: MAX_SHEETS, what: (n) => `The workbook has ${n} sheets` },
};

/** Throws `too_many_pages` when a document of `format` has more of its units than it allows. */
export function checkUnitLimit(format: string, units: number): void {
  const limit = LIMITS[format];
  if (!limit || units <= limit.max) return;
  throw new ExtractionError('too_many_pages', `${limit.what(units.toLocaleString('en-US'))}; the limit is ${limit.max.toLocaleString('en-US')}.`);
}
