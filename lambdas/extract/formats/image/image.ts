// Images (PNG, JPEG, TIFF): one page, read by OCR as a scanned PDF page is
// where a PDF can hold the picture as it is, else as tesseract's paragraphs.
// The dimensions are read from the header first, so an image that would
// decode to gigabytes is refused before any decoding.

import { MAX_OCR_PIXELS, ocrImage, ocrPage } from '../../engine/ocr.ts';
import { ExtractionError, type BBox, type DraftElement, type ExtractionResult, type FormatContext, type FormatOutput } from '../../engine/types.ts';
import { pictureAsPdf, pointsPerPixel } from './as-page.ts';
import { imageSize, jpegOrientation } from './header.ts';

export async function extractImage(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const config = ctx.config;
  if (config.ocr === 'never') {
    throw new ExtractionError('unsupported_format', 'An image has no text layer and config.ocr is "never": allow OCR ("auto" or "always") to read it.');
  }
  const size = imageSize(bytes);
  if (!size) throw new ExtractionError('corrupt_file', 'The image could not be read: its header is damaged or truncated.');
  if (size.width * size.height > MAX_OCR_PIXELS) {
    throw new ExtractionError(
      'refused_file',
      `Refused: the image is ${size.width} x ${size.height} pixels; the limit for OCR is ${MAX_OCR_PIXELS / 1e6} megapixels.`,
    );
  }
  const page = await asScannedPage(bytes, size, ctx);
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
  let read: ExtractionResult;
  try {
    read = await ctx.sub({ bytes: pdf, filename: 'picture.pdf', contentType: 'application/pdf', config: { ...ctx.config, ocr: 'always', pages: null } });
  } catch {
    return null;
  }
  const toPixels = 1 / pointsPerPixel(size);
  // Element offsets count code points; a format's drafts count UTF-16 units of its page's text.
  const unitsAt = [0];
  for (const ch of read.content) unitsAt.push(unitsAt.at(-1)! + ch.length);
  const units = (cp: number) => unitsAt[cp]!;
  const elements: DraftElement[] = (read.elements ?? []).map((e) => ({
    type: e.type,
    start: units(e.char_start),
    end: units(e.char_end),
    page: 0,
    ...(e.bbox ? { bbox: e.bbox.map((v) => Math.round(v * toPixels * 100) / 100) as BBox } : {}),
    ...(e.level !== undefined ? { level: e.level } : {}),
    ...(e.ordered !== undefined ? { ordered: e.ordered } : {}),
    ...(e.table !== undefined ? { table: e.table } : {}),
    text: e.text,
  }));
  return { pages: [read.content], pageSeparator: '', elements, tables: read.tables, metadata: { ocr_pages: [1], page_sizes: [{ page: 1, ...shown }] } };
}

/** Quarter turns clockwise for the Exif orientations that only turn: 3 half a turn, 6 a quarter, 8 three quarters. */
const EXIF_TURNS: Record<number, number> = { 3: 2, 6: 1, 8: 3 };
