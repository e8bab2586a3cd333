// A page of a document as a PNG for GET /v1/jobs/{id}/pages/{n}: a PDF's
// page drawn by PDFium, or the one-page PDF a format makes of its page
// (a TIFF's) drawn the same way. Runs in an extraction worker (pool.ts).

import { renderedPage } from './registry.ts';

/** The PNG of page `page` (from 1), `width` pixels wide, and the document's page count; png null for a page it does not have. */
export async function renderShownPage(bytes: Uint8Array, page: number, width: number): Promise<{ pages: number; png: Uint8Array | null }> {
  const { renderPageImage } = await import('../formats/pdf/page-image.ts');
  const shown = renderedPage(bytes, page);
  const drawn = shown.pdf ? await renderPageImage(shown.pdf, shown.page, width) : { pages: 0, png: null };
  return { pages: shown.pages ?? drawn.pages, png: drawn.png };
}
