// The page, slide and sheet limits of the whole-document path, checked where
// a large document is planned into chunks: each chunk is held to the limit
// only over its own pages, so without this a 5,001-page PDF passed when it
// was large enough to be split and failed when it was not.
//
// pdf.ts is not imported for its limit: it loads the PDF engine's bindings,
// which the aggregation functions that read this module have no use for.
// A unit test holds the two to the same number.

import { MAX_SLIDES } from './pptx.ts';
import { MAX_SHEETS } from './xls.ts';
import { ExtractionError } from './types.ts';

export const PLANNED_PDF_PAGES = 5000;

const LIMITS: Record<string, { max: number; what: (n: string) => string }> = {
  pdf: { max: PLANNED_PDF_PAGES, what: (n) => `The PDF has ${n} pages` },
  pptx: { max: MAX_SLIDES, what: (n) => `The presentation has ${n} slides` },
  ppt: { max: MAX_SLIDES, what: (n) => `The presentation has ${n} slides` },
  xls: { max: MAX_SHEETS, what: (n) => `The workbook has ${n} sheets` },
};

/** Throws the whole-document path's own error when a document of `format` has more of its units than it allows. */
export function checkUnitLimit(format: string, units: number): void {
  const limit = LIMITS[format];
  if (!limit || units <= limit.max) return;
  throw new ExtractionError('too_many_pages', `${limit.what(units.toLocaleString('en-US'))}; the limit is ${limit.max.toLocaleString('en-US')}.`);
}
