// An XLS workbook's BIFF records, as far as both the reader (xls.ts) and
// the page count at submission (index.ts) need them: the workbook stream
// and its sheet list, read without reading any sheet.

import type { CompoundFile } from '../../containers/compound-file.ts';

/** BIFF record types shared by the reader (xls.ts) and the page count. */
export const BIFF = { BOF: 0x0809, EOF: 0x000a, BOUNDSHEET: 0x0085 } as const;

/** Sheet types (BOUNDSHEET dt) that are Visual Basic modules: no cells, no BOF of their own, so not a page. */
export const BIFF_VB_MODULE = 6;

/** The Workbook stream (Book in Excel 5/95 files), or null. */
export function workbookStream(cfb: CompoundFile, limit = Infinity): Uint8Array | null {
  return cfb.read('Workbook', limit) ?? cfb.read('Book', limit);
}

/** Sheets listed in the workbook globals, counted without reading any sheet: the pages of an XLS. */
export function countWorkbookSheets(cfb: CompoundFile): number {
  // The sheet list comes early in the globals, before the shared strings; this much always holds it.
  const stream = workbookStream(cfb, 8 * 1024 * 1024);
  if (!stream) return 1;
  const d = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let sheets = 0;
  for (let pos = 0; pos + 4 <= stream.length; ) {
    const type = d.getUint16(pos, true);
    const length = d.getUint16(pos + 2, true);
    if (type === BIFF.EOF) break;
    if (type === BIFF.BOUNDSHEET && length >= 7 && pos + 10 <= stream.length && d.getUint8(pos + 9) !== BIFF_VB_MODULE) sheets++;
    pos += 4 + length;
  }
  return Math.max(1, sheets);
}
