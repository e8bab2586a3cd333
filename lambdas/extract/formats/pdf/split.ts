// Splitting a large PDF into one small PDF per chunk, so that each chunk
// worker downloads and parses only its own pages (DESIGN.md section 4). The
// alternative, ranged reads of the whole file, needs the engine to ask for
// bytes synchronously, which a WebAssembly build cannot do over the network.

import { withDocument } from './extract.ts';
import { loadPdfium, withBuffer, type Pdfium } from './pdfium.ts';
import { ExtractionError } from '../../engine/types.ts';

/**
 * One PDF per list of 1-based page numbers, holding those pages in order
 * (with their resources: fonts, images; nothing else of the document), or
 * null for a list whose pages PDFium cannot copy (damaged pages: the chunk
 * worker then reads them from the whole document and reports them).
 */
export async function splitPdf(bytes: Uint8Array, pageLists: number[][]): Promise<Array<Uint8Array | null>> {
  const m = await loadPdfium();
  return withDocument(m, bytes, async (source) => pageLists.map((pages) => extractPages(m, source, pages)));
}

function extractPages(m: Pdfium, source: number, pages: number[]): Uint8Array | null {
  const target = m.FPDF_CreateNewDocument();
  if (!target) throw new ExtractionError('out_of_memory', 'The PDF could not be split: no memory for a new document.');
  try {
    // FPDF_ImportPagesByIndex takes an int array of 0-based indexes.
    const imported = withBuffer(m, pages.length * 4, (indexes) => {
      m.pdfium.HEAP32.set(
        pages.map((n) => n - 1),
        indexes >> 2,
      );
      return m.FPDF_ImportPagesByIndex(target, source, indexes, pages.length, 0);
    });
    if (!imported || m.FPDF_GetPageCount(target) !== pages.length) return null;
    return save(m, target);
  } finally {
    m.FPDF_CloseDocument(target);
  }
}

function save(m: Pdfium, doc: number): Uint8Array {
  const writer = m.PDFiumExt_OpenFileWriter();
  try {
    if (!m.PDFiumExt_SaveAsCopy(doc, writer)) throw new ExtractionError('corrupt_file', 'The PDF could not be split: a part could not be written.');
    const size = m.PDFiumExt_GetFileWriterSize(writer);
    return withBuffer(m, size, (buf) => {
      m.PDFiumExt_GetFileWriterData(writer, buf, size);
      return m.pdfium.HEAPU8.slice(buf, buf + size);
    });
  } finally {
    m.PDFiumExt_CloseFileWriter(writer);
  }
}
