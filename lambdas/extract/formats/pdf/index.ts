// PDF: recognised by its header, counted from its page tree, split by
// cutting it into one small PDF per chunk. The reader (extract.ts) loads
// PDFium; nothing here does.

import type { FormatDescriptor } from '../../engine/format.ts';
import { PDF_PAGE_LIMIT } from '../../engine/limits.ts';
import { countPdfPages } from './page-count.ts';

export const pdf: FormatDescriptor<'pdf'> = {
  name: 'pdf',
  family: 'pdf',
  mime_type: 'application/pdf',
  unit: 'page',
  // Acrobat accepts the header anywhere in the first 1024 bytes.
  signature: { header: { pattern: /%PDF-\d\.\d/, window: 1024 } },
  countPages: (doc) => countPdfPages(doc.bytes, doc.meter),
  limit: PDF_PAGE_LIMIT,
  split: { chunks: 'cut', separator: '\n\n', joinTablesAtSeams: true },
  view: 'render',
};
