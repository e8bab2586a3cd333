// Builds Word 97-2003 documents in code: a FIB, the text in pieces (8-bit
// where Windows-1252 can hold a paragraph, UTF-16 where not), the piece
// table, the header story table, and FKP pages marking table rows' ends and
// tracked deletions. Only what the reader looks at is written.
//
// In the text given, "\r" ends a paragraph, "\x07" ends a cell, ROW_END ends
// a table row, and text between DELETED_START and DELETED_END is a tracked
// deletion.

import { type CfbStorage, makeCfb } from './cfb-fixture.ts';

export const ROW_END = '\uE000';
export const DELETED_START = '\uE001';
export const DELETED_END = '\uE002';

export interface DocStories {
  body: string;
  footnotes?: string;
  /** Each section's six header and footer stories (even header, odd header, even footer, odd footer, first-page header, first-page footer), each ending in "\r" or empty. */
  headers?: string[];
  annotations?: string;
  endnotes?: string;
  textboxes?: string;
}

export interface DocOptions {
  encrypted?: boolean;
  /** The FIB's nFib: Word 97 and later write 0x00C1. */
  nFib?: number;
  /** Replaces the piece table's bytes, to damage it. */
  clx?: Uint8Array;
  /** The ObjectPool's object storages (each named for its object's id, "_1234"), as Word keeps inserted objects. */
  objects?: CfbStorage[];
}

const CP1252_EXTRA: Record<string, number> = { '€': 0x80, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
const cp1252 = (ch: string): number | null => {
  const c = ch.charCodeAt(0);
  if (CP1252_EXTRA[ch] !== undefined) return CP1252_EXTRA[ch];
  return c <= 0xff && (c < 0x80 || c > 0x9f) ? c : null;
};

export function makeDoc(stories: DocStories, opts: DocOptions = {}): Uint8Array {
  const separators = ['', '', '', '', '', ''];
  const hdd = stories.headers ? [...separators, ...stories.headers] : [];
  const rest = [stories.footnotes ?? '', hdd.join(''), stories.annotations ?? '', stories.endnotes ?? '', stories.textboxes ?? ''];
  // Every story but the body ends in a paragraph mark of its own, which no story shows.
  const parts = [stories.body, ...rest.map((s) => (s === '' ? '' : `${s}\r`))];
  const lengths = parts.map((p) => strip(p).length);
  const source = parts.join('');

  // Characters with their marks, split into paragraphs: one piece each.
  const chars: { ch: string; rowEnd: boolean; deleted: boolean }[] = [];
  let deleted = false;
  for (const ch of source) {
    if (ch === DELETED_START) deleted = true;
    else if (ch === DELETED_END) deleted = false;
    else if (ch === ROW_END) chars.push({ ch: '\x07', rowEnd: true, deleted });
    else for (const unit of ch.length === 2 ? [ch[0]!, ch[1]!] : [ch]) chars.push({ ch: unit, rowEnd: false, deleted });
  }
  const paragraphs: (typeof chars)[] = [];
  let current: typeof chars = [];
  for (const c of chars) {
    current.push(c);
    if (c.ch === '\r' || c.rowEnd) {
      paragraphs.push(current);
      current = [];
    }
  }
  if (current.length > 0) paragraphs.push(current);

  const TEXT_AT = 1024;
  const text: Buffer[] = [];
  let fc = TEXT_AT;
  let cp = 0;
  const pieces: { cp: number; fc: number; compressed: boolean }[] = [];
  const rowEnds: number[] = [];
  const deletions: [number, number][] = [];
  for (const para of paragraphs) {
    const compressed = para.every((c) => cp1252(c.ch) !== null);
    const bytes = compressed ? Buffer.from(para.map((c) => cp1252(c.ch)!)) : Buffer.from(para.map((c) => c.ch).join(''), 'utf16le');
    const bpc = compressed ? 1 : 2;
    pieces.push({ cp, fc, compressed });
    para.forEach((c, i) => {
      if (c.rowEnd) rowEnds.push(fc + i * bpc);
      if (c.deleted) deletions.push([fc + i * bpc, fc + (i + 1) * bpc]);
    });
    text.push(bytes);
    fc += bytes.length;
    cp += para.length;
  }
  const totalCp = cp;

  // The piece table: PlcPcd of CPs and 8-byte piece descriptors.
  const plcPcd = Buffer.alloc(4 * (pieces.length + 1) + 8 * pieces.length);
  pieces.forEach((p, i) => {
    plcPcd.writeUInt32LE(p.cp, 4 * i);
    plcPcd.writeUInt32LE((p.compressed ? (p.fc * 2) | 0x40000000 : p.fc) >>> 0, 4 * (pieces.length + 1) + 8 * i + 2);
  });
  plcPcd.writeUInt32LE(totalCp, 4 * pieces.length);
  const clx = opts.clx ? Buffer.from(opts.clx) : Buffer.concat([Buffer.from([0x01, 0x02, 0x00, 0xaa, 0xbb]), Buffer.from([0x02]), u32(plcPcd.length), plcPcd]);

  const textEnd = Math.ceil(fc / 512) * 512;
  const papxPage = textEnd / 512;
  const chpxPage = papxPage + 1;
  const word = Buffer.alloc((chpxPage + 1) * 512);
  Buffer.concat(text).copy(word, TEXT_AT);
  word.set(papxFkp(rowEnds), papxPage * 512);
  word.set(chpxFkp(deletions), chpxPage * 512);

  const table: Buffer[] = [];
  let tableLength = 0;
  const put = (b: Buffer) => {
    const at = tableLength;
    table.push(b);
    tableLength += b.length;
    return { fc: at, lcb: b.length };
  };
  const clxAt = put(clx);
  const bte = (pn: number) => Buffer.concat([u32(TEXT_AT), u32(fc), u32(pn)]);
  const papxAt = rowEnds.length > 0 ? put(bte(papxPage)) : { fc: 0, lcb: 0 };
  const chpxAt = deletions.length > 0 ? put(bte(chpxPage)) : { fc: 0, lcb: 0 };
  let hddAt = { fc: 0, lcb: 0 };
  if (hdd.length > 0) {
    const starts: number[] = [];
    let at = 0;
    for (const s of hdd) {
      starts.push(at);
      at += strip(s).length;
    }
    hddAt = put(Buffer.concat([...starts, at, at + 1].map(u32)));
  }

  // FIB: base, 14 words, 22 longs (the story lengths), 93 fc/lcb pairs.
  const fib = Buffer.alloc(154 + 93 * 8);
  fib.writeUInt16LE(0xa5ec, 0);
  fib.writeUInt16LE(opts.nFib ?? 0x00c1, 2);
  fib.writeUInt16LE(0x0200 | (opts.encrypted ? 0x0100 : 0), 0x0a);
  fib.writeUInt16LE(14, 32);
  fib.writeUInt16LE(22, 62);
  const [ccpText, ccpFtn, ccpHdd, ccpAtn, ccpEdn, ccpTxbx] = lengths;
  const longs: [number, number][] = [
    [3, ccpText!],
    [4, ccpFtn!],
    [5, ccpHdd!],
    [7, ccpAtn!],
    [8, ccpEdn!],
    [9, ccpTxbx!],
  ];
  for (const [i, v] of longs) fib.writeUInt32LE(v, 64 + 4 * i);
  fib.writeUInt16LE(93, 152);
  const pair = (i: number, v: { fc: number; lcb: number }) => {
    fib.writeUInt32LE(v.fc, 154 + 8 * i);
    fib.writeUInt32LE(v.lcb, 154 + 8 * i + 4);
  };
  pair(11, hddAt);
  pair(12, chpxAt);
  pair(13, papxAt);
  pair(33, clxAt);
  fib.copy(word, 0);
  if (totalCp !== lengths.reduce((a, b) => a + b, 0)) throw new Error('makeDoc: story lengths do not add up');

  return makeCfb([
    { name: 'WordDocument', data: word },
    { name: '1Table', data: Buffer.concat(table) },
    ...(opts.objects ? [{ name: 'ObjectPool', children: opts.objects }] : []),
  ]);
}

/** The text as stored: marks of the fixture's own taken out. */
function strip(s: string): string {
  return s.replace(/[\uE001\uE002]/g, '');
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** Runs between consecutive `cuts`: the ones `marked` get `props`, the others none. */
function fkp(cuts: number[], marked: (start: number) => boolean, props: Buffer, bxBytes: number): Buffer {
  const page = Buffer.alloc(512);
  const crun = cuts.length - 1;
  cuts.forEach((c, i) => page.writeUInt32LE(c, 4 * i));
  const propsAt = 256;
  props.copy(page, propsAt);
  for (let j = 0; j < crun; j++) if (marked(cuts[j]!)) page.writeUInt8(propsAt / 2, 4 * (crun + 1) + bxBytes * j);
  page.writeUInt8(crun, 511);
  return page;
}

/** Paragraph properties: each row's end mark is a paragraph of its own, marked in a table (sprmPFInTable), with its cells defined (sprmTDefTable) and as the row's end (sprmPFTtp). */
function papxFkp(rowEnds: number[]): Buffer {
  if (rowEnds.length === 0) return Buffer.alloc(512);
  const cuts = [...new Set(rowEnds.flatMap((fc) => [fc, fc + 1]))].sort((a, b) => a - b);
  const grpprl = Buffer.from([0x00, 0x00, 0x16, 0x24, 0x01, 0x08, 0xd6, 0x03, 0x00, 0x01, 0x00, 0x17, 0x24, 0x01]);
  return fkp(cuts, (c) => rowEnds.includes(c), Buffer.concat([Buffer.from([0, grpprl.length / 2]), grpprl]), 13);
}

/** Character properties: deleted text carries sprmCFRMarkDel. */
function chpxFkp(deletions: [number, number][]): Buffer {
  if (deletions.length === 0) return Buffer.alloc(512);
  const cuts = [...new Set(deletions.flat())].sort((a, b) => a - b);
  return fkp(cuts, (c) => deletions.some(([s]) => s === c), Buffer.from([3, 0x00, 0x08, 0x01]), 1);
}
