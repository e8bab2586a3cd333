// Outlook MSG (a compound file of MAPI properties), read with
// @kenjiuno/msgreader: headers as metadata, the body (plain text, else the
// HTML body's visible text), then each attachment extracted as a section.

import msgreaderModule from '@kenjiuno/msgreader';
import { Blocks } from '../../engine/blocks.ts';
import { Compound } from '../../engine/compound.ts';
import { htmlInto, textParagraphs } from '../../containers/html.ts';
import type { FormatContext } from '../../engine/extract.ts';
import { isoDate } from '../../engine/iso-date.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

type MsgReader = import('@kenjiuno/msgreader/lib/MsgReader.js').default;
type FieldsData = import('@kenjiuno/msgreader/lib/MsgReader.js').FieldsData;
// A CommonJS module compiled from ES: under Node's ESM interop its class is on `.default`.
const MsgReaderClass = ((msgreaderModule as unknown as { default?: unknown }).default ?? msgreaderModule) as new (data: DataView) => MsgReader;

export async function extractMsg(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  let reader: MsgReader;
  let data: ReturnType<MsgReader['getFileData']>;
  try {
    reader = new MsgReaderClass(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    data = reader.getFileData();
  } catch (err) {
    throw new ExtractionError('corrupt_file', `The MSG e-mail could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (data.error) throw new ExtractionError('corrupt_file', `The MSG e-mail could not be read: ${data.error}`);
  // The reader is lenient: a damaged compound file reads as a message with nothing in it.
  if (!data.subject && !data.body && !data.bodyHtml && !data.html && !data.senderEmail && !data.senderName && !data.recipients?.length && !data.attachments?.length) {
    throw new ExtractionError('corrupt_file', 'The MSG e-mail could not be read: it holds no message properties (damaged or not an Outlook message).');
  }
  const encrypted = (data.attachments ?? []).some(
    (att) => /\.pgp-encrypted$|^smime\.p7m$/i.test(att.fileName ?? att.name ?? '') || /pgp-encrypted|pkcs7-mime/i.test(att.attachMimeTag ?? ''),
  );
  if (encrypted) throw new ExtractionError('encrypted_file', 'The e-mail is encrypted (PGP/MIME or S/MIME); only its recipient can read it. Decrypt it and resubmit.');
  const who = (name?: string, email?: string) => (name && email && name !== email ? `${name} <${email}>` : email || name || null);
  const recipients = (kind: 'to' | 'cc' | 'bcc') =>
    (data.recipients ?? [])
      .filter((r: FieldsData) => (r.recipType ?? 'to') === kind)
      .map((r: FieldsData) => who(r.name, r.smtpAddress ?? r.email))
      .filter(Boolean)
      .join(', ');
  const headers: Record<string, string> = {};
  const put = (k: string, v: string | null | undefined) => {
    if (v) headers[k] = v;
  };
  put('from', who(data.senderName, data.senderSmtpAddress ?? data.senderEmail));
  put('to', recipients('to'));
  put('cc', recipients('cc'));
  put('bcc', recipients('bcc'));
  put('subject', data.subject);
  put('date', data.clientSubmitTime ?? data.messageDeliveryTime ?? data.creationTime);

  const mode = ctx.config.output;
  const body = new Blocks(mode);
  const lines = (['from', 'to', 'cc', 'bcc', 'subject', 'date'] as const).filter((k) => headers[k]).map((k) => `${k[0]!.toUpperCase()}${k.slice(1)}: ${headers[k]}`);
  if (lines.length > 0) body.paragraph(lines.join('\n'));
  // The HTML body carries the structure (headings, lists, tables); the plain text is the fallback.
  if (data.bodyHtml?.trim()) htmlInto(body, data.bodyHtml);
  else if (data.html && data.html.length > 0) htmlInto(body, new TextDecoder().decode(data.html));
  else if (data.body?.trim()) textParagraphs(body, data.body);

  const out = new Compound(mode);
  out.addFlow(body.text(), body.tables, body.elements);
  for (const [i, att] of (data.attachments ?? []).entries()) {
    const name = att.fileName ?? att.name ?? `attachment-${i + 1}`;
    // Images shown inside the HTML body are part of its layout, not attachments.
    if (att.attachmentHidden) continue;
    try {
      if (att.innerMsgContent) throw new ExtractionError('unsupported_format', 'an e-mail embedded in an MSG e-mail is not extracted');
      const file = reader.getAttachment(att);
      out.addResult(`Attachment: ${name}`, await ctx.sub({ bytes: file.content, filename: name, contentType: att.attachMimeTag ?? null }));
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      out.fail(name, err);
    }
  }
  return out.output({ title: data.subject ?? null, author: headers.from ?? null, created_at: isoDate(headers.date), email: headers });
}
