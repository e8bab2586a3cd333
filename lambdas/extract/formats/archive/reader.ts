// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  zip: async (bytes, ctx) => (await import('./archive.ts')).extractArchive(bytes, ctx),
  tar: async (bytes, ctx) => (await import('./archive.ts')).extractArchive(bytes, ctx),
  gzip: async (bytes, ctx) => (await import('./archive.ts')).extractGzip(bytes, ctx),
};
