// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  csv: async (bytes, ctx) => (await import('./csv.ts')).extractDelimited(bytes, ctx, 'csv'),
  tsv: async (bytes, ctx) => (await import('./csv.ts')).extractDelimited(bytes, ctx, 'tsv'),
  rtf: async (bytes, ctx) => (await import('./rtf.ts')).extractRtf(bytes, ctx.config.output),
  text: async (bytes, ctx) => (await import('./plain.ts')).extractText(bytes, ctx, 'text'),
  markdown: async (bytes, ctx) => (await import('./plain.ts')).extractText(bytes, ctx, 'markdown'),
};
