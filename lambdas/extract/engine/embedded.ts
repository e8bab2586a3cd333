// Files embedded in a document as objects (containers/ole-objects.ts): each
// is read as a document of its own and follows the document's own pages as a
// section headed by its name, as an archive's members do. An object that is
// no document (a picture, a sound, an equation) or holds no text but headings
// (an empty sheet) is passed over; one that is a
// document but cannot be read is named in metadata.failed_sections. A page
// selection (config.pages, a chunk of a large document) reads the document's
// own pages alone.

import { Compound } from './compound.ts';
import { ExtractionError, type FormatContext, type FormatOutput } from './types.ts';
import type { EmbeddedFile } from '../containers/ole-objects.ts';

/** Outcomes that say the object holds nothing to read, not that reading it failed. */
const NOTHING_TO_READ = new Set(['unsupported_format', 'empty_file']);
/** Elements that name what follows: an object with nothing else holds nothing to read. */
const NAMES_ONLY = new Set(['title', 'heading', 'page_header', 'page_footer']);

export async function withEmbedded(own: FormatOutput, files: () => EmbeddedFile[], ctx: FormatContext): Promise<FormatOutput> {
  if (own.pagesSelected || own.pageRun || ctx.config.pages) return own;
  const found = files();
  if (found.length === 0) return own;
  const out = new Compound(ctx.config.output);
  // A flowing document's pages are cut from one text; a paged one's (slides, sheets) stand apart.
  if (own.pageSeparator === '') out.addFlow(own.pages.join(''), own.tables ?? [], own.elements ?? []);
  else out.addPages(own.pages, own.tables, own.elements);
  for (const [i, file] of found.entries()) {
    const name = `Embedded: ${file.name ?? `object ${i + 1}`}`;
    if (file.error) {
      out.fail(name, file.error);
      continue;
    }
    try {
      const result = await ctx.sub({ bytes: file.bytes, filename: file.name ?? `object-${i + 1}` });
      // A chart's empty data sheet says nothing but its name.
      const says = result.elements ? result.elements.some((e) => !NAMES_ONLY.has(e.type)) : result.content.trim() !== '';
      if (says) out.addResult(name, result);
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      // A bomb is the document's problem, not one object's.
      if (err.code === 'refused_file' && /inflates/.test(err.message)) throw err;
      if (!NOTHING_TO_READ.has(err.code)) out.fail(name, err);
    }
  }
  return { ...out.output(own.metadata), ...(own.unit ? { unit: own.unit } : {}) };
}
