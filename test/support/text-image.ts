// Images of known text for OCR tests, drawn by PDFium from a one-page PDF in
// Helvetica, so the test knows exactly what the picture says.

import { withDocument, renderPage } from '../../lambdas/extract/formats/pdf/extract.ts';
import { loadPdfium } from '../../lambdas/extract/formats/pdf/pdfium.ts';
import { assemblePdf, pdfString } from './pdf-fixture.ts';
import { pictureXObject } from '../../lambdas/extract/formats/image/as-page.ts';

/** `text` in 32-point Helvetica, black on white, as a grayscale PNG (about 1,250 x 280 pixels). */
export async function textImagePng(text: string): Promise<Uint8Array> {
  const pdf = assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 450 100] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    streamObject(`BT /F1 32 Tf 15 40 Td ${pdfString(text)} Tj ET`),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]);
  const m = await loadPdfium();
  return withDocument(m, pdf, async (doc) => {
    const page = m.FPDF_LoadPage(doc, 0);
    try {
      return renderPage(m, page);
    } finally {
      m.FPDF_ClosePage(page);
    }
  });
}

/** Each page of `pdf` as a grayscale PNG, as the reader renders pages for OCR, with the page's size in points. */
export async function pageImages(pdf: Uint8Array): Promise<Array<{ png: Uint8Array; width: number; height: number }>> {
  const m = await loadPdfium();
  return withDocument(m, pdf, async (doc) =>
    Array.from({ length: m.FPDF_GetPageCount(doc) }, (_, i) => {
      const page = m.FPDF_LoadPage(doc, i);
      try {
        return { png: renderPage(m, page), width: m.FPDF_GetPageWidthF(page), height: m.FPDF_GetPageHeightF(page) };
      } finally {
        m.FPDF_ClosePage(page);
      }
    }),
  );
}

/** `pdf` as a scanner would give it back: each page a picture, with no text layer. */
export async function scanOf(pdf: Uint8Array): Promise<Uint8Array> {
  return scannedPages(await pageImages(pdf));
}

/**
 * A one-page PDF whose only content is `png` (8-bit grayscale, as
 * textImagePng makes) as an image filling a page of `size` points: a scan,
 * with no text layer.
 */
export function scannedPdf(png: Uint8Array, size = { width: 450, height: 100 }): Uint8Array {
  return scannedPages([{ png, ...size }]);
}

/** A PDF of one scanned page per picture (a grey PNG, as PDFium renders pages), each filling a page of its size in points. */
export function scannedPages(pages: ReadonlyArray<{ png: Uint8Array; width: number; height: number }>): Uint8Array {
  // Objects: 1 catalog, 2 page tree, then per page its page, content stream and image.
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${pages.map((_, i) => `${3 + 3 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`];
  pages.forEach(({ png, width: w, height: h }, i) => {
    const at = 3 + 3 * i;
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    const image = pictureXObject(png, { width: view.getUint32(16), height: view.getUint32(20) })!;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${at + 2} 0 R >> >> /Contents ${at + 1} 0 R >>`,
      streamObject(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`),
      `${image.dictionary} /Length ${image.data.length} >>\nstream\n${image.data}\nendstream`,
    );
  });
  return assemblePdf(objects);
}

function streamObject(content: string): string {
  return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
}
