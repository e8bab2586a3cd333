// The dispatcher's way to a format's reader: the readers of its family
// (formats/<family>/reader.ts, the family its descriptor names), imported on
// demand, so a worker loads PDFium only for PDFs and the HTML or e-mail
// parsers only for those. One template import() for every family: esbuild
// bundles all the modules it can match (formats/*/reader.ts) where this
// module is bundled, that is in the extraction workers only, and a new family
// needs no line here. Kept apart from the descriptors (format.ts says why).

import { descriptorOf, type Format } from './registry.ts';
import type { FormatContext, FormatOutput } from './types.ts';

export type FormatReader = (bytes: Uint8Array, ctx: FormatContext) => FormatOutput | Promise<FormatOutput>;

/** What a family's reader.ts exports as `readers`. */
export type FormatReaders = Partial<Record<Format, FormatReader>>;

/** The reader of `format`; a registered format without one is a mistake the registry test finds. */
export async function readerOf(format: Format): Promise<FormatReader> {
  const { family } = descriptorOf(format);
  const { readers } = (await import(`../formats/${family}/reader.ts`)) as { readers: FormatReaders };
  const reader = readers[format];
  if (!reader) throw new Error(`formats/${family}/reader.ts has no reader for ${format}`);
  return reader;
}
