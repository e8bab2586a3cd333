// A page of a PDF as a colour PNG, for people to look at (the playground's
// page view): PDFium renders it at the width asked for, the page's own
// proportions kept. Runs in an extraction worker (pool.ts), never on a
// thread that answers requests.

import { crc32, deflateSync } from 'node:zlib';
import { withDocument } from './extract.ts';
import { loadPdfium } from './pdfium.ts';
import { ExtractionError } from '../../engine/types.ts';

/** Pixels of the widest image asked for, and of the tallest page (a page 10 x its width is clamped here). */
export const PAGE_IMAGE_MAX_WIDTH = 2000;
const MAX_PIXELS = 16_000_000;

/** The PNG of page `page` (from 1) `width` pixels wide, and the document's page count; png is null for a page the document does not have. */
export async function renderPageImage(bytes: Uint8Array, page: number, width: number): Promise<{ pages: number; png: Uint8Array | null }> {
  const m = await loadPdfium();
  return withDocument(m, bytes, async (doc) => {
    const pages = m.FPDF_GetPageCount(doc);
    if (!Number.isInteger(page) || page < 1 || page > pages) return { pages, png: null };
    const handle = m.FPDF_LoadPage(doc, page - 1);
    if (!handle) throw new ExtractionError('corrupt_file', `Page ${page} could not be read.`);
    try {
      const widthPt = Math.max(1, m.FPDF_GetPageWidthF(handle));
      const heightPt = Math.max(1, m.FPDF_GetPageHeightF(handle));
      let w = Math.max(1, Math.min(PAGE_IMAGE_MAX_WIDTH, Math.round(width)));
      let h = Math.max(1, Math.round((w * heightPt) / widthPt));
      if (w * h > MAX_PIXELS) {
        const shrink = Math.sqrt(MAX_PIXELS / (w * h));
        w = Math.max(1, Math.floor(w * shrink));
        h = Math.max(1, Math.floor(h * shrink));
      }
      // Format 4: BGRA, 4 bytes a pixel.
      const bitmap = m.FPDFBitmap_CreateEx(w, h, 4, 0, 0);
      if (!bitmap) throw new ExtractionError('out_of_memory', `A page of ${w} x ${h} pixels could not be rendered.`);
      try {
        m.FPDFBitmap_FillRect(bitmap, 0, 0, w, h, 0xffffffff);
        // FPDF_ANNOT (0x01) | FPDF_LCD_TEXT (0x02): what a reader sees, with sharp text.
        m.FPDF_RenderPageBitmap(bitmap, handle, 0, 0, w, h, 0, 0x01 | 0x02);
        const stride = m.FPDFBitmap_GetStride(bitmap);
        const start = m.FPDFBitmap_GetBuffer(bitmap);
        return { pages, png: encodeRgbPng(m.pdfium.HEAPU8.subarray(start, start + stride * h), w, h, stride) };
      } finally {
        m.FPDFBitmap_Destroy(bitmap);
      }
    } finally {
      m.FPDF_ClosePage(handle);
    }
  });
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.byteLength, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0);
  return Buffer.concat([head, data, crc]);
}

/** BGRA rows (`stride` bytes apart) as an 8-bit RGB PNG. */
export function encodeRgbPng(bgra: Uint8Array, width: number, height: number, stride: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2; // truecolour
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    let to = y * row + 1;
    for (let x = 0; x < width; x++, to += 3) {
      const p = from + x * 4;
      raw[to] = bgra[p + 2]!;
      raw[to + 1] = bgra[p + 1]!;
      raw[to + 2] = bgra[p]!;
    }
  }
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  // A copy with a buffer of its own, which the worker can transfer (Buffer.concat may answer a view of Node's shared pool).
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0))]));
}
