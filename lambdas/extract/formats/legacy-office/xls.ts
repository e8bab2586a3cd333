// XLS (Excel 97-2003, BIFF8; Excel 5/95 BIFF5 too): the Workbook stream of a
// compound file read record by record. Like XLSX, every sheet becomes a page
// of its tables and notes (engine/sheets.ts), with numbers and dates shown
// through their number formats and merged cells (MERGEDCELLS) repeating their
// value, then its text boxes' text and its cell comments with their authors
// (BIFF8's TXO and NOTE records). Formulas give their cached results; nothing
// is recalculated. A hidden sheet (BOUNDSHEET's state) is read but not
// written, as XLSX's.

import { CompoundFile, summaryInformation } from '../../containers/compound-file.ts';
import { decodeCodepage } from '../../containers/text-decoding.ts';
import { type EmbeddedFile, objectFiles } from '../../containers/ole-objects.ts';
import { BIFF, BIFF_VB_MODULE, workbookStream } from './biff.ts';
import type { OutputMode } from '../../engine/blocks.ts';
import { BUILTIN_FORMATS, formatGeneral, formatNumber } from '../../engine/number-formats.ts';
import { columnName, type Drawing, selectedNumbers, sheetsOutput, type Sheet } from '../../engine/sheets.ts';
import type { CellRange } from '../../engine/merged-cells.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';
import { checkUnitLimit, MAX_CELLS, SHEET_LIMIT, tooManyCells } from '../../engine/limits.ts';

/** Characters of cell text read from one workbook: shared strings can repeat one long string in every cell. */
export const MAX_CELL_TEXT = 50_000_000;

const WHAT = 'The Excel workbook';

const R = {
  FORMULA: 0x0006,
  FILEPASS: 0x002f,
  DATEMODE: 0x0022,
  CONTINUE: 0x003c,
  CODEPAGE: 0x0042,
  MULRK: 0x00bd,
  RSTRING: 0x00d6,
  XF: 0x00e0,
  SST: 0x00fc,
  LABELSST: 0x00fd,
  NUMBER: 0x0203,
  LABEL: 0x0204,
  BOOLERR: 0x0205,
  STRING: 0x0207,
  RK: 0x027e,
  FORMAT: 0x041e,
  SHRFMLA: 0x04bc,
  ARRAY: 0x0221,
  TABLE: 0x0236,
  NOTE: 0x001c,
  OBJ: 0x005d,
  TXO: 0x01b6,
  MERGEDCELLS: 0x00e5,
} as const;

/** OBJ record object types (ftCmo.ot) whose text a TXO record holds. */
const OBJ_NOTE = 0x19;

/** Formula results and BOOLERR cells that hold an error. */
const ERRORS: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA',
};

/** BIFF8 has 256 columns; a cell claiming more comes from a damaged or hostile file. */
const MAX_COLUMN = 255;

interface BiffRecord {
  type: number;
  /** The record's data, without its 4-byte header. */
  data: DataView;
  bytes: Uint8Array;
  /** Offset of the next record. */
  next: number;
}

interface Workbook {
  biff8: boolean;
  codepage: number;
  date1904: boolean;
  formats: Map<number, string>;
  /** The format of each XF record, in order: cells name their XF by its index. */
  xfFormats: number[];
  strings: string[];
  sheets: Array<{ name: string; offset: number; hidden: boolean }>;
}

/** The files of the workbook's objects: each in an MBD storage named for its id ("MBD0012A3F4"). */
export function workbookObjects(bytes: Uint8Array): EmbeddedFile[] {
  const cfb = new CompoundFile(bytes, WHAT);
  return objectFiles(cfb, cfb.entriesOf().filter((e) => e.storage && /^MBD[0-9A-F]{8}$/i.test(e.name)));
}

/** `pages`: 1-based sheet numbers to read (config.pages); null for every sheet. */
export function extractXls(bytes: Uint8Array, mode: OutputMode, pages: number[] | null = null): FormatOutput {
  const cfb = new CompoundFile(bytes, WHAT);
  const stream = workbookStream(cfb);
  if (!stream) throw new ExtractionError('corrupt_file', `${WHAT} could not be read: the file has no Workbook stream. Open it in Excel and save it again.`);
  const reader = new BiffReader(stream, cfb);
  const book = reader.globals();
  checkUnitLimit(SHEET_LIMIT, book.sheets.length);
  const budget = { cells: MAX_CELLS, chars: MAX_CELL_TEXT, scanned: 0 };
  const kept = selectedNumbers(book.sheets.length, pages);
  const sheets = kept.map((n): Sheet => {
    const { name, offset, hidden } = book.sheets[n - 1]!;
    return { name, hidden, ...reader.sheet(offset, book, budget) };
  });
  return sheetsOutput(sheets, mode, summaryInformation(cfb), { names: book.sheets.map((s) => s.name), kept, selected: pages !== null });
}

class BiffReader {
  private readonly view: DataView;

  constructor(
    private readonly stream: Uint8Array,
    private readonly cfb: CompoundFile,
  ) {
    this.view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  }

  record(pos: number): BiffRecord | null {
    if (pos + 4 > this.stream.length) return null;
    const type = this.view.getUint16(pos, true);
    const length = this.view.getUint16(pos + 2, true);
    const start = pos + 4;
    if (start + length > this.stream.length) throw this.cfb.damaged(`a record at offset ${pos} of the Workbook stream runs past its end`);
    const bytes = this.stream.subarray(start, start + length);
    return { type, bytes, data: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), next: start + length };
  }

  /** A record and the CONTINUE records after it, as one list of pieces. */
  private continued(first: BiffRecord): { pieces: Uint8Array[]; next: number } {
    const pieces = [first.bytes];
    let next = first.next;
    for (let r = this.record(next); r?.type === R.CONTINUE; r = this.record(next)) {
      pieces.push(r.bytes);
      next = r.next;
    }
    return { pieces, next };
  }

  globals(): Workbook {
    const bof = this.record(0);
    if (!bof || bof.type !== BIFF.BOF || bof.bytes.length < 4) throw this.cfb.damaged('the Workbook stream does not start with a BOF record');
    const version = bof.data.getUint16(0, true);
    const book: Workbook = { biff8: version >= 0x0600, codepage: 1252, date1904: false, formats: new Map(), xfFormats: [], strings: [], sheets: [] };
    if (!book.biff8 && version !== 0x0500) {
      throw new ExtractionError('unsupported_format', 'Unsupported format: the file is an Excel workbook older than Excel 5. Open it in Excel and save it as .xlsx.');
    }
    for (let pos = bof.next, r = this.record(pos); r && r.type !== BIFF.EOF; pos = r.next, r = this.record(pos)) {
      const { data, bytes } = r;
      switch (r.type) {
        case R.FILEPASS:
          throw new ExtractionError('encrypted_file', 'The Excel workbook is password-protected; remove the password and resubmit.');
        case R.CODEPAGE:
          if (bytes.length >= 2) book.codepage = data.getUint16(0, true);
          break;
        case R.DATEMODE:
          if (bytes.length >= 2) book.date1904 = data.getUint16(0, true) === 1;
          break;
        case R.FORMAT:
          if (bytes.length >= 3) {
            const s = new Pieces([bytes], 2);
            book.formats.set(data.getUint16(0, true), book.biff8 ? s.unicode(s.u16()) : this.byteString(s, s.u8(), book));
          }
          break;
        case R.XF:
          if (bytes.length >= 4) book.xfFormats.push(data.getUint16(2, true));
          break;
        case BIFF.BOUNDSHEET:
          if (bytes.length >= 7 && bytes[5] !== BIFF_VB_MODULE) {
            const s = new Pieces([bytes], 6);
            const name = book.biff8 ? s.unicode(s.u8()) : this.byteString(s, s.u8(), book);
            // The state's low bits: 0 visible, 1 hidden, 2 very hidden (only a macro shows it).
            book.sheets.push({ name: name || `Sheet${book.sheets.length + 1}`, offset: data.getUint32(0, true), hidden: (bytes[4]! & 3) !== 0 });
          }
          break;
        case R.SST: {
          const { pieces, next } = this.continued(r);
          book.strings = sharedStrings(pieces);
          r = { ...r, next };
          break;
        }
      }
    }
    return book;
  }

  /** A worksheet's cells, from its BOF at `offset` to its EOF; charts and other substreams inside it are skipped. */
  /**
   * A sheet's cells, its cell comments (NOTE records naming the object whose TXO holds the text) and the text of
   * its other text objects (text boxes, shapes with text), in the sheet's order.
   */
  sheet(offset: number, book: Workbook, budget: { cells: number; chars: number; scanned: number }): Pick<Sheet, 'rows' | 'merges' | 'comments' | 'drawings'> {
    const rows: string[][] = [];
    const merges: CellRange[] = [];
    // Each text object's text by its object id, its kind from the OBJ record before it; the notes' cells, ids and authors.
    const texts = new Map<number, { text: string; note: boolean }>();
    const notes: Array<{ row: number; col: number; id: number; author: string }> = [];
    let lastObj: { id: number; type: number } | null = null;
    const put = (row: number, col: number, text: string) => {
      if (text === '' || col > MAX_COLUMN) return;
      if (--budget.cells < 0) throw tooManyCells('workbook');
      budget.chars -= text.length;
      if (budget.chars < 0) {
        throw new ExtractionError('refused_file', `Refused: the workbook's cells hold more than ${MAX_CELL_TEXT.toLocaleString('en-US')} characters of text. Split it into smaller workbooks and resubmit.`);
      }
      (rows[row] ??= [])[col] = text;
    };
    const number = (row: number, col: number, xf: number, value: number) => put(row, col, this.shown(value, xf, book));

    const bof = this.record(offset);
    if (!bof || bof.type !== BIFF.BOF) throw this.cfb.damaged(`a sheet's data is not where the workbook says (offset ${offset})`);
    let depth = 0;
    // A formula whose result is a string is followed by a STRING record with it.
    let pendingString: { row: number; col: number } | null = null;
    let pos = offset;
    for (let r = this.record(pos); r; r = this.record(pos)) {
      // Sheets do not overlap, so reading more than the whole stream means the sheet offsets were forged.
      budget.scanned += r.next - pos;
      if (budget.scanned > this.stream.length) throw this.cfb.damaged('the sheets overlap');
      pos = r.next;
      const { data, bytes } = r;
      if (r.type === BIFF.BOF) {
        depth++;
        continue;
      }
      if (r.type === BIFF.EOF) {
        if (--depth === 0) break;
        continue;
      }
      if (depth !== 1) continue;
      if (book.biff8 && r.type === R.OBJ && bytes.length >= 8 && data.getUint16(0, true) === 0x15) {
        lastObj = { type: data.getUint16(4, true), id: data.getUint16(6, true) };
        continue;
      }
      if (book.biff8 && r.type === R.TXO && bytes.length >= 14) {
        // The text follows in CONTINUE records, each opening with its own option byte; the formatting runs after it.
        const { pieces, next } = this.continued(r);
        const length = data.getUint16(10, true);
        const text = length > 0 && pieces.length > 1 ? new Pieces(pieces.slice(1), 0).unicode(length) : '';
        budget.chars -= text.length;
        if (lastObj && text.trim()) texts.set(lastObj.id, { text: text.replace(/\r\n?/g, '\n').trim(), note: lastObj.type === OBJ_NOTE });
        budget.scanned += next - pos;
        pos = next;
        lastObj = null;
        continue;
      }
      if (book.biff8 && r.type === R.NOTE && bytes.length >= 8) {
        const s = new Pieces([bytes], 8);
        const author = bytes.length >= 11 ? s.unicode(s.u16()).replace(/\0+$/, '').trim() : '';
        notes.push({ row: data.getUint16(0, true), col: data.getUint16(2, true), id: data.getUint16(6, true), author });
        continue;
      }
      if (r.type === R.MERGEDCELLS && bytes.length >= 2) {
        const count = Math.min(data.getUint16(0, true), Math.floor((bytes.length - 2) / 8));
        for (let i = 0; i < count; i++) {
          const at = 2 + 8 * i;
          const [top, bottom, left, right] = [data.getUint16(at, true), data.getUint16(at + 2, true), data.getUint16(at + 4, true), data.getUint16(at + 6, true)];
          if (top <= bottom && left <= right && left <= MAX_COLUMN) merges.push({ top, bottom, left, right: Math.min(right, MAX_COLUMN) });
        }
        continue;
      }
      if (r.type === R.STRING) {
        if (pendingString) {
          const { pieces, next } = this.continued(r);
          const s = new Pieces(pieces, 0);
          put(pendingString.row, pendingString.col, book.biff8 ? s.unicode(s.u16()) : this.byteString(s, s.u16(), book));
          budget.scanned += next - pos;
          pos = next;
          pendingString = null;
        }
        continue;
      }
      // Shared and array formulas may stand between a formula and its STRING.
      if (r.type !== R.SHRFMLA && r.type !== R.ARRAY && r.type !== R.TABLE) pendingString = null;
      if (bytes.length < 6) continue;
      const row = data.getUint16(0, true);
      const col = data.getUint16(2, true);
      const xf = data.getUint16(4, true);
      switch (r.type) {
        case R.LABELSST:
          if (bytes.length >= 10) put(row, col, book.strings[data.getUint32(6, true)] ?? '');
          break;
        case R.LABEL:
        case R.RSTRING:
          if (bytes.length >= 8) {
            const s = new Pieces([bytes], 6);
            put(row, col, book.biff8 ? s.unicode(s.u16()) : this.byteString(s, s.u16(), book));
          }
          break;
        case R.NUMBER:
          if (bytes.length >= 14) number(row, col, xf, data.getFloat64(6, true));
          break;
        case R.RK:
          if (bytes.length >= 10) number(row, col, xf, rkNumber(data.getUint32(6, true)));
          break;
        case R.MULRK:
          for (let i = 0; 4 + 6 * i + 6 <= bytes.length - 2; i++) {
            number(row, col + i, data.getUint16(4 + 6 * i, true), rkNumber(data.getUint32(6 + 6 * i, true)));
          }
          break;
        case R.BOOLERR:
          if (bytes.length >= 8) put(row, col, bytes[7] ? (ERRORS[bytes[6]!] ?? '#ERROR') : bytes[6] ? 'TRUE' : 'FALSE');
          break;
        case R.FORMULA:
          if (bytes.length < 14) break;
          if (data.getUint16(12, true) !== 0xffff) number(row, col, xf, data.getFloat64(6, true));
          else if (bytes[6] === 0) pendingString = { row, col };
          else if (bytes[6] === 1) put(row, col, bytes[8] ? 'TRUE' : 'FALSE');
          else if (bytes[6] === 2) put(row, col, ERRORS[bytes[8]!] ?? '#ERROR');
          break;
      }
    }
    for (let i = 0; i < rows.length; i++) rows[i] = Array.from(rows[i] ?? [], (c) => c ?? '');
    const comments = notes.flatMap((n) => {
      const t = texts.get(n.id);
      if (!t) return [];
      // Excel opens a note with its author's name ("Ada:"): the author is written apart.
      const text = n.author && t.text.startsWith(`${n.author}:`) ? t.text.slice(n.author.length + 1).trim() : t.text;
      return text ? [{ ref: `${columnName(n.col)}${n.row + 1}`, text, ...(n.author ? { author: n.author } : {}) }] : [];
    });
    const drawings = [...texts.values()].filter((t) => !t.note).map((t): Drawing => ({ kind: 'text', text: t.text }));
    return { rows, merges, ...(comments.length > 0 ? { comments } : {}), ...(drawings.length > 0 ? { drawings } : {}) };
  }

  /** A number as its cell's format shows it. */
  private shown(value: number, xf: number, book: Workbook): string {
    const id = book.xfFormats[xf] ?? 0;
    const code = book.formats.get(id) ?? BUILTIN_FORMATS[id] ?? 'General';
    try {
      return formatNumber(value, code, book.date1904);
    } catch {
      return formatGeneral(value);
    }
  }

  /** Excel 5/95 strings: bytes in the workbook's code page. */
  private byteString(s: Pieces, length: number, book: Workbook): string {
    return decodeCodepage(s.take(length), book.codepage);
  }
}

/** An RK value: a 30-bit integer or the top 30 bits of a double, optionally hundredths. */
function rkNumber(rk: number): number {
  let n: number;
  if (rk & 2) n = (rk | 0) >> 2;
  else {
    const d = new DataView(new ArrayBuffer(8));
    d.setUint32(4, rk & 0xfffffffc, true);
    n = d.getFloat64(0, true);
  }
  return rk & 1 ? n / 100 : n;
}

/**
 * The shared-string table. It spans the SST record and its CONTINUE
 * records; a string's characters may be cut at a record boundary, and the
 * continuation then starts with a fresh option byte saying whether the rest
 * is one or two bytes a character.
 */
function sharedStrings(pieces: Uint8Array[]): string[] {
  const s = new Pieces(pieces, 8);
  const head = pieces[0]!;
  const unique = head.length >= 8 ? new DataView(head.buffer, head.byteOffset, 8).getUint32(4, true) : 0;
  const out: string[] = [];
  // Each string takes at least three bytes, so the data bounds the loop whatever the count claims.
  while (out.length < unique && !s.done) out.push(s.richString());
  return out;
}

/** A cursor over record data that may continue into CONTINUE records. */
class Pieces {
  private piece = 0;

  constructor(
    private readonly pieces: Uint8Array[],
    private pos: number,
  ) {}

  get done(): boolean {
    this.settle();
    return this.piece >= this.pieces.length;
  }

  /** Moves past exhausted pieces; fields other than characters run on into the next piece. */
  private settle(): void {
    while (this.piece < this.pieces.length && this.pos >= this.pieces[this.piece]!.length) {
      this.piece++;
      this.pos = 0;
    }
  }

  u8(): number {
    this.settle();
    const p = this.pieces[this.piece];
    return p ? p[this.pos++]! : 0;
  }

  u16(): number {
    return this.u8() | (this.u8() << 8);
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0;
  }

  skip(n: number): void {
    for (let left = n; left > 0 && !this.done; ) {
      const p = this.pieces[this.piece]!;
      const step = Math.min(left, p.length - this.pos);
      this.pos += step;
      left -= step;
    }
  }

  take(n: number): Uint8Array {
    const parts: Uint8Array[] = [];
    for (let left = n; left > 0 && !this.done; ) {
      const p = this.pieces[this.piece]!;
      const step = Math.min(left, p.length - this.pos);
      parts.push(p.subarray(this.pos, this.pos + step));
      this.pos += step;
      left -= step;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** `count` characters after an option byte (bit 0: two bytes a character). */
  unicode(count: number): string {
    return this.chars(count, this.u8());
  }

  private chars(count: number, options: number): string {
    let out = '';
    let wide = (options & 1) === 1;
    let left = count;
    while (left > 0) {
      const p = this.pieces[this.piece];
      if (!p) break;
      const fit = Math.min(left, wide ? (p.length - this.pos) >> 1 : p.length - this.pos);
      const bytes = p.subarray(this.pos, this.pos + (wide ? 2 * fit : fit));
      out += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(wide ? 'utf16le' : 'latin1');
      this.pos += bytes.length;
      left -= fit;
      if (left === 0) break;
      // Cut at a record boundary: the next piece opens with the option byte for the rest.
      this.piece++;
      this.pos = 0;
      const next = this.pieces[this.piece];
      if (!next || next.length === 0) break;
      wide = (next[this.pos++]! & 1) === 1;
    }
    return out;
  }

  /** A shared string: count, options, then rich-text runs and phonetic data after the characters, which are skipped. */
  richString(): string {
    const count = this.u16();
    const options = this.u8();
    const runs = options & 0x08 ? this.u16() : 0;
    const phonetic = options & 0x04 ? this.u32() : 0;
    const text = this.chars(count, options);
    this.skip(4 * runs + phonetic);
    return text;
  }
}
