// A Unix mailbox (mbox): messages one after another, each opening with a
// "From " line (its sender and date) at the start of a line. Each message is
// read as an e-mail (eml.ts, through the nested extraction an archive's
// members take) and becomes a section headed by its number and subject; a
// line of a message that itself began "From " was written ">From " (mboxrd),
// and reads as it was. A message that cannot be read is named in
// metadata.failed_sections.

import { Compound } from '../../engine/compound.ts';
import { ExtractionError, type FormatContext, type FormatOutput } from '../../engine/types.ts';

/** A "From " separator line: at the file's start or after a line end, as far as its own line end. */
const SEPARATOR = /(?:^|\n)From [^\n]*\n/g;

export async function extractMbox(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  // Latin-1, a character a byte: offsets in the text are offsets in the bytes, whatever each message's charset.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const starts = [...text.matchAll(SEPARATOR)].map((m) => m.index! + m[0].length);
  if (starts.length === 0) throw new ExtractionError('corrupt_file', 'The mailbox could not be read: it has no "From " line opening a message.');
  const out = new Compound(ctx.config.output);
  for (const [i, start] of starts.entries()) {
    const next = starts[i + 1];
    // The next message's separator begins with the line end that closes this one.
    const end = next === undefined ? text.length : text.lastIndexOf('\nFrom ', next - 1);
    const message = Buffer.from(text.slice(start, end).replace(/^>(>*From )/gm, '$1'), 'latin1');
    const name = `Message ${i + 1}`;
    try {
      const result = await ctx.sub({ bytes: new Uint8Array(message), filename: `message-${i + 1}.eml`, contentType: 'message/rfc822' });
      out.addResult(result.metadata.title ? `${name}: ${result.metadata.title}` : name, result);
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      out.fail(name, err);
    }
  }
  return { ...out.output(), unit: 'text_page' };
}
