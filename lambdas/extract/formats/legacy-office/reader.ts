// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

const embedded = async () => (await import('../../engine/embedded.ts')).withEmbedded;

export const readers: FormatReaders = {
  doc: async (bytes, ctx) => (await import('./doc.ts')).extractDoc(bytes, ctx),
  xls: async (bytes, ctx) => {
    const { extractXls, workbookObjects } = await import('./xls.ts');
    return (await embedded())(extractXls(bytes, ctx.config.output, ctx.config.pages), () => workbookObjects(bytes), ctx);
  },
  ppt: async (bytes, ctx) => {
    const [{ extractPpt }, { presentationObjects }] = await Promise.all([import('./ppt.ts'), import('./ppt-objects.ts')]);
    return (await embedded())(extractPpt(bytes, ctx.config.output, ctx.config.pages), () => presentationObjects(bytes, ctx.budget), ctx);
  },
};
