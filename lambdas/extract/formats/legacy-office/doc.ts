// Word 97-2003 (.doc), read with doc-text.ts on our compound-file reader:
// the headers (page headers, once each), the body, text boxes, footnotes and
// endnotes (footnotes), comments, and the footers (page footers). Heading
// styles are not read, so the body comes out as paragraphs, rows of cells as
// tables and typed bullets ("• item") as list items. Files inserted as objects
// (the ObjectPool storage: packaged files, PDFs, OOXML documents) follow as
// sections of their own (engine/embedded.ts).

import { Blocks } from '../../engine/blocks.ts';
import { CompoundFile, summaryInformation } from '../../containers/compound-file.ts';
import { withEmbedded } from '../../engine/embedded.ts';
import { LETTER } from '../../engine/letters.ts';
import { type EmbeddedFile, objectFiles } from '../../containers/ole-objects.ts';
import { readWordText } from './doc-text.ts';
import type { FormatContext, FormatOutput } from '../../engine/types.ts';

export async function extractDoc(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const cfb = new CompoundFile(bytes, 'The Word document');
  const doc = readWordText(cfb);
  const out = new Blocks(ctx.config.output);
  const lines = (text: string) => text.replace(/\r\n?/g, '\n').split(/\n+/).filter((l) => l.trim() !== '');
  const add = (text: string) => {
    const all = lines(text);
    for (let i = 0; i < all.length; i++) {
      const para = all[i]!;
      // A table's cells are tab-separated, a row a line: consecutive lines with the same number of cells.
      const width = para.split('\t').length;
      let end = i;
      while (width > 1 && end + 1 < all.length && all[end + 1]!.split('\t').length === width) end++;
      if (end > i) {
        out.table(all.slice(i, end + 1).map((l) => l.split('\t')));
        i = end;
        continue;
      }
      const typed = /^\s*[•◦▪●○■□‣⁃∙·*–-]\s+(?=\S)/.exec(para);
      if (typed) out.listItem(para.slice(typed[0].length), 0, null);
      else out.paragraph(para);
    }
  };
  const seen = new Set<string>();
  const furniture = (text: string, kind: 'header' | 'footer') => {
    for (const line of lines(text)) {
      const t = line.trim();
      // Each section repeats its headers; page numbers alone are no header.
      if (seen.has(t) || !LETTER.test(t)) continue;
      seen.add(t);
      if (kind === 'header') out.pageHeader(t);
      else out.pageFooter(t);
    }
  };
  furniture(doc.headers, 'header');
  add(doc.body);
  add(doc.textboxes);
  for (const note of [...lines(doc.footnotes), ...lines(doc.endnotes)]) out.footnote(note);
  add(doc.annotations);
  furniture(doc.footers, 'footer');
  return withEmbedded(out.output(summaryInformation(cfb)), () => objectPool(cfb), ctx);
}

/** The files of the document's objects, kept in its ObjectPool storage. */
function objectPool(cfb: CompoundFile): EmbeddedFile[] {
  const pool = cfb.entriesOf().find((e) => e.storage && e.name === 'ObjectPool');
  return pool ? objectFiles(cfb, cfb.entriesOf(pool.id).filter((e) => e.storage)) : [];
}
