// Files carried by OLE objects: what Office stores when a document, a PDF or
// any file is inserted into another as an object. Each object is a storage
// of a compound file (a Word document's ObjectPool holds one per object, an
// Excel workbook's MBD storages one each; an OOXML document's
// word/embeddings/*.bin and a PowerPoint 97 presentation's object records
// are compound files of their own), and its file is in one of three streams:
//   Package       an OOXML document (a workbook in a Word 97 document), whole;
//   CONTENTS      the file an OLE server keeps as is (Acrobat's PDF, an RTF);
//   \x01Ole10Native  a packaged file (Object Packager, "insert file as object"):
//                 its label, its original path and its bytes.
// An object kept as Office 97 storages of its own (a Workbook stream inside
// the object's storage, an Excel 97 workbook inserted into a Word 97
// document) is written out as a compound file of its own (compound-writer.ts)
// and read as that document.

import { type CfbEntry, CompoundFile } from './compound-file.ts';
import { ExtractionError } from '../engine/types.ts';
import { type CfbNode, writeCompoundFile } from './compound-writer.ts';

export interface EmbeddedFile {
  /** The file's own name where the object says (a packaged file's), else null. */
  name: string | null;
  bytes: Uint8Array;
  /** Why the object could not be taken out of its document (it is damaged, or too large to write out). */
  error?: ExtractionError;
}

/** The streams that make a storage an Office 97-2003 document of its own. */
const DOCUMENT_STREAMS = ['WORDDOCUMENT', 'WORKBOOK', 'BOOK', 'POWERPOINT DOCUMENT'];
/** The most an object kept as storages may hold to be written out and read (the writer's bound). */
const MAX_STORAGE_BYTES = 7_000_000;

/** The files of the objects in `storages`, in the order Office numbered them (each storage is named for its object's id). */
export function objectFiles(cfb: CompoundFile, storages: CfbEntry[]): EmbeddedFile[] {
  return [...storages]
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
    .map((o) => {
      try {
        return objectFile(cfb, o.id);
      } catch (err) {
        // A damaged object costs its own text, not the document's.
        if (err instanceof ExtractionError) return { name: null, bytes: new Uint8Array(0), error: err };
        throw err;
      }
    })
    .filter((f): f is EmbeddedFile => f !== null);
}

/**
 * The file an object kept as a compound file of its own carries (an OOXML
 * part, a PowerPoint 97 object record): its Package, CONTENTS or packaged
 * file; else the compound file itself, which may be an Office 97-2003
 * document (detection tells by its streams), and a damaged one as it is, to
 * fail as that object's.
 */
export function compoundObject(bytes: Uint8Array): EmbeddedFile {
  try {
    return objectFile(new CompoundFile(bytes, 'An embedded object'), 0) ?? { name: null, bytes };
  } catch (err) {
    if (err instanceof ExtractionError) return { name: null, bytes };
    throw err;
  }
}

/** Whether `bytes` start as a compound file does. */
export const isCompoundFile = (bytes: Uint8Array) => CFB_MAGIC.every((b, i) => bytes[i] === b);

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The file the object in `storage` carries, or null where it carries none readable as a file. */
export function objectFile(cfb: CompoundFile, storage: number): EmbeddedFile | null {
  const streams = new Map(cfb.entriesOf(storage).filter((e) => !e.storage).map((e) => [e.name.toUpperCase(), e]));
  const native = streams.get('\u0001OLE10NATIVE');
  if (native) return packagedFile(cfb.readEntry(native.id));
  const file = streams.get('PACKAGE') ?? streams.get('CONTENTS');
  if (file && file.size > 0) return { name: null, bytes: cfb.readEntry(file.id) };
  return DOCUMENT_STREAMS.some((n) => streams.has(n)) ? { name: null, bytes: writeCompoundFile(storageNodes(cfb, storage, { left: MAX_STORAGE_BYTES })) } : null;
}

/** What `storage` holds, streams and storages, as the writer takes them; `budget` bounds the bytes copied. */
function storageNodes(cfb: CompoundFile, storage: number, budget: { left: number }): CfbNode[] {
  return cfb.entriesOf(storage).map((e): CfbNode => {
    if (e.storage) return { name: e.name, children: storageNodes(cfb, e.id, budget) };
    budget.left -= e.size;
    if (budget.left < 0) throw new ExtractionError('refused_file', 'Refused: an object in the document holds more than 7 MB of storages of its own, more than is written out to read it.');
    return { name: e.name, data: cfb.readEntry(e.id) };
  });
}

/**
 * A packaged file ([MS-OLEDS] 2.3.6, as Object Packager writes it): the
 * stream's size, two bytes of flags, the label and the original path (each
 * ANSI, ended by a NUL), four bytes, the temporary path's length and the path,
 * then the file's size and bytes. A stream that does not parse so is taken
 * for the file itself, after its size, as Office reads such streams.
 */
function packagedFile(stream: Uint8Array): EmbeddedFile | null {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const whole = (): EmbeddedFile | null => (stream.length > 4 ? { name: null, bytes: stream.subarray(4) } : null);
  let at = 6;
  const ansiz = (): string | null => {
    const end = stream.indexOf(0, at);
    if (end < 0) return null;
    const s = new TextDecoder('latin1').decode(stream.subarray(at, end));
    at = end + 1;
    return s;
  };
  const label = ansiz();
  const path = label === null ? null : ansiz();
  if (path === null || at + 8 > stream.length) return whole();
  at += 4;
  const commandLength = view.getUint32(at, true);
  at += 4 + commandLength;
  if (at + 4 > stream.length) return whole();
  const size = view.getUint32(at, true);
  at += 4;
  if (size === 0 || at + size > stream.length) return whole();
  const name = (path.split(/[\\/]/).pop() || label || '').trim();
  return { name: name || null, bytes: stream.subarray(at, at + size) };
}
