// A ZIP reader for untrusted archives (DOCX, XLSX, PPTX, ODF, EPUB, ZIP).
// The central directory is read first and checked against absolute caps; an
// entry is inflated only when asked for, and never past what the caps allow,
// whatever sizes the archive declares (a zip bomb lies about them).
//
// The directory stands at the archive's end, so a file cut short (an
// interrupted download, a truncated attachment) loses it while the members
// before the cut are whole. Such an archive is read from the members' own
// headers, in file order, the member the cut goes through as far as it goes,
// and says so (`damage`): a document of it is read from the parts that
// survived, as its application's repair would, and names what was lost.

import { constants, createInflateRaw, inflateRawSync } from 'node:zlib';
import { ExtractionError, type FailedSection } from '../engine/types.ts';

export const ZIP_LIMITS = {
  /** Entries in the central directory. */
  maxEntries: 20_000,
  /** Inflated bytes of any one entry. */
  maxEntryBytes: 128 * 1024 * 1024,
  /** Inflated bytes of all entries read from one archive (nested archives included). */
  maxTotalBytes: 512 * 1024 * 1024,
  /** Inflated/compressed ratio allowed for an entry once it inflates past `ratioFloorBytes`. */
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  method: number;
  encrypted: boolean;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
  isDirectory: boolean;
}

/** Shared by an archive and the archives nested in it, so nesting cannot multiply the budget. */
export interface InflateBudget {
  remaining: number;
  /** The error when the document's budget, lowered below the per-document cap for its format, runs out. */
  exceeded?: () => ExtractionError;
}

export class SafeZip {
  readonly entries: ZipEntry[];
  /** Why the entries were read from their local headers (the directory is missing or damaged: the file is cut short); null for a whole archive. */
  readonly damage: string | null;
  /** Parts its readers could not read (data that does not inflate, XML that does not parse) and left out, as an application's repair leaves them out. */
  readonly losses: FailedSection[] = [];
  private readonly byName = new Map<string, ZipEntry>();

  constructor(
    private readonly bytes: Uint8Array,
    readonly budget: InflateBudget = { remaining: ZIP_LIMITS.maxTotalBytes },
  ) {
    ({ entries: this.entries, damage: this.damage } = readEntries(bytes));
    for (const e of this.entries) this.byName.set(e.name, e);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Notes a part left out because it could not be read (once a part). */
  lose(name: string, error: string): void {
    if (!this.losses.some((l) => l.name === name)) this.losses.push({ name, error });
  }

  /** Names without a leading slash, as stored. */
  names(): string[] {
    return this.entries.map((e) => e.name);
  }

  read(name: string): Uint8Array | null {
    const entry = this.entry(name);
    return entry ? this.readEntry(entry) : null;
  }

  readText(name: string): string | null {
    const data = this.read(name);
    return data === null ? null : new TextDecoder('utf-8').decode(data);
  }

  /**
   * What a member whose data does not inflate gives before the damage: the
   * longest start of its data that inflates, found by halving (each try
   * inflates at most the member, under the same caps). Empty where nothing
   * before the damage inflates.
   */
  readUpToDamage(name: string): Uint8Array {
    const entry = this.entry(name);
    if (!entry || entry.method !== 8) return new Uint8Array();
    const raw = this.compressed(entry);
    const room = this.room();
    const inflated = (length: number): Buffer | null => {
      try {
        return inflateRawSync(raw.subarray(0, length), { maxOutputLength: room + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw this.tooLarge(entry.name, room);
        return null;
      }
    };
    let good = 0;
    let best: Buffer = Buffer.alloc(0);
    for (let low = 1, high = raw.length - 1; low <= high; ) {
      const mid = (low + high) >>> 1;
      const out = inflated(mid);
      if (out) {
        [good, best] = [mid, out];
        low = mid + 1;
      } else high = mid - 1;
    }
    if (good === 0) return new Uint8Array();
    this.check(entry.name, best.length, good, room);
    this.budget.remaining -= best.length;
    return best;
  }

  readEntry(entry: ZipEntry): Uint8Array {
    const raw = this.compressed(entry);
    const room = this.room();
    let out: Uint8Array = raw;
    if (entry.method === 8) {
      try {
        out = inflateRawSync(raw, { maxOutputLength: room + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw this.tooLarge(entry.name, room);
        throw corrupt(`"${entry.name}" does not inflate (${(err as Error).message})`);
      }
    }
    this.check(entry.name, out.length, raw.length, room);
    this.budget.remaining -= out.length;
    return out;
  }

  /**
   * An entry's inflated bytes a piece at a time, under the same caps as
   * readEntry, so a reader can scan a member larger than it wants to hold (a
   * worksheet of a million cells). A reader that stops taking pieces stops
   * the inflation: only what was inflated counts against the budget.
   */
  async *stream(name: string): AsyncGenerator<Uint8Array> {
    const entry = this.entry(name);
    if (!entry) return;
    const raw = this.compressed(entry);
    // What the whole entry may inflate to, as readEntry holds it: the budget left when it starts.
    const room = this.room();
    if (entry.method === 0) {
      this.check(entry.name, raw.length, raw.length, room);
      this.budget.remaining -= raw.length;
      yield raw;
      return;
    }
    // The whole compressed entry goes in at once (it is in memory already); zlib inflates only as the pieces are taken.
    const inflate = createInflateRaw({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1 << 16 });
    inflate.end(raw);
    let out = 0;
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        out += chunk.length;
        this.check(entry.name, out, raw.length, room);
        this.budget.remaining -= chunk.length;
        yield chunk;
      }
    } catch (err) {
      if (err instanceof ExtractionError) throw err;
      throw corrupt(`"${entry.name}" does not inflate (${(err as Error).message})`);
    } finally {
      inflate.destroy();
    }
  }

  private entry(name: string): ZipEntry | undefined {
    return this.byName.get(name) ?? this.byName.get(name.replace(/^\//, ''));
  }

  /** An entry's packed bytes, once it is known to be readable: not encrypted, whole, stored or deflated. */
  private compressed(entry: ZipEntry): Uint8Array {
    if (entry.encrypted) throw new ExtractionError('encrypted_file', `The archive member "${entry.name}" is encrypted; remove the password and resubmit.`);
    const { bytes } = this;
    const at = entry.localHeaderOffset;
    if (at + 30 > bytes.length || readU32(bytes, at) !== 0x04034b50) throw corrupt(`the local header of "${entry.name}" is missing`);
    const dataStart = at + 30 + readU16(bytes, at + 26) + readU16(bytes, at + 28);
    const raw = bytes.subarray(dataStart, Math.min(bytes.length, dataStart + entry.compressedSize));
    if (raw.length < entry.compressedSize) throw corrupt(`"${entry.name}" is truncated`);
    if (entry.method !== 0 && entry.method !== 8) throw corrupt(`"${entry.name}" uses compression method ${entry.method}, which is not supported`);
    return raw;
  }

  /** What the next entry may inflate to: the per-entry cap, or what is left of the archive's budget. */
  private room(): number {
    return Math.min(ZIP_LIMITS.maxEntryBytes, this.budget.remaining);
  }

  /** Refuses an entry that has inflated to `inflated` bytes from `compressed`: past its `room`, or past the ratio of a bomb. */
  private check(name: string, inflated: number, compressed: number, room: number): void {
    if (inflated > room) throw this.tooLarge(name, room);
    if (inflated > ZIP_LIMITS.ratioFloorBytes && inflated > Math.max(1, compressed) * ZIP_LIMITS.maxRatio) throw bomb(name);
  }

  private tooLarge(name: string, cap: number): ExtractionError {
    return cap < ZIP_LIMITS.maxEntryBytes && this.budget.exceeded ? this.budget.exceeded() : tooLarge(name);
  }
}

/** Whether `err` says the data is damaged (corrupt_file), as against a refusal (a bomb, a DOCTYPE, a limit) or a fault of our own. */
export const isDamage = (err: unknown): err is ExtractionError => err instanceof ExtractionError && err.code === 'corrupt_file';

/** The error for a part a reader cannot do without: lost to the cut where the archive was cut short, else missing or empty (`why`). */
export function missingPart(zip: SafeZip, what: string, part: string, why = `${part} is missing`): ExtractionError {
  const damaged = zip.losses.find((l) => l.name === part);
  if (damaged) {
    const detail = damaged.error.replace(/^The [\w ]+ could not be read: /, '').replace(/\.$/, '');
    return new ExtractionError('corrupt_file', `The ${what} could not be read: its part ${part} is damaged (${detail}).`);
  }
  return new ExtractionError('corrupt_file', zip.damage && !zip.has(part) ? `The ${what} could not be read: its part ${part} was lost. ${zip.damage}` : `The ${what} could not be read: ${why}.`);
}

/** What a package lost, to the cut and to damaged parts, as sections that could not be read (metadata.failed_sections: the job is then a partial success). */
export function lostSections(zip: SafeZip): FailedSection[] {
  return [...(zip.damage ? [{ name: 'end of file', error: zip.damage }] : []), ...zip.losses];
}

/** The metadata that names what a package lost, where it lost anything. */
export function lossMetadata(zip: SafeZip): { failed_sections?: FailedSection[] } {
  const lost = lostSections(zip);
  return lost.length > 0 ? { failed_sections: lost } : {};
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05) && (bytes[3] === 0x04 || bytes[3] === 0x06);
}

/** The entries as the directory lists them, or, where it is missing or damaged, as the members' own headers give them. */
function readEntries(bytes: Uint8Array): { entries: ZipEntry[]; damage: string | null } {
  try {
    return { entries: readCentralDirectory(bytes), damage: null };
  } catch (err) {
    // Only a directory that cannot be read: a refusal (too many entries) stands.
    if (!isDamage(err)) throw err;
    const { entries, end, cut } = scanLocalHeaders(bytes);
    if (entries.length === 0) throw err;
    const why = err.message.replace(/^The archive could not be read: /, '').replace(/\.$/, '');
    const read = `${entries.length} member${entries.length === 1 ? ' was' : 's were'} read from their own headers`;
    const lost = cut ? `, the last of them, ${cut}, only as far as the file goes: the rest of it is lost, and whatever the archive held after it` : `, and whatever the archive held after byte ${end} of ${bytes.length} is lost`;
    return { entries, damage: `The file is cut short or damaged (${why}): ${read}${lost}. Upload the complete file to read all of it.` };
  }
}

/**
 * The members whose local headers stand whole from the file's start, in
 * order, and where the last whole one ends. A member whose sizes follow its
 * data (bit 3, a data descriptor) is measured by inflating it to its end. The
 * member the cut goes through is kept with the data that is there (`cut`
 * names it): inflated as far as it goes, a document's main part cut short
 * (often its largest and last) still gives what stands before the cut.
 */
function scanLocalHeaders(bytes: Uint8Array): { entries: ZipEntry[]; end: number; cut: string | null } {
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder('utf-8');
  let p = 0;
  while (p + 30 <= bytes.length && readU32(bytes, p) === 0x04034b50) {
    if (entries.length >= ZIP_LIMITS.maxEntries) break;
    const flags = readU16(bytes, p + 6);
    const method = readU16(bytes, p + 8);
    const nameLength = readU16(bytes, p + 26);
    const extraLength = readU16(bytes, p + 28);
    const dataStart = p + 30 + nameLength + extraLength;
    if (dataStart > bytes.length) break;
    const nameBytes = bytes.subarray(p + 30, p + 30 + nameLength);
    const name = flags & 0x800 ? decoder.decode(nameBytes) : Buffer.from(nameBytes).toString('latin1');
    // The local header's ZIP64 field holds the uncompressed size first, then the compressed one.
    const wide = zip64Fields(bytes.subarray(p + 30 + nameLength, dataStart), readU32(bytes, p + 22), readU32(bytes, p + 18), 0);
    const entry = { name, method, encrypted: (flags & 1) === 1, compressedSize: wide.compressed, declaredSize: wide.declared, localHeaderOffset: p, isDirectory: name.endsWith('/') };
    const measured = flags & 8 ? describedEnd(bytes, dataStart, method) : null;
    const next = measured ? measured.next : dataStart + entry.compressedSize;
    if ((flags & 8 && !measured) || next > bytes.length) {
      if (name.endsWith('/')) break;
      entries.push({ ...entry, compressedSize: bytes.length - dataStart });
      return { entries, end: p, cut: name };
    }
    entries.push(measured ? { ...entry, compressedSize: measured.compressedSize, declaredSize: measured.declaredSize } : entry);
    p = next;
  }
  return { entries, end: entries.length > 0 ? p : 0, cut: null };
}

/** Where a member whose sizes follow its data ends, with its sizes; null where its data is cut or cannot be measured. */
function describedEnd(bytes: Uint8Array, dataStart: number, method: number): { compressedSize: number; declaredSize: number; next: number } | null {
  let dataEnd = -1;
  let declaredSize = 0;
  if (method === 8) {
    try {
      // Inflating to the end of the deflate stream says how many bytes it took; a stream cut short throws.
      const { buffer, engine } = inflateRawSync(bytes.subarray(dataStart), { info: true, maxOutputLength: ZIP_LIMITS.maxEntryBytes }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      dataEnd = dataStart + engine.bytesWritten;
      declaredSize = buffer.length;
    } catch {
      return null;
    }
  } else {
    // Stored data: the descriptor whose compressed size is its distance from the data's start.
    for (let q = dataStart; q + 16 <= bytes.length; q++) {
      if (readU32(bytes, q) === 0x08074b50 && readU32(bytes, q + 8) === q - dataStart) {
        dataEnd = q;
        break;
      }
    }
    if (dataEnd < 0) return null;
    declaredSize = dataEnd - dataStart;
  }
  // The descriptor: an optional signature, the CRC, then both sizes in 4 bytes each (8 in ZIP64).
  const signed = readU32(bytes, dataEnd) === 0x08074b50 ? 4 : 0;
  for (const width of [4, 8]) {
    const next = dataEnd + signed + 4 + 2 * width;
    if (next > bytes.length) break;
    // The next header, or the cut (within it or right after the descriptor).
    if (next + 4 > bytes.length || readU32(bytes, next) === 0x04034b50 || readU32(bytes, next) === 0x02014b50) return { compressedSize: dataEnd - dataStart, declaredSize, next };
  }
  return null;
}

function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  const eocd = findEocd(bytes);
  if (eocd < 0) throw corrupt('the end of the ZIP directory is missing (the file is truncated or not a ZIP archive)');
  let count = readU16(bytes, eocd + 10);
  let size = readU32(bytes, eocd + 12);
  let offset = readU32(bytes, eocd + 16);
  // A field at its maximum says the ZIP64 end record holds it: some writers (Windows' XPS, .NET packaging) use it for any archive.
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const zip64 = zip64End(bytes, eocd);
    if (!zip64) throw corrupt('its ZIP64 end record is missing');
    ({ count, size, offset } = zip64);
  }
  if (count > ZIP_LIMITS.maxEntries) {
    throw new ExtractionError('refused_file', `Refused: the archive has ${count} entries; the limit is ${ZIP_LIMITS.maxEntries}.`);
  }
  if (offset + size > bytes.length) throw corrupt('the ZIP directory points past the end of the file (the file is truncated)');
  const entries: ZipEntry[] = [];
  let p = offset;
  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || readU32(bytes, p) !== 0x02014b50) throw corrupt('the ZIP directory is damaged');
    const flags = readU16(bytes, p + 8);
    const nameLength = readU16(bytes, p + 28);
    const extraLength = readU16(bytes, p + 30);
    const commentLength = readU16(bytes, p + 32);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLength);
    // Bit 11 marks UTF-8 names; older tools wrote CP437, of which ASCII is the common part.
    const name = flags & 0x800 ? decoder.decode(nameBytes) : Buffer.from(nameBytes).toString('latin1');
    const wide = zip64Fields(bytes.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), readU32(bytes, p + 24), readU32(bytes, p + 20), readU32(bytes, p + 42));
    entries.push({
      name,
      method: readU16(bytes, p + 10),
      encrypted: (flags & 1) === 1,
      compressedSize: wide.compressed,
      declaredSize: wide.declared,
      localHeaderOffset: wide.offset,
      isDirectory: name.endsWith('/'),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEocd(bytes: Uint8Array): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 0x05 && bytes[i + 3] === 0x06) return i;
  }
  return -1;
}

/** The ZIP64 end record's entry count, directory size and offset, found by its locator just before the end record; null without one. */
function zip64End(bytes: Uint8Array, eocd: number): { count: number; size: number; offset: number } | null {
  const locator = eocd - 20;
  if (locator < 0 || readU32(bytes, locator) !== 0x07064b50) return null;
  const at = readU64(bytes, locator + 8);
  if (at + 56 > bytes.length || readU32(bytes, at) !== 0x06064b50) return null;
  return { count: readU64(bytes, at + 32), size: readU64(bytes, at + 40), offset: readU64(bytes, at + 48) };
}

/**
 * An entry's sizes and local header offset: where the directory entry holds 0xffffffff, the value is in its
 * ZIP64 extra field (id 1), in this order, each present only where its field overflowed.
 */
function zip64Fields(extra: Uint8Array, declared: number, compressed: number, offset: number): { declared: number; compressed: number; offset: number } {
  const out = { declared, compressed, offset };
  for (let q = 0; q + 4 <= extra.length; ) {
    const id = readU16(extra, q);
    const length = readU16(extra, q + 2);
    if (id === 1) {
      let at = q + 4;
      const end = Math.min(extra.length, at + length);
      for (const key of ['declared', 'compressed', 'offset'] as const) {
        if (out[key] !== 0xffffffff || at + 8 > end) continue;
        out[key] = readU64(extra, at);
        at += 8;
      }
      break;
    }
    q += 4 + length;
  }
  return out;
}

/** A little-endian 64-bit field, as a number: past 2^53 it is no offset into a file held in memory anyway. */
function readU64(b: Uint8Array, at: number): number {
  return readU32(b, at) + readU32(b, at + 4) * 2 ** 32;
}

function readU16(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}

function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function corrupt(what: string): ExtractionError {
  return new ExtractionError('corrupt_file', `The archive could not be read: ${what}.`);
}

function bomb(name: string): ExtractionError {
  return new ExtractionError('refused_file', `Refused: the archive member "${name}" inflates more than ${ZIP_LIMITS.maxRatio}:1 (a decompression bomb?).`);
}

function tooLarge(name: string): ExtractionError {
  return new ExtractionError(
    'refused_file',
    `Refused: the archive member "${name}" inflates past the size limit (${ZIP_LIMITS.maxEntryBytes / 1024 / 1024} MB per member, ${ZIP_LIMITS.maxTotalBytes / 1024 / 1024} MB per document).`,
  );
}
