// The MAPI properties of an Outlook message ([MS-OXMSG]), read from its
// compound file: variable-length values are streams named
// __substg1.0_IIIITTTT (property id, type), fixed-length ones are 16-byte
// entries of __properties_version1.0, and recipients, attachments and
// embedded messages are storages of their own with the same layout.

import { type CfbEntry, type CompoundFile } from '../../containers/compound-file.ts';
import { decodeCodepage } from '../../containers/text-decoding.ts';

const PT_LONG = 0x0003;
const PT_BOOLEAN = 0x000b;
const PT_OBJECT = 0x000d;
const PT_STRING8 = 0x001e;
const PT_UNICODE = 0x001f;
const PT_SYSTIME = 0x0040;
const PT_BINARY = 0x0102;

const PR_MESSAGE_CODEPAGE = 0x3ffd;
const PR_INTERNET_CPID = 0x3fde;

/** Bytes before the property entries: the message's own header is longer than an embedded message's, which is longer than a recipient's or attachment's. */
export const PROPERTIES_HEADER = { message: 32, embedded: 24, child: 8 } as const;

/** One property object: a message, a recipient or an attachment. */
export class MapiObject {
  private readonly streams = new Map<string, CfbEntry>();
  private readonly fixed = new Map<number, { type: number; value: DataView }>();
  /** The recipients' and attachments' storages, and any other storage, by name. */
  readonly storages: CfbEntry[] = [];

  constructor(
    private readonly cfb: CompoundFile,
    storage: number,
    headerBytes: number,
    /** Code page of 8-bit strings; a message's own PR_MESSAGE_CODEPAGE wins, recipients and attachments inherit it. */
    private codepage = 1252,
    /** Storages already read: in a sound file each has one parent, and a forged directory that links one from many places would be read again and again. */
    private readonly visited = new Set<number>(),
  ) {
    if (visited.has(storage)) throw cfb.damaged('a storage is listed in more than one place');
    visited.add(storage);
    for (const e of cfb.entriesOf(storage)) {
      if (e.storage) this.storages.push(e);
      else if (/^__substg1\.0_[0-9A-F]{8}$/i.test(e.name)) this.streams.set(e.name.slice(12).toUpperCase(), e);
      else if (e.name.toLowerCase() === '__properties_version1.0') this.readFixed(cfb.readEntry(e.id), headerBytes);
    }
    const own = this.int(PR_MESSAGE_CODEPAGE) ?? this.int(PR_INTERNET_CPID);
    if (own !== undefined) this.codepage = own;
  }

  private readFixed(bytes: Uint8Array, headerBytes: number): void {
    const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let off = headerBytes; off + 16 <= bytes.length; off += 16) {
      const tag = d.getUint32(off, true);
      if (tag === 0) break;
      this.fixed.set(tag >>> 16, { type: tag & 0xffff, value: new DataView(bytes.buffer, bytes.byteOffset + off + 8, 8) });
    }
  }

  private stream(id: number, type: number): CfbEntry | undefined {
    return this.streams.get(`${hex4(id)}${hex4(type)}`);
  }

  /** A string property, Unicode or 8-bit, up to its first NUL; undefined when absent. */
  text(id: number): string | undefined {
    const wide = this.stream(id, PT_UNICODE);
    if (wide) return cutAtNul(Buffer.from(this.cfb.readEntry(wide.id)).toString('utf16le'));
    const narrow = this.stream(id, PT_STRING8);
    if (narrow) return cutAtNul(decodeCodepage(this.cfb.readEntry(narrow.id), this.codepage));
    return undefined;
  }

  /** Text only as written in Unicode: the HTML body's 8-bit form is bytes in the body's own charset, read by binary(). */
  unicode(id: number): string | undefined {
    const wide = this.stream(id, PT_UNICODE);
    return wide ? cutAtNul(Buffer.from(this.cfb.readEntry(wide.id)).toString('utf16le')) : undefined;
  }

  binary(id: number): Uint8Array | undefined {
    const e = this.stream(id, PT_BINARY);
    return e ? this.cfb.readEntry(e.id) : undefined;
  }

  /** The storage of an object property: an attachment's embedded message. */
  object(id: number): number | undefined {
    const name = `__SUBSTG1.0_${hex4(id)}${hex4(PT_OBJECT)}`;
    return this.storages.find((s) => s.name.toUpperCase() === name)?.id;
  }

  int(id: number): number | undefined {
    const p = this.fixed.get(id);
    return p?.type === PT_LONG ? p.value.getInt32(0, true) : undefined;
  }

  bool(id: number): boolean | undefined {
    const p = this.fixed.get(id);
    return p?.type === PT_BOOLEAN ? p.value.getUint16(0, true) !== 0 : undefined;
  }

  /** A date, as Date.toUTCString writes it ("Thu, 20 Apr 2023 21:39:10 GMT"), the form e-mail headers use. */
  time(id: number): string | undefined {
    const p = this.fixed.get(id);
    if (p?.type !== PT_SYSTIME) return undefined;
    // FILETIME: 100 ns ticks since 1601-01-01.
    const ticks = p.value.getUint32(0, true) + p.value.getUint32(4, true) * 2 ** 32;
    const date = new Date(ticks / 10_000 - 11_644_473_600_000);
    return Number.isNaN(date.getTime()) ? undefined : date.toUTCString();
  }

  /** The child storages whose names start with `prefix` (recipients, attachments), in their numbered order. */
  children(prefix: string): MapiObject[] {
    return this.storages
      .filter((s) => s.name.startsWith(prefix))
      .sort((a, b) => Number.parseInt(a.name.slice(prefix.length), 16) - Number.parseInt(b.name.slice(prefix.length), 16))
      .map((s) => new MapiObject(this.cfb, s.id, PROPERTIES_HEADER.child, this.codepage, this.visited));
  }

  /** The message in an object property's storage (an attachment's embedded message). */
  embedded(storage: number): MapiObject {
    return new MapiObject(this.cfb, storage, PROPERTIES_HEADER.embedded, this.codepage, this.visited);
  }
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

function cutAtNul(s: string): string {
  const nul = s.indexOf('\0');
  return nul === -1 ? s : s.slice(0, nul);
}
