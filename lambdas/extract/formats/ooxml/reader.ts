// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';
import type { FormatContext, FormatOutput } from '../../engine/types.ts';

/** The document's own output, then the documents inserted into it as objects (engine/embedded.ts). */
async function withObjects(bytes: Uint8Array, ctx: FormatContext, own: FormatOutput): Promise<FormatOutput> {
  const [{ withEmbedded }, { packageObjects }] = await Promise.all([import('../../engine/embedded.ts'), import('./package-objects.ts')]);
  return withEmbedded(own, () => packageObjects(bytes, ctx.budget), ctx);
}

export const readers: FormatReaders = {
  docx: async (bytes, ctx) => withObjects(bytes, ctx, (await import('./docx.ts')).extractDocx(bytes, ctx.config.output, ctx.budget, ctx.config.comments)),
  xlsx: async (bytes, ctx) =>
    ctx.pagePart
      ? (await import('./sheet-parts.ts')).extractSheetPart(bytes, ctx.config.output, ctx.budget, ctx.pagePart)
      : withObjects(bytes, ctx, (await import('./xlsx.ts')).extractXlsx(bytes, ctx.config.output, ctx.budget, ctx.config.pages)),
  pptx: async (bytes, ctx) => withObjects(bytes, ctx, (await import('./pptx.ts')).extractPptx(bytes, ctx.config.output, ctx.budget, ctx.config.pages)),
};
