// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  docx: async (bytes, ctx) => (await import('./docx.ts')).extractDocx(bytes, ctx.config.output, ctx.budget, ctx.config.comments),
  xlsx: async (bytes, ctx) =>
    ctx.pagePart
      ? (await import('./sheet-parts.ts')).extractSheetPart(bytes, ctx.config.output, ctx.budget, ctx.pagePart)
      : (await import('./xlsx.ts')).extractXlsx(bytes, ctx.config.output, ctx.budget, ctx.config.pages),
  pptx: async (bytes, ctx) => (await import('./pptx.ts')).extractPptx(bytes, ctx.config.output, ctx.budget, ctx.config.pages),
};
