// This family's readers, by format name. engine/readers.ts imports this module
// when a document of the family is read (only the extraction workers do),
// and each reader imports its parser on first use.

import type { FormatReaders } from '../../engine/readers.ts';

export const readers: FormatReaders = {
  eml: async (bytes, ctx) => (await import('./eml.ts')).extractEml(bytes, ctx),
  mbox: async (bytes, ctx) => (await import('./mbox.ts')).extractMbox(bytes, ctx),
  msg: async (bytes, ctx) => (await import('./msg.ts')).extractMsg(bytes, ctx),
};
