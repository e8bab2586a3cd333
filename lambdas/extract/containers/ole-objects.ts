// Files carried by OLE objects: what Office stores when a document, a PDF or
// any file is inserted into another as an object. Each object is a storage
// of a compound file (a Word document's ObjectPool holds one per object; an
// OOXML document's word/embeddings/*.bin is a compound file of its own), and
// its file is in one of three streams:
//   Package       an OOXML document (a workbook in a Word 97 document), whole;
//   CONTENTS      the file an OLE server keeps as is (Acrobat's PDF, an RTF);
//   \x01Ole10Native  a packaged file (Object Packager, "insert file as object"):
//                 its label, its original path and its bytes.
// An object stored as Office 97 storages of its own (a Workbook stream inside
// the object's storage) is not a file here: it is left out.

import type { CompoundFile } from './compound-file.ts';

export interface EmbeddedFile {
  /** The file's own name where the object says (a packaged file's), else null. */
  name: string | null;
  bytes: Uint8Array;
}

/** The file the object in `storage` carries, or null where it carries none readable as a file. */
export function objectFile(cfb: CompoundFile, storage: number): EmbeddedFile | null {
  const streams = new Map(cfb.entriesOf(storage).filter((e) => !e.storage).map((e) => [e.name.toUpperCase(), e]));
  const native = streams.get('\u0001OLE10NATIVE');
  if (native) return packagedFile(cfb.readEntry(native.id));
  const file = streams.get('PACKAGE') ?? streams.get('CONTENTS');
  return file && file.size > 0 ? { name: null, bytes: cfb.readEntry(file.id) } : null;
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
