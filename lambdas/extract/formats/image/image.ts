// Images (PNG, JPEG, TIFF): one page, its text read by OCR. The dimensions
// are read from the header first, so an image that would decode to gigabytes
// is refused before any decoding.

import { MAX_OCR_PIXELS, ocrImage, ocrPage } from '../../engine/ocr.ts';
import { ExtractionError, type BBox, type DraftElement, type ExtractionResult, type FormatContext, type FormatOutput } from '../../engine/types.ts';
import { pictureAsPdf, pointsPerPixel } from './as-page.ts';

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
  const pdf = pictureAsPdf(bytes, size);
  if (!pdf) return null;
  let read: ExtractionResult;
  try {
    read = await ctx.sub({ bytes: pdf, filename: 'picture.pdf', contentType: 'application/pdf', config: { ...ctx.config, ocr: 'always', pages: null } });
  } catch {
    return null;
  }
  const toPixels = 1 / pointsPerPixel(size);
  // Element offsets count code points; a format's drafts count UTF-16 units of its page's text.
  const units = (cp: number) => [...read.content].slice(0, cp).join('').length;
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
  return { pages: [read.content], pageSeparator: '', elements, tables: read.tables, metadata: { ocr_pages: [1], page_sizes: [{ page: 1, ...size }] } };
}

/** Width and height from a PNG, JPEG or TIFF header; null when the header cannot be read. */
export function imageSize(b: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b[0] === 0x89 && b[1] === 0x50) {
    if (b.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    let p = 2;
    while (p + 9 < b.length) {
      if (b[p] !== 0xff) return null;
      const marker = b[p + 1]!;
      const length = view.getUint16(p + 2);
      // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the dimensions.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: view.getUint16(p + 5), width: view.getUint16(p + 7) };
      }
      p += 2 + length;
    }
    return null;
  }
  if ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) {
    const le = b[0] === 0x49;
    if (b.length < 8) return null;
    const ifd = view.getUint32(4, le);
    if (ifd + 2 > b.length) return null;
    const count = view.getUint16(ifd, le);
    let width = 0;
    let height = 0;
    for (let i = 0; i < count; i++) {
      const at = ifd + 2 + i * 12;
      if (at + 12 > b.length) return null;
      const tag = view.getUint16(at, le);
      const type = view.getUint16(at + 2, le);
      const value = type === 3 ? view.getUint16(at + 8, le) : view.getUint32(at + 8, le);
      if (tag === 256) width = value;
      if (tag === 257) height = value;
    }
    return width > 0 && height > 0 ? { width, height } : null;
  }
  return null;
}
