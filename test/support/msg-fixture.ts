// Builds Outlook MSG files in code: MAPI properties as __substg1.0_ streams
// and __properties_version1.0 entries, recipients and attachments in
// storages of their own, an attached Outlook item as a message storage
// inside its attachment ([MS-OXMSG]). Only what the reader looks at is written.

import { type CfbNode, makeCfb } from './cfb-fixture.ts';

export interface MsgRecipient {
  name?: string;
  email?: string;
  /** 1 To, 2 Cc, 3 Bcc. */
  type?: number;
}

export interface MsgAttachment {
  name: string;
  data?: Uint8Array;
  mimeTag?: string;
  hidden?: boolean;
  /** An attached Outlook item instead of a file. */
  message?: MsgMessage;
}

export interface MsgMessage {
  subject?: string;
  senderName?: string;
  senderEmail?: string;
  /** Written as PR_CLIENT_SUBMIT_TIME. */
  sent?: Date;
  body?: string;
  /** Written as PR_BODY_HTML in bytes (PT_BINARY), as Outlook does: UTF-8, or Windows-1252 with htmlCodepage 1252. */
  html?: string;
  /** PR_INTERNET_CPID, the code page of the HTML body's bytes. */
  htmlCodepage?: number;
  recipients?: MsgRecipient[];
  attachments?: MsgAttachment[];
  /** Strings as 8-bit (PT_STRING8) in this code page instead of Unicode. */
  codepage?: number;
}

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

interface Props {
  streams: CfbNode[];
  fixed: Buffer[];
}

function props(): Props {
  return { streams: [], fixed: [] };
}

function text(p: Props, id: number, value: string | undefined, codepage?: number): void {
  if (value === undefined) return;
  if (codepage === 1252) p.streams.push({ name: `__substg1.0_${hex(id, 4)}001E`, data: Buffer.from(`${value}\0`, 'latin1') });
  else p.streams.push({ name: `__substg1.0_${hex(id, 4)}001F`, data: Buffer.from(`${value}\0`, 'utf16le') });
}

function fixed(p: Props, id: number, type: number, value: Buffer): void {
  const e = Buffer.alloc(16);
  e.writeUInt32LE(((id << 16) | type) >>> 0, 0);
  e.writeUInt32LE(6, 4);
  value.copy(e, 8);
  p.fixed.push(e);
}

const int = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeInt32LE(n);
  return b;
};

function filetime(date: Date): Buffer {
  const ticks = BigInt(date.getTime() + 11_644_473_600_000) * 10_000n;
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(ticks);
  return b;
}

function nodes(p: Props, headerBytes: number): CfbNode[] {
  return [...p.streams, { name: '__properties_version1.0', data: Buffer.concat([Buffer.alloc(headerBytes), ...p.fixed]) }];
}

function messageNodes(m: MsgMessage, headerBytes: number): CfbNode[] {
  const p = props();
  const cp = m.codepage;
  if (cp !== undefined) fixed(p, 0x3ffd, 0x0003, int(cp));
  text(p, 0x0037, m.subject, cp);
  text(p, 0x0c1a, m.senderName, cp);
  text(p, 0x5d01, m.senderEmail, cp);
  text(p, 0x1000, m.body, cp);
  if (m.html !== undefined) p.streams.push({ name: '__substg1.0_10130102', data: Buffer.from(m.html, m.htmlCodepage === 1252 ? 'latin1' : 'utf8') });
  if (m.htmlCodepage !== undefined) fixed(p, 0x3fde, 0x0003, int(m.htmlCodepage));
  if (m.sent) fixed(p, 0x0039, 0x0040, filetime(m.sent));
  const children: CfbNode[] = [];
  (m.recipients ?? []).forEach((r, i) => {
    const rp = props();
    text(rp, 0x3001, r.name, cp);
    text(rp, 0x39fe, r.email, cp);
    fixed(rp, 0x0c15, 0x0003, int(r.type ?? 1));
    children.push({ name: `__recip_version1.0_#${hex(i, 8)}`, children: nodes(rp, 8) });
  });
  (m.attachments ?? []).forEach((a, i) => {
    const ap = props();
    text(ap, 0x3707, a.message ? undefined : a.name, cp);
    text(ap, 0x3001, a.name, cp);
    text(ap, 0x370e, a.mimeTag, cp);
    if (a.hidden) fixed(ap, 0x7ffe, 0x000b, int(1));
    const inner: CfbNode[] = nodes(ap, 8);
    if (a.message) inner.push({ name: '__substg1.0_3701000D', children: messageNodes(a.message, 24) });
    else if (a.data) inner.push({ name: '__substg1.0_37010102', data: a.data });
    children.push({ name: `__attach_version1.0_#${hex(i, 8)}`, children: inner });
  });
  // Storages first, in reverse: the reader orders recipients and attachments by their numbers, not by the directory.
  return [...children.reverse(), ...nodes(p, headerBytes)];
}

export function makeMsg(m: MsgMessage): Uint8Array {
  return makeCfb(messageNodes(m, 32));
}
