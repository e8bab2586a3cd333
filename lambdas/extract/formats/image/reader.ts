// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  png: async (bytes, ctx) => (await import('./image.ts')).extractImage(bytes, ctx),
  jpeg: async (bytes, ctx) => (await import('./image.ts')).extractImage(bytes, ctx),
  tiff: async (bytes, ctx) => (await import('./image.ts')).extractImage(bytes, ctx),
};
