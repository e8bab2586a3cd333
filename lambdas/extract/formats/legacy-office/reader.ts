// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  doc: async (bytes, ctx) => (await import('./doc.ts')).extractDoc(bytes, ctx),
  xls: async (bytes, ctx) => (await import('./xls.ts')).extractXls(bytes, ctx.config.output, ctx.config.pages),
  ppt: async (bytes, ctx) => (await import('./ppt.ts')).extractPpt(bytes, ctx.config.output, ctx.config.pages),
};
