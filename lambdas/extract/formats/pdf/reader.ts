// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  pdf: async (bytes, ctx) => (await import('./extract.ts')).extractPdf(bytes, { pages: ctx.config.pages, ocr: ctx.config.ocr, output: ctx.config.output, helpers: ctx.helpers, progress: ctx.progress }),
};
