// Word 97-2003 (.doc), with word-extractor's reader of the binary format:
// the headers (page headers, once each), the body, text boxes, footnotes and
// endnotes (footnotes), comments, and the footers (page footers). The format
// keeps no reliable structure for headings or tables in its text stream, so
// the body comes out as paragraphs, typed bullets ("• item") as list items.

import BufferReader from 'word-extractor/lib/buffer-reader.js';
import WordOleExtractor from 'word-extractor/lib/word-ole-extractor.js';
import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

export async function extractDoc(bytes: Uint8Array, mode: OutputMode): Promise<FormatOutput> {
  const reader = new BufferReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  let doc;
  try {
    await reader.open();
    doc = await new WordOleExtractor().extract(reader);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/encrypt/i.test(message)) throw new ExtractionError('encrypted_file', 'The Word document is password-protected; remove the password and resubmit.');
    throw new ExtractionError('corrupt_file', `The Word document could not be read: ${message}`);
  } finally {
    await reader.close().catch(() => {});
  }
  const out = new Blocks(mode);
  const lines = (text: string) => text.replace(/\r\n?/g, '\n').split(/\n+/).filter((l) => l.trim() !== '');
  const add = (text: string) => {
    const all = lines(text);
    for (let i = 0; i < all.length; i++) {
      const para = all[i]!;
      // The reader writes a table's cells tab-separated, a row a line: consecutive lines with the same number of cells.
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
      if (seen.has(t) || !/\p{L}/u.test(t)) continue;
      seen.add(t);
      if (kind === 'header') out.pageHeader(t);
      else out.pageFooter(t);
    }
  };
  furniture(doc.getHeaders({ includeFooters: false }), 'header');
  add(doc.getBody());
  add(doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }));
  for (const note of [...lines(doc.getFootnotes()), ...lines(doc.getEndnotes())]) out.footnote(note);
  add(doc.getAnnotations());
  furniture(doc.getFooters(), 'footer');
  return out.output();
}
