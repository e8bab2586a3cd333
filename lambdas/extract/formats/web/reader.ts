// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  epub: async (bytes, ctx) => (await import('./epub.ts')).extractEpub(bytes, ctx.config.output, ctx.budget),
  html: async (bytes, ctx) => (await import('./html.ts')).extractHtml(bytes, ctx.config.output),
  xml: async (bytes, ctx) => (await import('./xml.ts')).extractXml(bytes, ctx.config.output),
};
