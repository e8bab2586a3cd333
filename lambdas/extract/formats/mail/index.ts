// E-mail: an RFC 822 message (sniffed from its header fields, or hinted by
// its name), a Unix mailbox of them (mbox: each message after a "From "
// line) and an Outlook MSG (a compound file of "__substg1.0_" property
// streams). An MSG's pages need its parser to count: one is reserved, the
// rest settled when the job finishes.

import type { FormatDescriptor } from '../../engine/format.ts';
import { MAIL_ADVICE } from '../../engine/limits.ts';
import { textPages } from '../../engine/text-pages.ts';

export const eml: FormatDescriptor<'eml'> = {
  name: 'eml',
  family: 'mail',
  mime_type: 'message/rfc822',
  unit: 'text_page',
  signature: {
    names: { extensions: ['eml'], contentTypes: ['message/rfc822'] },
    sniff: (head, hinted) => looksLikeEmail(head) || (hinted && /^[\w-]+:/m.test(head)),
  },
  countPages: ({ codePoints }) => textPages(codePoints()),
  readLimit: { bytes: 60_000_000, advice: MAIL_ADVICE },
};

export const mbox: FormatDescriptor<'mbox'> = {
  name: 'mbox',
  family: 'mail',
  mime_type: 'application/mbox',
  unit: 'text_page',
  signature: {
    names: { extensions: ['mbox', 'mbx'], contentTypes: ['application/mbox'] },
    // A "From " line: its sender and a date as ctime writes it ("Mon Jun  1 10:00:00 2009"), or any date followed
    // by the first message's header fields.
    sniff: (head) =>
      /^From \S+ +[A-Z][a-z]{2} [A-Z][a-z]{2} +\d{1,2} \d{1,2}:\d{2}/.test(head) || /^From \S+ [^\r\n]*\d{4}[^\r\n]*\r?\n[\x21-\x39\x3b-\x7e]+:/.test(head),
  },
  countPages: ({ codePoints }) => textPages(codePoints()),
  readLimit: { bytes: 60_000_000, advice: MAIL_ADVICE },
};

export const msg: FormatDescriptor<'msg'> = {
  name: 'msg',
  family: 'mail',
  mime_type: 'application/vnd.ms-outlook',
  unit: 'text_page',
  signature: { compoundStreams: (streams) => streams.hasPrefix('__substg1.0_') },
  countPages: () => 1,
  readLimit: { bytes: 70_000_000, advice: MAIL_ADVICE },
};

const MAIL_HEADER = /^(from|to|cc|subject|date|received|return-path|mime-version|message-id|delivered-to|reply-to|content-type|x-[\w-]+):/i;

/** An RFC 822 message starts with header fields, several of them mail-specific, before the first blank line. */
function looksLikeEmail(head: string): boolean {
  const block = head.split(/\r?\n\r?\n/, 1)[0]!;
  const lines = block.split(/\r?\n/).filter((l) => !/^[ \t]/.test(l));
  if (lines.length < 2) return false;
  const fields = lines.filter((l) => /^[\x21-\x39\x3b-\x7e]+:/.test(l));
  const mail = lines.filter((l) => MAIL_HEADER.test(l));
  return fields.length === lines.length && mail.length >= 2 && mail.some((l) => /^(from|to|subject|received|message-id|date):/i.test(l));
}
