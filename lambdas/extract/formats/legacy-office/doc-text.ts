// The text of a Word 97-2003 document ([MS-DOC]), read from its compound
// file: the FIB says where everything is, the piece table (CLX, in the table
// stream) maps character positions to 8-bit or UTF-16 runs of the
// WordDocument stream, and the document's stories follow one another in
// character positions: body, footnotes, headers and footers, comments,
// endnotes, text boxes, header text boxes.
//
// The stories come out as plain text: a paragraph a line, a table's cells
// tab-separated and a row a line, fields as their results only, tracked
// deletions left out. Untrusted input: every offset is checked against its
// stream, and every loop is bounded by the bytes it reads.

import type { CompoundFile } from '../../containers/compound-file.ts';
import { decodeCodepage } from '../../containers/text-decoding.ts';
import { ExtractionError } from '../../engine/types.ts';
import { firstNotBefore } from '../../engine/binary-search.ts';

export interface WordText {
  body: string;
  footnotes: string;
  endnotes: string;
  /** Page headers, then page footers: each header story once, a story a line or more. */
  headers: string;
  footers: string;
  annotations: string;
  textboxes: string;
}

const WORD_IDENT = 0xa5ec;
/** The highest nFib of Word 6.0 and 95 (0x0065 to 0x0069), whose FIB and text layout differ from Word 97's. */
const NFIB_WORD95 = 0x0069;
const F_ENCRYPTED = 0x0100;
const F_WHICH_TBL_STM = 0x0200;

/** Indexes into FibRgFcLcb97 of the fc/lcb pairs read here. */
const FC_LCB = { PlcfHdd: 11, PlcfBteChpx: 12, PlcfBtePapx: 13, Clx: 33 } as const;
/** Indexes into FibRgLw97 of the story lengths, in character positions. */
const CCP = { Text: 3, Ftn: 4, Hdd: 5, Atn: 7, Edn: 8, Txbx: 9, HdrTxbx: 10 } as const;

const FKP_BYTES = 512;
const sprmCFRMarkDel = 0x0800;
const sprmPFTtp = 0x2417;
const sprmPFInnerTtp = 0x244c;
const sprmTDefTable = 0xd608;
const sprmPChgTabs = 0xc615;

const CELL_MARK = 0x07;
const PARAGRAPH_MARK = 0x0d;

/** A stream the FIB points into, each read checked against its length. */
class Bytes {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    private readonly fail: (detail: string) => ExtractionError,
    private readonly name: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  check(offset: number, length: number): void {
    if (!(offset >= 0 && length >= 0 && offset + length <= this.bytes.length)) throw this.fail(`${this.name} ends before the data it points to`);
  }
  u8(offset: number): number {
    this.check(offset, 1);
    return this.view.getUint8(offset);
  }
  u16(offset: number): number {
    this.check(offset, 2);
    return this.view.getUint16(offset, true);
  }
  u32(offset: number): number {
    this.check(offset, 4);
    return this.view.getUint32(offset, true);
  }
  slice(offset: number, length: number): Uint8Array {
    this.check(offset, length);
    return this.bytes.subarray(offset, offset + length);
  }
}

interface Piece {
  cp: number;
  cpEnd: number;
  fc: number;
  /** Bytes a character: 1 for 8-bit (Windows-1252) text, 2 for UTF-16. */
  bpc: 1 | 2;
}

export function readWordText(cfb: CompoundFile): WordText {
  const fail = (detail: string) => cfb.damaged(detail);
  const wordStream = cfb.read('WordDocument');
  if (!wordStream) throw fail('it has no WordDocument stream');
  const word = new Bytes(wordStream, fail, 'the WordDocument stream');
  if (wordStream.length < 34 || word.u16(0) !== WORD_IDENT) throw fail('the Word document header is not valid');
  if (word.u16(2) <= NFIB_WORD95) {
    throw new ExtractionError('unsupported_format', 'The Word document is in the Word 6.0/95 format, which is not supported. Open it in Word and save it as .docx or Word 97-2003 (.doc), then resubmit.');
  }
  const flags = word.u16(0x0a);
  if (flags & F_ENCRYPTED) throw new ExtractionError('encrypted_file', 'The Word document is password-protected; remove the password and resubmit.');

  // The FIB's parts are counted, so their positions are computed, not assumed.
  const csw = word.u16(32);
  const rgLw = 34 + 2 * csw + 2;
  const cslw = word.u16(rgLw - 2);
  const rgFcLcb = rgLw + 4 * cslw + 2;
  const cbRgFcLcb = word.u16(rgFcLcb - 2);
  const ccp = (i: number) => (i < cslw ? word.u32(rgLw + 4 * i) : 0);
  const fcLcb = (i: number) => (i < cbRgFcLcb ? { fc: word.u32(rgFcLcb + 8 * i), lcb: word.u32(rgFcLcb + 8 * i + 4) } : { fc: 0, lcb: 0 });

  const tableName = flags & F_WHICH_TBL_STM ? '1Table' : '0Table';
  const tableStream = cfb.read(tableName);
  if (!tableStream) throw fail(`it has no ${tableName} stream`);
  const table = new Bytes(tableStream, fail, `the ${tableName} stream`);

  const pieces = readPieces(table, fcLcb(FC_LCB.Clx), word, fail);
  const codes = pieceText(pieces, word);
  // Runs of a sound file mark each character at most once per kind of run; forged ones that overlap could mark the text over and over.
  const budget = { left: 2 * codes.length + 1024, fail };
  markFromFkps(table, fcLcb(FC_LCB.PlcfBteChpx), word, pieces, codes, budget, (grpprl) => hasSprm(grpprl, 0, sprmCFRMarkDel, (v) => (v & 1) === 1), () => 0);
  // A table row ends in a cell mark of its own, in a paragraph marked as the row's end: that mark ends the row's line.
  markFromFkps(table, fcLcb(FC_LCB.PlcfBtePapx), word, pieces, codes, budget, papxIsRowEnd, (c) => (c === CELL_MARK ? PARAGRAPH_MARK : c), true);

  // The stories follow one another; a story's final paragraph mark is no paragraph of its own.
  let at = 0;
  const story = (length: number, keepLast = false) => {
    const start = Math.min(at, codes.length);
    const end = Math.min(at + length, codes.length);
    at += length;
    return plainText(codes.subarray(start, keepLast ? end : Math.max(start, end - 1)));
  };
  const body = story(ccp(CCP.Text), true);
  const footnotes = story(ccp(CCP.Ftn));
  const hddStart = at;
  const ccpHdd = ccp(CCP.Hdd);
  at += ccpHdd;
  const { headers, footers } = headerStories(table, fcLcb(FC_LCB.PlcfHdd), codes, hddStart, ccpHdd);
  const annotations = story(ccp(CCP.Atn));
  const endnotes = story(ccp(CCP.Edn));
  const textboxes = story(ccp(CCP.Txbx));
  return { body, footnotes, endnotes, headers, footers, annotations, textboxes };
}

/** The piece table: a CLX is Prc records (formatting of fast-saved edits, skipped) then the Pcdt. */
function readPieces(table: Bytes, clx: { fc: number; lcb: number }, word: Bytes, fail: (detail: string) => ExtractionError): Piece[] {
  table.check(clx.fc, clx.lcb);
  const end = clx.fc + clx.lcb;
  let pos = clx.fc;
  while (pos < end && table.u8(pos) === 0x01) pos += 3 + table.u16(pos + 1);
  if (pos + 5 > end || table.u8(pos) !== 0x02) throw fail('its piece table is missing');
  const lcb = table.u32(pos + 1);
  const plc = pos + 5;
  if (plc + lcb > end || lcb < 16 || (lcb - 4) % 12 !== 0) throw fail('its piece table is damaged');
  const n = (lcb - 4) / 12;
  const pieces: Piece[] = [];
  let chars = 0;
  for (let i = 0; i < n; i++) {
    const cp = table.u32(plc + 4 * i);
    const cpEnd = table.u32(plc + 4 * (i + 1));
    // Pieces follow one another from the first character, so the last one's end is the text's length.
    if (cpEnd < cp || (i === 0 && cp !== 0)) throw fail('its piece table is out of order');
    const raw = table.u32(plc + 4 * (n + 1) + 8 * i + 2);
    const compressed = (raw & 0x40000000) !== 0;
    const fc = compressed ? (raw & 0x3fffffff) / 2 : raw & 0x3fffffff;
    const bpc = compressed ? 1 : 2;
    word.check(fc, (cpEnd - cp) * bpc);
    // Text takes at least a byte a character, so more characters than the stream has bytes means pieces are repeated.
    chars += cpEnd - cp;
    if (chars > word.bytes.length) throw fail('its piece table repeats text');
    pieces.push({ cp, cpEnd, fc, bpc });
  }
  return pieces;
}

/** The document's characters by character position (UTF-16 code units). */
function pieceText(pieces: Piece[], word: Bytes): Uint16Array {
  const total = pieces.reduce((n, p) => Math.max(n, p.cpEnd), 0);
  const codes = new Uint16Array(total);
  for (const p of pieces) {
    const length = p.cpEnd - p.cp;
    const bytes = word.slice(p.fc, length * p.bpc);
    if (p.bpc === 2) {
      for (let i = 0; i < length; i++) codes[p.cp + i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
    } else {
      const text = decodeCodepage(bytes, 1252);
      for (let i = 0; i < length; i++) codes[p.cp + i] = text.charCodeAt(i);
    }
  }
  return codes;
}

/**
 * Runs of formatting are kept by file offset in FKP pages (a PLCF of page
 * numbers in the table stream, 512-byte pages in the WordDocument stream);
 * each run whose properties match has its characters rewritten by `mark`
 * (0 drops a character).
 */
function markFromFkps(
  table: Bytes,
  plcf: { fc: number; lcb: number },
  word: Bytes,
  pieces: Piece[],
  codes: Uint16Array,
  budget: Budget,
  matches: (grpprl: Uint8Array) => boolean,
  mark: (code: number) => number,
  paragraphs = false,
): void {
  if (plcf.lcb < 12 || (plcf.lcb - 4) % 8 !== 0) return;
  table.check(plcf.fc, plcf.lcb);
  const n = (plcf.lcb - 4) / 8;
  const seen = new Set<number>();
  const byFc = [...pieces].sort((a, b) => a.fc - b.fc);
  for (let i = 0; i < n; i++) {
    const pn = table.u32(plcf.fc + 4 * (n + 1) + 4 * i) & 0x3fffff;
    // A page listed twice would be applied twice for nothing; a forged PLCF could list one page many times.
    if (seen.has(pn)) continue;
    seen.add(pn);
    const page = word.slice(pn * FKP_BYTES, FKP_BYTES);
    const crun = page[FKP_BYTES - 1]!;
    if (4 * (crun + 1) + (paragraphs ? 13 : 1) * crun > FKP_BYTES - 1) continue;
    const d = new DataView(page.buffer, page.byteOffset, FKP_BYTES);
    for (let j = 0; j < crun; j++) {
      const grpprl = paragraphs ? papxAt(page, page[4 * (crun + 1) + 13 * j]!) : chpxAt(page, page[4 * (crun + 1) + j]!);
      if (!grpprl || !matches(grpprl)) continue;
      markFcRange(byFc, codes, d.getUint32(4 * j, true), d.getUint32(4 * (j + 1), true), mark, budget);
    }
  }
}

/** A CHPX's sprms, or null when the run has default properties. */
function chpxAt(page: Uint8Array, b: number): Uint8Array | null {
  if (b === 0) return null;
  const at = 2 * b;
  const cb = page[at]!;
  return at + 1 + cb <= FKP_BYTES - 1 ? page.subarray(at + 1, at + 1 + cb) : null;
}

/** A PAPX's istd and sprms. */
function papxAt(page: Uint8Array, b: number): Uint8Array | null {
  if (b === 0) return null;
  const at = 2 * b;
  if (at + 2 > FKP_BYTES - 1) return null;
  const cb = page[at]!;
  const [start, length] = cb !== 0 ? [at + 1, 2 * cb - 1] : [at + 2, 2 * page[at + 1]!];
  return start + length <= FKP_BYTES - 1 ? page.subarray(start, start + length) : null;
}

function papxIsRowEnd(grpprlAndIstd: Uint8Array): boolean {
  return hasSprm(grpprlAndIstd, 2, sprmPFTtp, (v) => v === 1) || hasSprm(grpprlAndIstd, 2, sprmPFInnerTtp, (v) => v === 1);
}

/** Whether a property list sets `sprm` to a value `test` accepts (its first operand byte). */
function hasSprm(grpprl: Uint8Array, from: number, sprm: number, test: (operand: number) => boolean): boolean {
  const d = new DataView(grpprl.buffer, grpprl.byteOffset, grpprl.byteLength);
  for (let pos = from; pos + 2 <= grpprl.length; ) {
    const id = d.getUint16(pos, true);
    pos += 2;
    if (id === sprm) return pos < grpprl.length && test(grpprl[pos]!);
    const size = operandSize(d, id, pos);
    if (size === null) return false;
    pos += size;
  }
  return false;
}

/** An operand's size from the sprm's spra bits; variable-length operands say their size first. */
function operandSize(d: DataView, sprm: number, pos: number): number | null {
  switch (sprm >>> 13) {
    case 0:
    case 1:
      return 1;
    case 2:
    case 4:
    case 5:
      return 2;
    case 3:
      return 4;
    case 7:
      return 3;
    default: {
      if (pos + 2 > d.byteLength) return null;
      // Two operands whose size does not fit a byte: a table's cell definitions, and tab stops past 255 bytes.
      if (sprm === sprmTDefTable) return 1 + d.getUint16(pos, true);
      if (sprm === sprmPChgTabs && d.getUint8(pos) === 255) return null;
      return 1 + d.getUint8(pos);
    }
  }
}

/** Rewrites the characters stored at file offsets fc..fcEnd, wherever the piece table puts them. */
interface Budget {
  /** Characters that runs may still mark. */
  left: number;
  fail: (detail: string) => ExtractionError;
}

function markFcRange(byFc: Piece[], codes: Uint16Array, fc: number, fcEnd: number, mark: (code: number) => number, budget: Budget): void {
  // The first piece that may end after fc; pieces are sorted by start and do not overlap in a sound file.
  const lo = firstNotBefore(byFc.length, (i) => byFc[i]!.fc + (byFc[i]!.cpEnd - byFc[i]!.cp) * byFc[i]!.bpc <= fc);
  for (let i = Math.max(0, lo - 1); i < byFc.length && byFc[i]!.fc < fcEnd; i++) {
    const p = byFc[i]!;
    const pEnd = p.fc + (p.cpEnd - p.cp) * p.bpc;
    const from = Math.max(fc, p.fc);
    const to = Math.min(fcEnd, pEnd);
    if (from >= to) continue;
    const first = p.cp + Math.floor((from - p.fc) / p.bpc);
    const last = p.cp + Math.ceil((to - p.fc) / p.bpc);
    budget.left -= last - first;
    if (budget.left < 0) throw budget.fail('its formatting runs overlap');
    for (let cp = first; cp < last; cp++) codes[cp] = mark(codes[cp]!);
  }
}

/**
 * Header stories (PlcfHdd): six footnote and endnote separators first, then
 * per section even, odd and first-page headers and footers. Empty stories
 * (only a paragraph mark) are inherited from the previous section and skipped.
 */
function headerStories(table: Bytes, plcf: { fc: number; lcb: number }, codes: Uint16Array, start: number, ccpHdd: number): { headers: string; footers: string } {
  const headers: string[] = [];
  const footers: string[] = [];
  if (plcf.lcb < 8) return { headers: '', footers: '' };
  table.check(plcf.fc, plcf.lcb);
  const n = Math.floor(plcf.lcb / 4);
  const limit = Math.min(start + ccpHdd, codes.length);
  // Stories follow one another: one that starts before the last ended would read text again.
  let done = start;
  for (let i = 6; i + 1 < n; i++) {
    const from = Math.max(done, Math.min(start + table.u32(plcf.fc + 4 * i), limit));
    const to = Math.min(start + table.u32(plcf.fc + 4 * (i + 1)), limit);
    if (to <= from) continue;
    done = to;
    const chars = codes.subarray(from, to);
    if (chars.every((c) => c === 0x0a || c === PARAGRAPH_MARK || (c >= 0x02 && c <= 0x08))) continue;
    const text = plainText(chars.subarray(0, chars.length - 1));
    // Stories 0, 1 and 4 of a section are headers (even, odd, first page); 2, 3 and 5 footers.
    if ([0, 1, 4].includes((i - 6) % 6)) headers.push(text);
    else footers.push(text);
  }
  return { headers: headers.join('\n'), footers: footers.join('\n') };
}

/**
 * A story's characters as text: paragraph marks, line, page and column
 * breaks become line ends, cell marks tabs; a field shows its result (the
 * text between its separator and its end), not its code; anchors of
 * pictures, notes and comments and optional hyphens are left out.
 */
function plainText(codes: Uint16Array): string {
  const out: string[] = [];
  // For each open field, whether its result is being read (past its separator).
  const fields: boolean[] = [];
  let hidden = 0;
  let run = 0;
  const flush = (end: number) => {
    if (end > run) out.push(Buffer.from(codes.buffer, codes.byteOffset + 2 * run, 2 * (end - run)).toString('utf16le'));
  };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    let put: string | null = null;
    if (c === 0x13) {
      fields.push(false);
      hidden++;
    } else if (c === 0x14) {
      if (fields.length > 0 && !fields.at(-1)) {
        fields[fields.length - 1] = true;
        hidden--;
      }
    } else if (c === 0x15) {
      if (fields.length > 0 && !fields.pop()) hidden--;
    } else if (hidden > 0) {
      // inside a field's code
    } else if (c === 0x0d || c === 0x0b || c === 0x0c || c === 0x0a || c === 0x0e) put = '\n';
    else if (c === CELL_MARK) put = '\t';
    else if (c === 0x1e) put = '\u2011';
    else if (c < 0x20 && c !== 0x09) put = '';
    else continue;
    // Characters are copied in runs; a character that is rewritten or dropped ends the run.
    flush(i);
    if (put) out.push(put);
    run = i + 1;
  }
  flush(codes.length);
  return out.join('');
}
