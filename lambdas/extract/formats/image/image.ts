// Images (PNG, JPEG, TIFF): read by OCR as a scanned PDF page is where a PDF
// can hold the picture (a TIFF page by page), else as tesseract's paragraphs
// of its first picture.
// The dimensions are read from the header first, so an image that would
// decode to gigabytes is refused before any decoding.

import { MAX_OCR_PIXELS, ocrImage, ocrPage } from '../../engine/ocr.ts';
import { ExtractionError, type BBox, type DraftElement, type ExtractionResult, type FormatContext, type FormatOutput, type Table } from '../../engine/types.ts';
import { pictureAsPdf, pointsPerPixel } from './as-page.ts';
import { imageSize, jpegOrientation } from './header.ts';
import { countTiffPages, TIFF_PAGE_LIMIT, tiffPages, tiffSizes } from './tiff.ts';
import { checkUnitLimit } from '../../engine/limits.ts';

export async function extractImage(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const config = ctx.config;
  if (config.ocr === 'never') {
    throw new ExtractionError('unsupported_format', 'An image has no text layer and config.ocr is "never": allow OCR ("auto" or "always") to read it.');
  }
  const size = imageSize(bytes);
  if (!size) throw new ExtractionError('corrupt_file', 'The image could not be read: its header is damaged or truncated.');
  const tiff = bytes[0] === 0x49 || bytes[0] === 0x4d;
  if (tiff) checkUnitLimit(TIFF_PAGE_LIMIT, countTiffPages(bytes));
  for (const [i, s] of (tiff ? tiffSizes(bytes) : [size]).entries()) {
    if (s.width * s.height > MAX_OCR_PIXELS) {
      const which = tiff ? `page ${i + 1} of the image` : 'the image';
      throw new ExtractionError('refused_file', `Refused: ${which} is ${s.width} x ${s.height} pixels; the limit for OCR is ${MAX_OCR_PIXELS / 1e6} megapixels.`);
    }
  }
  const page = tiff ? await asScannedTiff(bytes, ctx) : await asScannedPage(bytes, size, ctx);
  if (page) return page;
  let read: Awaited<ReturnType<typeof ocrImage>>;
  try {
    read = await ocrImage(bytes);
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw new ExtractionError('corrupt_file', `The image could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Tesseract's paragraphs are the page's blocks; boxes are in the image's pixels, taken as points.
  const { text, elements } = read.paragraphs.length > 0 ? ocrPage(read.paragraphs, 1) : { text: read.text, elements: undefined };
  return { pages: [text], pageSeparator: '', elements, metadata: { ocr_pages: [1], page_sizes: [{ page: 1, ...size }] } };
}

/**
 * The picture read as a scanned PDF page is (as-page.ts), for its headings, lists and tables: its
 * content, elements with boxes back in the picture's pixels, and tables. Null for a picture a PDF
 * cannot hold as it is, or a document nested too deep to read one more level.
 */
async function asScannedPage(bytes: Uint8Array, size: { width: number; height: number }, ctx: FormatContext): Promise<FormatOutput | null> {
  // A JPEG taken on its side says how to turn it to be shown (a mirrored picture's text is no text to read).
  const turn = bytes[0] === 0xff && bytes[1] === 0xd8 ? (EXIF_TURNS[jpegOrientation(bytes)] ?? 0) : 0;
  const pdf = pictureAsPdf(bytes, size, turn);
  if (!pdf) return null;
  const shown = turn % 2 ? { width: size.height, height: size.width } : size;
  const toPixels = 1 / pointsPerPixel(size);
  const read = await scannedPage(pdf, { x: toPixels, y: toPixels }, 0, ctx);
  return read && { pages: [read.text], pageSeparator: '', elements: read.elements, tables: read.tables, metadata: { ocr_pages: [1], page_sizes: [{ page: 1, ...shown }] } };
}

/** A TIFF's pages each read as a scanned page (tiff.ts); null where a page is stored in a way a PDF does not carry. */
async function asScannedTiff(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput | null> {
  const pages = tiffPages(bytes);
  if (!pages) return null;
  const out: FormatOutput & { elements: DraftElement[]; tables: Table[] } = { pages: [], pageSeparator: '\n\n', elements: [], tables: [], metadata: {} };
  for (const [i, page] of pages.entries()) {
    // Built page by page: a long TIFF's pages are never all held as PDFs at once.
    const pdf = page.pdf();
    const read = pdf && (await scannedPage(pdf, { x: page.width / page.points.width, y: page.height / page.points.height }, i, ctx));
    if (!read) return null;
    out.pages.push(read.text);
    // Each page is read alone, so each may find a title: the document's is the first, a later one is a heading.
    const titled = out.elements.some((e) => e.type === 'title');
    const elements = read.elements.map((e) => (titled && e.type === 'title' ? { ...e, type: 'heading' as const, level: 1 } : e));
    // A page's tables are numbered after the pages before it.
    out.elements.push(...elements.map((e) => (e.table === undefined ? e : { ...e, table: e.table + out.tables.length })));
    out.tables.push(...read.tables.map((t) => ({ ...t, page: i + 1 })));
  }
  out.metadata = { ocr_pages: pages.map((_, i) => i + 1), page_sizes: pages.map((p, i) => ({ page: i + 1, width: p.width, height: p.height })) };
  return out;
}

/**
 * A one-page PDF of a picture read by OCR and laid out as a scan: its text, its elements on page `page` with
 * boxes back in the picture's pixels (`toPixels` per point, across and down), its tables.
 */
async function scannedPage(pdf: Uint8Array, toPixels: { x: number; y: number }, page: number, ctx: FormatContext): Promise<{ text: string; elements: DraftElement[]; tables: Table[] } | null> {
  let read: ExtractionResult;
  try {
    read = await ctx.sub({ bytes: pdf, filename: 'picture.pdf', contentType: 'application/pdf', config: { ...ctx.config, ocr: 'always', pages: null } });
  } catch {
    return null;
  }
  // Element offsets count code points; a format's drafts count UTF-16 units of its page's text.
  const unitsAt = [0];
  for (const ch of read.content) unitsAt.push(unitsAt.at(-1)! + ch.length);
  const units = (cp: number) => unitsAt[cp]!;
  const round = (v: number) => Math.round(v * 100) / 100;
  const elements: DraftElement[] = (read.elements ?? []).map((e) => ({
    type: e.type,
    start: units(e.char_start),
    end: units(e.char_end),
    page,
    ...(e.bbox ? { bbox: [round(e.bbox[0] * toPixels.x), round(e.bbox[1] * toPixels.y), round(e.bbox[2] * toPixels.x), round(e.bbox[3] * toPixels.y)] as BBox } : {}),
    ...(e.level !== undefined ? { level: e.level } : {}),
    ...(e.ordered !== undefined ? { ordered: e.ordered } : {}),
    ...(e.table !== undefined ? { table: e.table } : {}),
    text: e.text,
  }));
  return { text: read.content, elements, tables: read.tables };
}

/** Quarter turns clockwise for the Exif orientations that only turn: 3 half a turn, 6 a quarter, 8 three quarters. */
const EXIF_TURNS: Record<number, number> = { 3: 2, 6: 1, 8: 3 };
