// E-mail (RFC 822 / MIME): headers as metadata, the body (plain text, or the
// HTML part's visible text), then each attachment extracted as a section.

import PostalMime, { type Address } from 'postal-mime';
import { Blocks } from '../../engine/blocks.ts';
import { Compound } from '../../engine/compound.ts';
import { htmlInto, textParagraphs } from '../../containers/html.ts';
import type { FormatContext } from '../../engine/extract.ts';
import { isoDate } from '../../engine/iso-date.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

export async function extractEml(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  // UTF-16 messages exist (exported from Windows tools); MIME parsers expect bytes of an 8-bit charset.
  const { text, encoding } = decodeText(bytes);
  const source = encoding.startsWith('utf-16') || encoding.startsWith('utf-32') ? new TextEncoder().encode(text) : bytes;
  let email;
  try {
    email = await PostalMime.parse(source, { maxNestingDepth: 50, maxRfc822NestingDepth: 3, attachmentEncoding: 'arraybuffer' });
  } catch (err) {
    throw new ExtractionError('corrupt_file', `The e-mail could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const topType = email.headers.find((h) => h.key === 'content-type')?.value ?? '';
  if (/^multipart\/encrypted|^application\/(x-)?pkcs7-mime[^]*enveloped-data/i.test(topType) || (/^application\/(x-)?pkcs7-mime/i.test(topType) && !/signed-data/i.test(topType))) {
    throw new ExtractionError('encrypted_file', 'The e-mail is encrypted (PGP/MIME or S/MIME); only its recipient can read it. Decrypt it and resubmit.');
  }
  const headers: Record<string, string> = {};
  const put = (key: string, value: string | undefined | null) => {
    if (value) headers[key] = value;
  };
  put('from', address(email.from));
  put('to', email.to?.map(address).join(', '));
  put('cc', email.cc?.map(address).join(', '));
  put('bcc', email.bcc?.map(address).join(', '));
  put('reply_to', email.replyTo?.map(address).join(', '));
  put('subject', email.subject);
  put('date', email.date);
  put('message_id', email.messageId);

  const mode = ctx.config.output;
  const body = new Blocks(mode);
  const headerLines = (['from', 'to', 'cc', 'bcc', 'subject', 'date'] as const)
    .filter((k) => headers[k])
    .map((k) => `${k[0]!.toUpperCase()}${k.slice(1)}: ${headers[k]}`);
  if (headerLines.length > 0) body.paragraph(headerLines.join('\n'));
  // The HTML body carries the structure (headings, lists, tables); the plain text is the fallback.
  if (email.html && email.html.trim()) htmlInto(body, email.html);
  else if (email.text?.trim()) textParagraphs(body, email.text);

  const out = new Compound(mode);
  out.addFlow(body.text(), body.tables, body.elements);
  for (const [i, att] of email.attachments.entries()) {
    // Inline images referenced from the HTML body are part of its layout, not attachments.
    if (att.related && att.mimeType.startsWith('image/')) continue;
    const name = att.filename ?? `attachment-${i + 1}`;
    try {
      const data = typeof att.content === 'string' ? new TextEncoder().encode(att.content) : new Uint8Array(att.content);
      out.addResult(`Attachment: ${name}`, await ctx.sub({ bytes: data, filename: name, contentType: att.mimeType }));
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      out.fail(name, err);
    }
  }
  return out.output({
    title: email.subject ?? null,
    author: address(email.from),
    created_at: isoDate(email.date),
    email: headers,
    ...(encoding !== 'utf-8' ? { encoding } : {}),
  });
}

function address(a: Address | undefined): string | null {
  if (!a) return null;
  if ('group' in a && a.group) return `${a.name}: ${a.group.map(address).join(', ')}`;
  const mailbox = a as { name: string; address?: string };
  if (mailbox.name && mailbox.address) return `${mailbox.name} <${mailbox.address}>`;
  return mailbox.address || mailbox.name || null;
}
