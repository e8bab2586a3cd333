// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  odt: async (bytes, ctx) => (await import('./odf.ts')).extractOdt(bytes, ctx.config.output, ctx.budget, ctx.config.comments),
  ods: async (bytes, ctx) => (await import('./odf.ts')).extractOds(bytes, ctx.config.output, ctx.budget, ctx.config.pages),
  odp: async (bytes, ctx) => (await import('./odp.ts')).extractOdp(bytes, ctx.config.output, ctx.budget, ctx.config.pages),
};
