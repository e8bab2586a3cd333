// A PPT presentation's records, its persist directory and its slide list,
// as far as both the reader (ppt.ts) and the page count at submission
// (index.ts) need them.

import type { CompoundFile } from '../../containers/compound-file.ts';

export interface PptRecord {
  type: number;
  instance: number;
  /** Containers (version 0xF) hold records; atoms hold data. */
  container: boolean;
  /** Offset of the record's header in the stream. */
  offset: number;
  /** Offset of its data, and the end of its data (clamped to the enclosing record). */
  start: number;
  end: number;
}

/** The record types of the presentation's structure; ppt.ts knows those of its text. */
export const PPT = {
  DocumentContainer: 0x03e8,
  SlidePersistAtom: 0x03f3,
  SlideListWithText: 0x0ff0,
  UserEditAtom: 0x0ff5,
  CurrentUserAtom: 0x0ff6,
  PersistDirectoryAtom: 0x1772,
  CryptSession10Container: 0x2f14,
} as const;

/** Current User's header token when the presentation is encrypted. */
const ENCRYPTED_TOKEN = 0xf3d1c4df;

/** The record whose header is at `offset`, or null when no header fits before `limit`. */
export function pptRecordAt(stream: Uint8Array, offset: number, limit = stream.length): PptRecord | null {
  if (offset < 0 || offset + 8 > limit) return null;
  const d = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const verInstance = d.getUint16(offset, true);
  const start = offset + 8;
  return {
    type: d.getUint16(offset + 2, true),
    instance: verInstance >>> 4,
    container: (verInstance & 0xf) === 0xf,
    offset,
    start,
    end: Math.min(limit, start + d.getUint32(offset + 4, true)),
  };
}

/** The records directly inside `start..end`, in order. */
export function pptChildren(stream: Uint8Array, start: number, end: number): PptRecord[] {
  const out: PptRecord[] = [];
  for (let pos = start; ; ) {
    const r = pptRecordAt(stream, pos, end);
    if (!r) return out;
    out.push(r);
    pos = r.end;
  }
}

export interface PptDocument {
  stream: Uint8Array;
  /** Persist object id to its offset in the stream, the latest edit's wins. */
  persist: Map<number, number>;
  /** The live DocumentContainer; null when none can be found (an encrypted or damaged file). */
  document: PptRecord | null;
  encrypted: boolean;
}

/**
 * The live document: Current User names the latest UserEditAtom, each edit
 * names its persist directory and the one before; the latest edit's entries
 * win, and the document is the object its edit names. Without a usable
 * Current User stream the last edit in the stream is taken.
 */
export function pptDocument(cfb: CompoundFile): PptDocument | null {
  const stream = cfb.read('PowerPoint Document');
  if (!stream) return null;
  const d = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let encrypted = cfb.has('EncryptedSummary');
  let edit: number | null = null;
  const current = cfb.read('Current User', 4096);
  if (current && current.length >= 20) {
    const c = new DataView(current.buffer, current.byteOffset, current.byteLength);
    if (c.getUint16(2, true) === PPT.CurrentUserAtom) {
      if (c.getUint32(12, true) === ENCRYPTED_TOKEN) encrypted = true;
      edit = c.getUint32(16, true);
    }
  }
  if (pptRecordAt(stream, edit ?? -1)?.type !== PPT.UserEditAtom) edit = lastTopLevel(stream, PPT.UserEditAtom)?.offset ?? null;

  const persist = new Map<number, number>();
  let docRef: number | null = null;
  let sessionRef: number | null = null;
  let directoryBytes = 0;
  const seen = new Set<number>();
  while (edit !== null && !seen.has(edit)) {
    seen.add(edit);
    const atom = pptRecordAt(stream, edit);
    if (atom?.type !== PPT.UserEditAtom || atom.end - atom.start < 28) break;
    if (docRef === null) {
      docRef = d.getUint32(atom.start + 16, true);
      // Only an encrypted document's edit carries the id of its encryption session.
      if (atom.end - atom.start >= 32) sessionRef = d.getUint32(atom.start + 28, true);
    }
    const dir = pptRecordAt(stream, d.getUint32(atom.start + 12, true));
    if (dir?.type === PPT.PersistDirectoryAtom) {
      // Each edit's directory is its own stretch of the stream; forged ones that overlap would be read again and again.
      directoryBytes += dir.end - dir.start;
      if (directoryBytes > stream.length) throw cfb.damaged('its persist directories overlap');
      persistOffsets(d, dir, persist);
    }
    const previous = d.getUint32(atom.start + 8, true);
    edit = previous === 0 ? null : previous;
  }
  if (sessionRef !== null && persistedRecord(stream, persist, sessionRef)?.type === PPT.CryptSession10Container) encrypted = true;
  let document = docRef === null ? null : persistedRecord(stream, persist, docRef);
  if (document?.type !== PPT.DocumentContainer) document = lastTopLevel(stream, PPT.DocumentContainer);
  return { stream, persist, document, encrypted };
}

/** Adds a persist directory's entries to `into`, keeping entries already there (from later edits). */
function persistOffsets(d: DataView, dir: PptRecord, into: Map<number, number>): void {
  for (let pos = dir.start; pos + 4 <= dir.end; ) {
    const head = d.getUint32(pos, true);
    const first = head & 0xfffff;
    const count = head >>> 20;
    pos += 4;
    for (let i = 0; i < count && pos + 4 <= dir.end; i++, pos += 4) if (!into.has(first + i)) into.set(first + i, d.getUint32(pos, true));
  }
}

export function persistedRecord(stream: Uint8Array, persist: Map<number, number>, id: number): PptRecord | null {
  const offset = persist.get(id);
  return offset === undefined ? null : pptRecordAt(stream, offset);
}

function lastTopLevel(stream: Uint8Array, type: number): PptRecord | null {
  let last: PptRecord | null = null;
  for (const r of pptChildren(stream, 0, stream.length)) if (r.type === type) last = r;
  return last;
}

export interface SlideEntry {
  persistId: number;
  slideId: number;
  /** The records after the entry's SlidePersistAtom up to the next one: the outline text of its placeholders. */
  start: number;
  end: number;
}

/** The document's slide list (instance 0), master list (1) or notes list (2), in presentation order: the pages of a PPT. */
export function pptSlideList(doc: PptDocument, instance: 0 | 1 | 2): SlideEntry[] {
  const { stream, document } = doc;
  if (!document) return [];
  const d = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const list = pptChildren(stream, document.start, document.end).find((r) => r.type === PPT.SlideListWithText && r.instance === instance);
  if (!list) return [];
  const out: SlideEntry[] = [];
  for (const r of pptChildren(stream, list.start, list.end)) {
    if (r.type === PPT.SlidePersistAtom && r.end - r.start >= 16) {
      const last = out.at(-1);
      if (last) last.end = r.offset;
      out.push({ persistId: d.getUint32(r.start, true), slideId: d.getUint32(r.start + 12, true), start: r.end, end: list.end });
    }
  }
  return out;
}
