// Objects inserted into a PowerPoint 97-2003 presentation: each is an
// ExOleObjStg record of the live document (the persist directory's), holding
// the object's compound file, zlib-compressed where its instance says so.
// Inflating is held to the document's inflation budget, as a ZIP's members are.

import { constants, inflateSync } from 'node:zlib';
import { CompoundFile } from '../../containers/compound-file.ts';
import { compoundObject, type EmbeddedFile } from '../../containers/ole-objects.ts';
import type { InflateBudget } from '../../containers/zip.ts';
import { ExtractionError } from '../../engine/types.ts';
import { persistedRecord, pptDocument } from './ppt-records.ts';

const EX_OLE_OBJ_STG = 0x1011;
const COMPRESSED = 1;

export function presentationObjects(bytes: Uint8Array, budget: InflateBudget): EmbeddedFile[] {
  const doc = pptDocument(new CompoundFile(bytes, 'The PowerPoint presentation'));
  if (!doc) return [];
  const files: EmbeddedFile[] = [];
  for (const id of [...doc.persist.keys()].sort((a, b) => a - b)) {
    const r = persistedRecord(doc.stream, doc.persist, id);
    if (r?.type !== EX_OLE_OBJ_STG || r.end - r.start < 4) continue;
    const data = doc.stream.subarray(r.start, r.end);
    const stored = r.instance === COMPRESSED ? inflated(data, budget) : data;
    if (stored) files.push(compoundObject(stored));
  }
  return files;
}

/** The object's bytes: their size, then the zlib stream; null where it does not inflate. */
function inflated(data: Uint8Array, budget: InflateBudget): Uint8Array | null {
  const size = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  if (size > budget.remaining) throw new ExtractionError('refused_file', 'Refused: an object in the presentation inflates past the size limit (512 MB per document).');
  try {
    // PowerPoint ends some objects' streams without zlib's final block: what inflated is the object.
    const out = inflateSync(data.subarray(4), { maxOutputLength: Math.max(1, size), finishFlush: constants.Z_SYNC_FLUSH });
    budget.remaining -= out.length;
    return out;
  } catch {
    return null;
  }
}
