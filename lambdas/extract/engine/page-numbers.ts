// A chunk of a large PDF is extracted from a PDF of its own pages only
// (formats/pdf/split.ts), which numbers them from 1. Its result has to speak of the
// pages of the document the user sent, or the merged result would not.

import type { ExtractionResult } from './types.ts';

/**
 * `result`, read from a document whose page n is page `numbers[n - 1]` of a
 * document of `total` pages, in that document's page numbers.
 */
export function inOriginalPages(result: ExtractionResult, numbers: readonly number[], total: number): ExtractionResult {
  const original = (n: number) => {
    const mapped = numbers[n - 1];
    if (mapped === undefined) throw new RangeError(`page ${n} is beyond the ${numbers.length} pages this part holds`);
    return mapped;
  };
  return {
    ...result,
    metadata: {
      ...result.metadata,
      pages_total: total,
      ocr_pages: result.metadata.ocr_pages.map(original),
      ...(result.metadata.page_sizes ? { page_sizes: result.metadata.page_sizes.map((s) => ({ ...s, page: original(s.page) })) } : {}),
    },
    tables: result.tables.map((t) => (t.page === undefined ? t : { ...t, page: original(t.page) })),
    chunks: result.chunks.map((c) => ({
      ...c,
      page_start: original(c.page_start),
      page_end: original(c.page_end),
      ...(c.boxes ? { boxes: c.boxes.map((b) => ({ ...b, page: original(b.page) })) } : {}),
    })),
    ...(result.elements ? { elements: result.elements.map((e) => ({ ...e, page: original(e.page) })) } : {}),
  };
}
