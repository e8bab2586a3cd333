// TAR archives (POSIX ustar, with GNU long names and pax extended headers),
// read from bytes already in memory: the members' names and their bytes,
// which a TAR stores as they are. Links, devices and other special entries
// are passed over; a member cut short by a truncated archive is left out.

import { ExtractionError } from '../engine/types.ts';

const BLOCK = 512;

/** Members a TAR may list, as a ZIP's central directory may (zip.ts ZIP_LIMITS). */
export const TAR_MAX_ENTRIES = 20_000;

export interface TarEntry {
  name: string;
  /** Where the member's bytes start in the archive. */
  offset: number;
  size: number;
  isDirectory: boolean;
}

/** A POSIX or GNU TAR: "ustar" at byte 257 of a first header whose checksum holds. */
export function isTar(bytes: Uint8Array): boolean {
  if (bytes.length < BLOCK) return false;
  const magic = latin1(bytes, 257, 6);
  return (magic === 'ustar\0' || magic === 'ustar ') && checksumHolds(bytes, 0);
}

export class SafeTar {
  readonly entries: TarEntry[];
  private readonly byName = new Map<string, TarEntry>();

  constructor(private readonly bytes: Uint8Array) {
    this.entries = readHeaders(bytes);
    for (const e of this.entries) if (!e.isDirectory) this.byName.set(e.name, e);
  }

  names(): string[] {
    return this.entries.filter((e) => !e.isDirectory).map((e) => e.name);
  }

  /** A member's bytes, as the archive stores them (no copy). */
  read(name: string): Uint8Array | null {
    const entry = this.byName.get(name);
    return entry ? this.bytes.subarray(entry.offset, entry.offset + entry.size) : null;
  }
}

function readHeaders(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let paxPath: string | undefined;
  for (let at = 0; at + BLOCK <= bytes.length; ) {
    if (bytes.subarray(at, at + BLOCK).every((b) => b === 0)) break;
    if (!checksumHolds(bytes, at)) {
      if (entries.length === 0) throw new ExtractionError('corrupt_file', 'The TAR archive is damaged: its first header does not check out. Create the archive again and resubmit it.');
      // Past a damaged header nothing can be trusted to start where it claims: what came before is kept.
      break;
    }
    const size = octal(bytes, at + 124, 12);
    const type = String.fromCharCode(bytes[at + 156]!);
    const data = at + BLOCK;
    const next = data + Math.ceil(size / BLOCK) * BLOCK;
    if (size < 0 || data + size > bytes.length) break;
    if (type === 'L') longName = cString(bytes, data, size);
    else if (type === 'x') paxPath = paxRecords(utf8(bytes, data, size)).get('path') ?? paxPath;
    else if (type !== 'g') {
      const ustar = latin1(bytes, at + 257, 5) === 'ustar';
      const prefix = ustar ? cString(bytes, at + 345, 155) : '';
      const stored = cString(bytes, at, 100);
      const name = (paxPath ?? longName ?? (prefix ? `${prefix}/${stored}` : stored)).replace(/^(\.\/)+/, '').replace(/^\/+/, '');
      longName = undefined;
      paxPath = undefined;
      if (name && (type === '0' || type === '\0' || type === '7' || type === '5')) {
        if (entries.length >= TAR_MAX_ENTRIES) throw new ExtractionError('refused_file', `Refused: the TAR archive lists more than ${TAR_MAX_ENTRIES.toLocaleString('en-US')} members. Split it into smaller archives.`);
        entries.push({ name: type === '5' ? name.replace(/\/?$/, '/') : name, offset: data, size: type === '5' ? 0 : size, isDirectory: type === '5' || name.endsWith('/') });
      }
    }
    at = next;
  }
  return entries;
}

/** The header's checksum: its bytes summed with the checksum field read as spaces. */
function checksumHolds(bytes: Uint8Array, at: number): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : bytes[at + i]!;
  return sum === octal(bytes, at + 148, 8);
}

/** An octal number field, or a GNU base-256 one (its first byte's high bit set). */
function octal(bytes: Uint8Array, at: number, length: number): number {
  if (bytes[at]! & 0x80) {
    let n = bytes[at]! & 0x7f;
    for (let i = 1; i < length; i++) n = n * 256 + bytes[at + i]!;
    return n;
  }
  const text = latin1(bytes, at, length).replace(/\0.*$/s, '').trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

const latin1 = (bytes: Uint8Array, at: number, length: number) => Buffer.from(bytes.buffer, bytes.byteOffset + at, length).toString('latin1');
const utf8 = (bytes: Uint8Array, at: number, length: number) => Buffer.from(bytes.buffer, bytes.byteOffset + at, length).toString('utf8');

/** A NUL-terminated name field: UTF-8, as GNU and BSD tar write names. */
function cString(bytes: Uint8Array, at: number, length: number): string {
  const field = bytes.subarray(at, at + length);
  const end = field.indexOf(0);
  return Buffer.from(field.subarray(0, end < 0 ? field.length : end)).toString('utf8');
}

/** A pax extended header's records: `<length> <key>=<value>\n`. */
function paxRecords(text: string): Map<string, string> {
  const records = new Map<string, string>();
  for (const m of text.matchAll(/\d+ ([^=\n]+)=([^\n]*)\n/g)) records.set(m[1]!, m[2]!);
  return records;
}
