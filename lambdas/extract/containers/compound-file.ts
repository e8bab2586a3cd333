// Compound File Binary (OLE2 structured storage), the container of the
// Office 97-2003 formats: a small FAT file system inside one file. Untrusted
// input, so every sector is checked against the file's length and no chain
// may visit a sector twice: a damaged or hostile file fails with
// corrupt_file instead of looping or reading past its end.

import { decodeCodepage } from './text-decoding.ts';
import { ExtractionError } from '../engine/types.ts';

const END_OF_CHAIN = 0xfffffffe;
const NO_ENTRY = 0xffffffff;
const HEADER_DIFAT_SLOTS = 109;
const DIR_ENTRY_BYTES = 128;
const MINI_SECTOR_BYTES = 64;

type EntryType = 'empty' | 'storage' | 'stream' | 'root';

interface DirEntry {
  name: string;
  type: EntryType;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

/** A stream or storage inside a storage, as entriesOf lists it. */
export interface CfbEntry {
  id: number;
  name: string;
  storage: boolean;
  size: number;
}

export class CompoundFile {
  private readonly view: DataView;
  private readonly shift: number;
  private readonly sectorSize: number;
  private readonly fat: Uint32Array;
  private readonly entries: DirEntry[];
  private readonly miniCutoff: number;
  private readonly firstMiniFat: number;
  private miniFat: Uint32Array | null = null;
  private miniStream: Uint8Array | null = null;
  /** Names of the streams and storages at the top level, in directory-tree order. */
  readonly names: string[];

  /** `what` names the document in error messages: "The Excel workbook". */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 512) throw this.damaged('it is shorter than a compound-file header');
    if (this.view.getUint16(28, true) !== 0xfffe) throw this.damaged('the compound-file header is not valid');
    this.shift = this.view.getUint16(30, true);
    if ((this.shift !== 9 && this.shift !== 12) || this.view.getUint16(32, true) !== 6) throw this.damaged('the compound-file header declares an unknown sector size');
    this.sectorSize = 1 << this.shift;
    this.miniCutoff = this.u32(56);
    this.firstMiniFat = this.u32(60);
    this.fat = this.readFat();
    this.entries = this.readDirectory();
    this.names = this.childrenOf(0).map((i) => this.entries[i]!.name);
  }

  /** A top-level stream's bytes (at most `limit` of them), or null when there is no such stream. Names compare case-insensitively, as in Office. */
  read(name: string, limit = Infinity): Uint8Array | null {
    const wanted = name.toUpperCase();
    const index = this.childrenOf(0).find((i) => this.entries[i]!.type === 'stream' && this.entries[i]!.name.toUpperCase() === wanted);
    return index === undefined ? null : this.streamBytes(this.entries[index]!, limit);
  }

  /** The streams and storages directly inside storage `id` (the root by default): an Outlook message keeps its recipients and attachments in storages. */
  entriesOf(id = 0): CfbEntry[] {
    const e = this.entries[id];
    if (e?.type !== 'storage' && e?.type !== 'root') return [];
    return this.childrenOf(id).map((i) => ({ id: i, name: this.entries[i]!.name, storage: this.entries[i]!.type === 'storage', size: this.entries[i]!.size }));
  }

  /** The bytes of the stream `id` (from entriesOf), at most `limit` of them. */
  readEntry(id: number, limit = Infinity): Uint8Array {
    const e = this.entries[id];
    if (e?.type !== 'stream') throw this.damaged('a directory entry is not the stream it should be');
    return this.streamBytes(e, limit);
  }

  has(name: string): boolean {
    const wanted = name.toUpperCase();
    return this.names.some((n) => n.toUpperCase() === wanted);
  }

  damaged(detail: string): ExtractionError {
    return new ExtractionError(
      'corrupt_file',
      `${this.what} could not be read: the file is truncated or damaged (${detail}). Upload the complete file, or open it in Office and save it again.`,
    );
  }

  private u32(offset: number): number {
    return this.view.getUint32(offset, true);
  }

  /** Sectors the file holds past its header: every valid sector number is below this. */
  private get sectorCount(): number {
    return Math.ceil(this.bytes.length / this.sectorSize) - 1;
  }

  /** `length` bytes of sector `id`, which must all be inside the file. */
  private sector(id: number, length = this.sectorSize): Uint8Array {
    const offset = (id + 1) * this.sectorSize;
    if (id >= this.sectorCount || offset + length > this.bytes.length) throw this.damaged(`sector ${id} lies past the end of the file`);
    return this.bytes.subarray(offset, offset + length);
  }

  private readFat(): Uint32Array {
    const perSector = this.sectorSize / 4;
    const fatSectors = this.u32(44);
    if (fatSectors > this.sectorCount) throw this.damaged(`it declares ${fatSectors} allocation-table sectors, more than the file holds`);
    const ids: number[] = [];
    for (let i = 0; i < Math.min(HEADER_DIFAT_SLOTS, fatSectors); i++) ids.push(this.u32(76 + 4 * i));
    // The rest of the table's sector numbers are in a chain of DIFAT sectors; a sector is read at most once.
    let difat = this.u32(68);
    for (let hops = 0; ids.length < fatSectors && difat !== END_OF_CHAIN && difat !== NO_ENTRY; hops++) {
      if (hops > this.sectorCount) throw this.damaged('the allocation table chain loops');
      const sector = this.sector(difat);
      const s = new DataView(sector.buffer, sector.byteOffset, sector.byteLength);
      for (let i = 0; i < perSector - 1 && ids.length < fatSectors; i++) ids.push(s.getUint32(4 * i, true));
      difat = s.getUint32(4 * (perSector - 1), true);
    }
    if (ids.length < fatSectors) throw this.damaged('part of the allocation table is missing');
    const fat = new Uint32Array(ids.length * perSector);
    ids.forEach((id, i) => readTable(this.sector(id), fat, i * perSector));
    return fat;
  }

  /** The sector numbers of a chain, at most `max` of them. */
  private chain(start: number, table: Uint32Array, max: number): number[] {
    const out: number[] = [];
    const seen = new Uint8Array(table.length);
    for (let id = start; id !== END_OF_CHAIN && out.length < max; id = table[id]!) {
      if (id >= table.length) throw this.damaged('a sector chain points outside the allocation table');
      if (seen[id]) throw this.damaged('a sector chain loops');
      seen[id] = 1;
      out.push(id);
    }
    return out;
  }

  private readDirectory(): DirEntry[] {
    const sectors = this.chain(this.u32(48), this.fat, this.fat.length);
    const entries: DirEntry[] = [];
    const v4 = this.shift === 12;
    for (const id of sectors) {
      const s = this.sector(id);
      const d = new DataView(s.buffer, s.byteOffset, s.byteLength);
      for (let off = 0; off + DIR_ENTRY_BYTES <= s.length; off += DIR_ENTRY_BYTES) {
        const nameBytes = Math.min(64, d.getUint16(off + 64, true));
        const type = (['empty', 'storage', 'stream', 'empty', 'empty', 'root'] as const)[d.getUint8(off + 66)] ?? 'empty';
        // Version 3 files keep garbage in the size's high half; only version 4 uses it.
        const size = d.getUint32(off + 120, true) + (v4 ? d.getUint32(off + 124, true) * 2 ** 32 : 0);
        entries.push({
          name: Buffer.from(s.buffer, s.byteOffset + off, Math.max(0, nameBytes - 2)).toString('utf16le'),
          type,
          left: d.getUint32(off + 68, true),
          right: d.getUint32(off + 72, true),
          child: d.getUint32(off + 76, true),
          start: d.getUint32(off + 116, true),
          size,
        });
      }
    }
    if (entries[0]?.type !== 'root') throw this.damaged('the directory has no root entry');
    return entries;
  }

  /** The entries directly inside a storage: its child and that child's siblings (a binary tree), each visited once. */
  private childrenOf(storage: number): number[] {
    const out: number[] = [];
    const seen = new Uint8Array(this.entries.length);
    const stack = [this.entries[storage]!.child];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (i >= this.entries.length || seen[i]) continue;
      seen[i] = 1;
      const e = this.entries[i]!;
      if (e.type === 'empty') continue;
      out.push(i);
      stack.push(e.right, e.left);
    }
    return out;
  }

  private streamBytes(e: DirEntry, limit: number): Uint8Array {
    const size = Math.min(e.size, limit);
    if (e.size < this.miniCutoff) return this.fromMiniStream(e, size);
    if (e.size > this.bytes.length) throw this.damaged(`the stream "${e.name}" is larger than the file`);
    return this.gather(this.chain(e.start, this.fat, Math.ceil(size / this.sectorSize)), size, this.sectorSize, (id, n) => this.sector(id, n), e.name);
  }

  private gather(ids: number[], size: number, unit: number, at: (id: number, n: number) => Uint8Array, name: string): Uint8Array {
    if (ids.length * unit < size) throw this.damaged(`the stream "${name}" ends early`);
    const out = new Uint8Array(size);
    ids.forEach((id, i) => out.set(at(id, Math.min(unit, size - i * unit)), i * unit));
    return out;
  }

  /** Small streams live in 64-byte sectors of the mini stream, itself the root entry's stream. */
  private fromMiniStream(e: DirEntry, size: number): Uint8Array {
    if (!this.miniStream || !this.miniFat) {
      const root = this.entries[0]!;
      if (root.size > this.bytes.length) throw this.damaged('the mini stream is larger than the file');
      const rootIds = this.chain(root.start, this.fat, Math.ceil(root.size / this.sectorSize));
      this.miniStream = this.gather(rootIds, root.size, this.sectorSize, (id, n) => this.sector(id, n), 'Root Entry');
      const fatIds = this.chain(this.firstMiniFat, this.fat, this.fat.length);
      const miniFat = new Uint32Array(fatIds.length * (this.sectorSize / 4));
      fatIds.forEach((id, i) => readTable(this.sector(id), miniFat, (i * this.sectorSize) / 4));
      this.miniFat = miniFat;
    }
    const mini = this.miniStream;
    const ids = this.chain(e.start, this.miniFat, Math.ceil(size / MINI_SECTOR_BYTES));
    return this.gather(ids, size, MINI_SECTOR_BYTES, (id, n) => {
      const offset = id * MINI_SECTOR_BYTES;
      if (offset + n > mini.length) throw this.damaged(`the stream "${e.name}" points past the end of the mini stream`);
      return mini.subarray(offset, offset + n);
    }, e.name);
  }
}

function readTable(sector: Uint8Array, into: Uint32Array, at: number): void {
  const d = new DataView(sector.buffer, sector.byteOffset, sector.byteLength);
  for (let i = 0; i + 4 <= sector.length; i += 4) into[at + i / 4] = d.getUint32(i, true);
}

// --- Document properties -------------------------------------------------

export interface SummaryInfo {
  title: string | null;
  subject: string | null;
  author: string | null;
  keywords: string | null;
  creator: string | null;
  created_at: string | null;
  modified_at: string | null;
}

/** The "\x05SummaryInformation" property set: title, author and dates. Unreadable properties are left null. */
export function summaryInformation(cfb: CompoundFile): SummaryInfo {
  const info: SummaryInfo = { title: null, subject: null, author: null, keywords: null, creator: null, created_at: null, modified_at: null };
  let read: Uint8Array | null;
  try {
    read = cfb.read('\x05SummaryInformation', 1024 * 1024);
  } catch {
    return info;
  }
  if (!read || read.length < 48) return info;
  const bytes = read;
  const d = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const section = d.getUint32(44, true);
  if (section + 8 > bytes.length) return info;
  const count = Math.min(d.getUint32(section + 4, true), Math.floor((bytes.length - section - 8) / 8));
  const props = new Map<number, number>();
  for (let i = 0; i < count; i++) props.set(d.getUint32(section + 8 + 8 * i, true), section + d.getUint32(section + 12 + 8 * i, true));
  const at = (id: number) => {
    const off = props.get(id);
    return off !== undefined && off + 8 <= bytes.length ? off : null;
  };
  const cpAt = at(1);
  const codepage = cpAt !== null && d.getUint32(cpAt, true) === 2 ? d.getUint16(cpAt + 4, true) : 1252;
  const text = (id: number): string | null => {
    const off = at(id);
    if (off === null) return null;
    const type = d.getUint32(off, true);
    const n = d.getUint32(off + 4, true);
    let s: string;
    if (type === 0x1e) {
      const raw = bytes.subarray(off + 8, Math.min(bytes.length, off + 8 + n));
      s = codepage === 1200 ? Buffer.from(raw).toString('utf16le') : decodeCodepage(raw, codepage);
    } else if (type === 0x1f) s = Buffer.from(bytes.subarray(off + 8, Math.min(bytes.length, off + 8 + 2 * n))).toString('utf16le');
    else return null;
    s = s.replace(/\0[\s\S]*$/, '').trim();
    return s === '' ? null : s;
  };
  const time = (id: number): string | null => {
    const off = at(id);
    if (off === null || off + 12 > bytes.length || d.getUint32(off, true) !== 0x40) return null;
    // FILETIME: 100 ns ticks since 1601-01-01.
    const ticks = d.getUint32(off + 4, true) + d.getUint32(off + 8, true) * 2 ** 32;
    const ms = ticks / 10_000 - 11_644_473_600_000;
    // Editing-time properties and unset dates come out near 1601; they are not dates.
    if (!(ms > 0) || ms > 8.64e15) return null;
    return new Date(Math.round(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  };
  info.title = text(2);
  info.subject = text(3);
  info.author = text(4);
  info.keywords = text(5);
  info.creator = text(0x12);
  info.created_at = time(0x0c);
  info.modified_at = time(0x0d);
  return info;
}

export { decodeCodepage } from './text-decoding.ts';
