// Word 97-2003 (.doc), with word-extractor's reader of the binary format:
// the body, text boxes, headers and footers, footnotes, endnotes and
// comments. The format keeps no reliable structure for headings or tables in
// its text stream, so the text comes out as paragraphs.

import BufferReader from 'word-extractor/lib/buffer-reader.js';
import WordOleExtractor from 'word-extractor/lib/word-ole-extractor.js';
import { Blocks, type OutputMode } from './blocks.ts';
import { ExtractionError, type FormatOutput } from './types.ts';

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
  const add = (text: string) => {
    for (const para of text.replace(/\r\n?/g, '\n').split(/\n+/)) out.paragraph(para);
  };
  add(doc.getHeaders({ includeFooters: false }));
  add(doc.getBody());
  add(doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }));
  add(doc.getFootnotes());
  add(doc.getEndnotes());
  add(doc.getAnnotations());
  return out.output();
}
