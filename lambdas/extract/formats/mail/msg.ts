// Outlook MSG (a compound file of MAPI properties, read with compound-file.ts and
// msg-properties.ts): headers as metadata, the body (the HTML body's visible
// text, else the plain text), then each attachment extracted as a section.
// An attached Outlook item (an e-mail forwarded as an attachment) is a
// message of its own inside the file: its headers, body and attachments
// become sections too.

import { Blocks } from '../../engine/blocks.ts';
import { CompoundFile } from '../../containers/compound-file.ts';
import { decodeCodepage } from '../../containers/text-decoding.ts';
import { Compound } from '../../engine/compound.ts';
import { htmlInto, textParagraphs } from '../../containers/html.ts';
import type { FormatContext } from '../../engine/types.ts';
import { MapiObject, PROPERTIES_HEADER } from './msg-properties.ts';
import { isoDate } from '../../engine/iso-date.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

/** MAPI property ids ([MS-OXPROPS]) this reader looks at. */
const PR = {
  SUBJECT: 0x0037,
  CLIENT_SUBMIT_TIME: 0x0039,
  RECIPIENT_TYPE: 0x0c15,
  SENDER_NAME: 0x0c1a,
  SENDER_EMAIL_ADDRESS: 0x0c1f,
  MESSAGE_DELIVERY_TIME: 0x0e06,
  BODY: 0x1000,
  BODY_HTML: 0x1013,
  DISPLAY_NAME: 0x3001,
  EMAIL_ADDRESS: 0x3003,
  CREATION_TIME: 0x3007,
  ATTACH_DATA: 0x3701,
  ATTACH_FILENAME: 0x3704,
  ATTACH_LONG_FILENAME: 0x3707,
  ATTACH_MIME_TAG: 0x370e,
  SMTP_ADDRESS: 0x39fe,
  INTERNET_CPID: 0x3fde,
  SENDER_SMTP_ADDRESS: 0x5d01,
  ATTACHMENT_HIDDEN: 0x7ffe,
} as const;

const RECIPIENT_PREFIX = '__recip_version1.0_#';
const ATTACHMENT_PREFIX = '__attach_version1.0_#';
const RECIPIENT_KINDS: Record<number, 'to' | 'cc' | 'bcc'> = { 1: 'to', 2: 'cc', 3: 'bcc' };

/** Messages attached to messages are followed this deep, as archives and e-mails inside others are (index.ts). */
const MAX_NESTING = 3;

export async function extractMsg(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const cfb = new CompoundFile(bytes, 'The MSG e-mail');
  const message = new MapiObject(cfb, 0, PROPERTIES_HEADER.message);
  const mail = readMail(message);
  if (!mail.subject && !mail.hasBody && !mail.hasSender && mail.recipients === 0 && mail.attachments.length === 0) {
    throw new ExtractionError('corrupt_file', 'The MSG e-mail could not be read: it holds no message properties (damaged or not an Outlook message).');
  }
  const encrypted = mail.attachments.some(
    (att) => /\.pgp-encrypted$|^smime\.p7m$/i.test(att.name ?? '') || /pgp-encrypted|pkcs7-mime/i.test(att.mimeTag ?? ''),
  );
  if (encrypted) throw new ExtractionError('encrypted_file', 'The e-mail is encrypted (PGP/MIME or S/MIME); only its recipient can read it. Decrypt it and resubmit.');
  const out = new Compound(ctx.config.output);
  await addMail(out, mail, ctx, null, 0);
  const { headers } = mail;
  return out.output({ title: headers.subject ?? null, author: headers.from ?? null, created_at: isoDate(headers.date), email: headers });
}

interface Attachment {
  /** The long file name, else the display name, else the 8.3 name. */
  name: string | undefined;
  mimeTag: string | undefined;
  /** Images shown inside the HTML body are part of its layout, not attachments. */
  hidden: boolean;
  owner: MapiObject;
  /** The storage of an attached Outlook item, when it is one. */
  embedded: number | undefined;
}

interface Mail {
  headers: Record<string, string>;
  subject: string | undefined;
  hasBody: boolean;
  hasSender: boolean;
  recipients: number;
  message: MapiObject;
  attachments: Attachment[];
}

function readMail(message: MapiObject): Mail {
  const who = (name?: string, email?: string) => (name && email && name !== email ? `${name} <${email}>` : email || name || null);
  const recipients = message.children(RECIPIENT_PREFIX).map((r) => ({
    kind: RECIPIENT_KINDS[r.int(PR.RECIPIENT_TYPE) ?? 1] ?? 'to',
    address: who(r.text(PR.DISPLAY_NAME), r.text(PR.SMTP_ADDRESS) ?? r.text(PR.EMAIL_ADDRESS)),
  }));
  const list = (kind: 'to' | 'cc' | 'bcc') =>
    recipients
      .filter((r) => r.kind === kind)
      .map((r) => r.address)
      .filter(Boolean)
      .join(', ');
  const headers: Record<string, string> = {};
  const put = (k: string, v: string | null | undefined) => {
    if (v) headers[k] = v;
  };
  const senderName = message.text(PR.SENDER_NAME);
  const senderEmail = message.text(PR.SENDER_SMTP_ADDRESS) ?? message.text(PR.SENDER_EMAIL_ADDRESS);
  const subject = message.text(PR.SUBJECT);
  put('from', who(senderName, senderEmail));
  put('to', list('to'));
  put('cc', list('cc'));
  put('bcc', list('bcc'));
  put('subject', subject);
  put('date', message.time(PR.CLIENT_SUBMIT_TIME) ?? message.time(PR.MESSAGE_DELIVERY_TIME) ?? message.time(PR.CREATION_TIME));
  const attachments = message.children(ATTACHMENT_PREFIX).map((a) => ({
    name: a.text(PR.ATTACH_LONG_FILENAME) ?? a.text(PR.DISPLAY_NAME) ?? a.text(PR.ATTACH_FILENAME),
    mimeTag: a.text(PR.ATTACH_MIME_TAG),
    hidden: a.bool(PR.ATTACHMENT_HIDDEN) === true,
    owner: a,
    embedded: a.object(PR.ATTACH_DATA),
  }));
  return {
    headers,
    subject,
    hasBody: Boolean(message.text(PR.BODY) || message.unicode(PR.BODY_HTML) || message.binary(PR.BODY_HTML)?.length),
    hasSender: Boolean(senderName || senderEmail),
    recipients: recipients.length,
    message,
    attachments,
  };
}

/** The message's headers and body as one flowing section (under `heading` for an attached message), then its attachments. */
async function addMail(out: Compound, mail: Mail, ctx: FormatContext, heading: string | null, level: number): Promise<void> {
  const { headers, message } = mail;
  const body = new Blocks(ctx.config.output);
  if (heading) body.heading(2, heading);
  const lines = (['from', 'to', 'cc', 'bcc', 'subject', 'date'] as const).filter((k) => headers[k]).map((k) => `${k[0]!.toUpperCase()}${k.slice(1)}: ${headers[k]}`);
  if (lines.length > 0) body.paragraph(lines.join('\n'));
  // The HTML body carries the structure (headings, lists, tables); the plain text is the fallback.
  const html = message.unicode(PR.BODY_HTML);
  const htmlBytes = html?.trim() ? undefined : message.binary(PR.BODY_HTML);
  const text = message.text(PR.BODY);
  if (html?.trim()) htmlInto(body, html);
  else if (htmlBytes && htmlBytes.length > 0) htmlInto(body, htmlText(htmlBytes, message.int(PR.INTERNET_CPID)));
  else if (text?.trim()) textParagraphs(body, text);
  out.addFlow(body.text(), body.tables, body.elements);

  const path = heading ? `${heading.replace(/^Attachment: /, '')}/` : '';
  for (const [i, att] of mail.attachments.entries()) {
    const name = att.name ?? `attachment-${i + 1}`;
    if (att.hidden) continue;
    try {
      if (att.embedded !== undefined) {
        if (ctx.depth + level + 1 > MAX_NESTING) throw new ExtractionError('refused_file', `Refused: documents are nested more than ${MAX_NESTING} levels deep.`);
        await addMail(out, readMail(att.owner.embedded(att.embedded)), ctx, `Attachment: ${path}${name}`, level + 1);
        continue;
      }
      const file = att.owner.binary(PR.ATTACH_DATA) ?? new Uint8Array(0);
      out.addResult(`Attachment: ${path}${name}`, await ctx.sub({ bytes: file, filename: name, contentType: att.mimeTag ?? null }));
    } catch (err) {
      if (!(err instanceof ExtractionError)) throw err;
      out.fail(`${path}${name}`, err);
    }
  }
}

/** Windows code pages decodeCodepage knows; ISO-8859-1 (28591) is read as its superset Windows-1252. */
const WINDOWS_CODEPAGES = new Set([874, 932, 936, 949, 950, 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258, 28591]);

/** The HTML body written as bytes is in the message's Internet code page; UTF-8 when none is given or it is one not known here. */
function htmlText(bytes: Uint8Array, codepage: number | undefined): string {
  if (codepage === undefined || !WINDOWS_CODEPAGES.has(codepage)) return new TextDecoder().decode(bytes);
  return decodeCodepage(bytes, codepage === 28591 ? 1252 : codepage);
}
