// The page, slide, sheet and cell limits, one check for both paths: a format
// reading a whole document refuses one over its limit before reading any of
// it, and a large document is checked where it is planned into chunks, since
// each chunk is held to the limit only over its own pages (without that a
// 5,001-page PDF passed when it was large enough to be split and failed when
// it was not). Each format's descriptor names its limit; this module loads no
// format's reader, so the functions that only plan and aggregate can read it.

import { isZip, type InflateBudget } from '../containers/zip.ts';
import type { ReadLimit, UnitLimit } from './format.ts';
import { ExtractionError } from './types.ts';

// What to do with a document over its format's read limit (format.ts ReadLimit); the limits are
// in the descriptors, as `npm run bench:memory` measured them.
export const DOCUMENT_ADVICE = 'Split the document, or save it as PDF (which is read in parts), and submit the parts.';
export const WORKBOOK_ADVICE = 'Save its largest sheets as CSV (which is read in parts) or split the workbook, and submit again.';
export const PRESENTATION_ADVICE = 'Split the presentation, or save it as PDF (which is read in parts), and submit again.';
export const MAIL_ADVICE = 'Submit its attachments as documents of their own.';
export const ARCHIVE_ADVICE = 'Submit the documents in the archive one by one.';

/** Larger PDFs are refused before any text is extracted. */
export const MAX_PDF_PAGES = 5000;
/** Larger presentations are refused before any slide is read (the PDF page limit). */
export const MAX_SLIDES = 5000;
/** Sheets in one legacy workbook; larger ones are refused before any sheet is read (the PDF page limit). */
export const MAX_SHEETS = 5000;
/** Cells in one workbook or spreadsheet, counted as they are read, and over a large one's chunks when they are merged. */
export const MAX_CELLS = 2_000_000;
/**
 * Cells one chunk of a large workbook reads: a sheet with more is cut into
 * runs of its rows (page-parts.ts), and smaller sheets go together up to it.
 * A chunk's result is about 70 bytes of JSON a cell, so a chunk stays near
 * 7 MB of JSON whatever the sheet's size.
 */
export const CELLS_PER_CHUNK = 100_000;
/**
 * Text one chunk of a large sheet reads, estimated from the sheet's XML (and
 * the shared strings its cells point to): cells of long text are few for
 * their size, and a chunk's result is about three times its text.
 */
export const TEXT_BYTES_PER_CHUNK = 4_000_000;

export const PDF_PAGE_LIMIT: UnitLimit = { max: MAX_PDF_PAGES, says: (n) => `The PDF has ${n} pages` };
export const SLIDE_LIMIT: UnitLimit = { max: MAX_SLIDES, says: (n) => `The presentation has ${n} slides` };
export const SHEET_LIMIT: UnitLimit = { max: MAX_SHEETS, says: (n) => `The workbook has ${n} sheets` };

/** Throws `too_many_pages` when a document has more of its units than its format's limit allows. */
export function checkUnitLimit(limit: UnitLimit | undefined, units: number): void {
  if (!limit || units <= limit.max) return;
  throw new ExtractionError('too_many_pages', `${limit.says(units.toLocaleString('en-US'))}; the limit is ${limit.max.toLocaleString('en-US')}.`);
}

/** Why a workbook (`what`: "workbook", "spreadsheet") over MAX_CELLS is refused. */
export function cellLimitMessage(what: string): string {
  const limit = MAX_CELLS.toLocaleString('en-US');
  return `The ${what} has more than ${limit} cells; the limit is ${limit}.`;
}

export const tooManyCells = (what: string) => new ExtractionError('too_many_pages', cellLimitMessage(what));

const mb = (n: number) => `${Math.round(n / 1e6).toLocaleString('en-US')} MB`;

/**
 * Holds a document to its format's read limit: a flat file over it is refused
 * now; a ZIP package's inflate budget is lowered to it, so the read stops
 * with this message when its parts inflate past it.
 */
export function checkReadLimit(format: string, limit: ReadLimit | undefined, bytes: Uint8Array, budget: InflateBudget): void {
  if (!limit) return;
  const name = format.toUpperCase();
  if (isZip(bytes)) {
    if (budget.remaining <= limit.bytes) return;
    budget.remaining = limit.bytes;
    budget.exceeded = () => new ExtractionError('out_of_memory', `This ${name}'s parts inflate past ${mb(limit.bytes)}, more than an extraction worker's memory holds while reading them. ${limit.advice}`);
    return;
  }
  const refusal = flatReadRefusal(format, limit, bytes);
  if (refusal) throw new ExtractionError('out_of_memory', refusal);
}

/**
 * Why a document that is not a ZIP package is over its format's read limit,
 * or null. Its size alone says so, so page counting refuses it as soon as it
 * arrives (page-count.ts), and the extraction would refuse it the same way.
 */
export function flatReadRefusal(format: string, limit: ReadLimit | undefined, bytes: Uint8Array): string | null {
  if (!limit || bytes.byteLength <= limit.bytes || isZip(bytes)) return null;
  const name = format.toUpperCase();
  return `This ${name} is ${mb(bytes.byteLength)}; ${name} files are read whole, and the largest an extraction worker's memory holds is ${mb(limit.bytes)}. ${limit.advice}`;
}
