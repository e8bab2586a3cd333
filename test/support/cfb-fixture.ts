// Builds compound files (OLE2, the container of Office 97-2003 documents)
// and the XLS (BIFF8) and PPT records inside them, in code, so no test
// depends on a binary fixture. Only what the readers need is written: a
// well-formed container with real FAT and mini-stream chains (docex's own
// writer), and records with the fields the readers look at.

import { type CfbStream, writeCompoundFile } from '../../lambdas/extract/containers/compound-writer.ts';

export type { CfbNode, CfbStorage, CfbStream } from '../../lambdas/extract/containers/compound-writer.ts';

/** The container itself is the one docex writes to read an object kept as storages (containers/compound-writer.ts). */
export const makeCfb = writeCompoundFile;

// --- XLS (BIFF8) -------------------------------------------------------------

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const f64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n);
  return b;
};
const cell = (row: number, col: number, xf: number) => Buffer.concat([u16(row), u16(col), u16(xf)]);
const wide = (s: string) => [...s].some((c) => c.charCodeAt(0) > 0xff);
/** Characters with their option byte: one byte each when they all fit, else UTF-16. */
const chars = (s: string) => (wide(s) ? Buffer.concat([Buffer.from([1]), Buffer.from(s, 'utf16le')]) : Buffer.concat([Buffer.from([0]), Buffer.from(s, 'latin1')]));
const xlString = (s: string) => Buffer.concat([u16(s.length), chars(s)]);

export function biffRecord(type: number, data: Uint8Array = Buffer.alloc(0)): Buffer {
  return Buffer.concat([u16(type), u16(data.length), data]);
}

/** RK encoding of an integer or of hundredths (two decimals) that fit in 30 bits. */
export function rkValue(n: number): number {
  if (Number.isInteger(n)) return ((n << 2) | 2) >>> 0;
  const hundredths = Math.round(n * 100);
  if (Math.abs(hundredths / 100 - n) < 1e-9) return ((hundredths << 2) | 3) >>> 0;
  // The top 30 bits of the double (exact only for doubles whose low 34 bits are zero).
  return f64(n).readUInt32LE(4) & 0xfffffffc;
}

export const biff = {
  bof: (type: 'globals' | 'sheet') => biffRecord(0x0809, Buffer.concat([u16(0x0600), u16(type === 'globals' ? 0x0005 : 0x0010), Buffer.alloc(12)])),
  eof: () => biffRecord(0x000a),
  dateMode1904: () => biffRecord(0x0022, u16(1)),
  filepass: () => biffRecord(0x002f, Buffer.concat([u16(1), u16(1), u16(2), Buffer.alloc(48)])),
  format: (id: number, code: string) => biffRecord(0x041e, Buffer.concat([u16(id), xlString(code)])),
  xf: (formatId: number) => biffRecord(0x00e0, Buffer.concat([u16(0), u16(formatId), Buffer.alloc(16)])),
  labelSst: (row: number, col: number, index: number, xf = 15) => biffRecord(0x00fd, Buffer.concat([cell(row, col, xf), u32(index)])),
  /** An OBJ record: its ftCmo subrecord (object type and id) and the ftEnd after it. */
  obj: (type: number, id: number) => biffRecord(0x005d, Buffer.concat([u16(0x15), u16(0x12), u16(type), u16(id), u16(0x6011), Buffer.alloc(12), u16(0), u16(0)])),
  /** A TXO record and its CONTINUE records: the text (8-bit, cut into `cut`-character records, each with its option byte), then the formatting runs. */
  txo: (text: string, cut = Infinity): Buffer[] => {
    const parts: Buffer[] = [biffRecord(0x01b6, Buffer.concat([u16(0x0212), u16(0), Buffer.alloc(6), u16(text.length), u16(16), u32(0)]))];
    for (let i = 0; i < text.length; i += cut) parts.push(biffRecord(0x003c, Buffer.concat([Buffer.from([0]), Buffer.from(text.slice(i, i + cut), 'latin1')])));
    parts.push(biffRecord(0x003c, Buffer.alloc(16)));
    return parts;
  },
  /** A NOTE record: the cell a comment is on, the id of the object holding its text, its author. */
  note: (row: number, col: number, id: number, author: string) => biffRecord(0x001c, Buffer.concat([u16(row), u16(col), u16(0), u16(id), u16(author.length), chars(author), Buffer.from([0])])),
  label: (row: number, col: number, text: string, xf = 15) => biffRecord(0x0204, Buffer.concat([cell(row, col, xf), xlString(text)])),
  number: (row: number, col: number, n: number, xf = 15) => biffRecord(0x0203, Buffer.concat([cell(row, col, xf), f64(n)])),
  rk: (row: number, col: number, n: number, xf = 15) => biffRecord(0x027e, Buffer.concat([cell(row, col, xf), u32(rkValue(n))])),
  mulrk: (row: number, col: number, values: number[], xf = 15) =>
    biffRecord(0x00bd, Buffer.concat([u16(row), u16(col), ...values.map((v) => Buffer.concat([u16(xf), u32(rkValue(v))])), u16(col + values.length - 1)])),
  boolerr: (row: number, col: number, value: boolean | { error: number }, xf = 15) =>
    biffRecord(0x0205, Buffer.concat([cell(row, col, xf), typeof value === 'boolean' ? Buffer.from([value ? 1 : 0, 0]) : Buffer.from([value.error, 1])])),
  /** A formula cell with its cached result; a string result comes in a STRING record after it. */
  formula: (row: number, col: number, result: number | string | boolean, xf = 15) => {
    const value =
      typeof result === 'number' ? f64(result)
      : typeof result === 'boolean' ? Buffer.from([1, 0, result ? 1 : 0, 0, 0, 0, 0xff, 0xff])
      : Buffer.from([0, 0, 0, 0, 0, 0, 0xff, 0xff]);
    // The parsed formula: one tRefN-free token (tInt 1) is enough for a reader that ignores it.
    const tokens = Buffer.from([0x1e, 1, 0]);
    const formula = biffRecord(0x0006, Buffer.concat([cell(row, col, xf), value, u16(0), u32(0), u16(tokens.length), tokens]));
    return typeof result === 'string' ? Buffer.concat([formula, biffRecord(0x0207, xlString(result))]) : formula;
  },
  /**
   * The shared-string table, cut into an SST record and CONTINUE records of at
   * most `maxData` bytes. As Excel does, a string's header is never cut; its
   * characters may be, and each continuation then starts with an option byte
   * of its own (one byte a character when the rest fits, else two).
   */
  sst: (strings: Array<string | { text: string; runs: number }>, maxData = 8224): Buffer[] => {
    const records: Buffer[][] = [[u32(strings.length), u32(strings.length)]];
    let size = 8;
    const room = () => maxData - size;
    const add = (b: Buffer) => {
      records.at(-1)!.push(b);
      size += b.length;
    };
    const next = () => {
      records.push([]);
      size = 0;
    };
    for (const entry of strings) {
      const { text, runs } = typeof entry === 'string' ? { text: entry, runs: 0 } : entry;
      const header = Buffer.concat([u16(text.length), Buffer.from([(wide(text) ? 1 : 0) | (runs ? 8 : 0)]), runs ? u16(runs) : Buffer.alloc(0)]);
      if (room() < header.length + 1) next();
      add(header);
      let rest = text;
      let isWide = wide(text);
      for (;;) {
        const fit = Math.min(rest.length, isWide ? Math.floor(room() / 2) : room());
        add(Buffer.from(rest.slice(0, fit), isWide ? 'utf16le' : 'latin1'));
        rest = rest.slice(fit);
        if (rest === '') break;
        next();
        isWide = wide(rest);
        add(Buffer.from([isWide ? 1 : 0]));
      }
      // Formatting runs follow the characters and, unlike them, run on into the next record without a marker.
      for (let i = 0; i < runs; i++) {
        const run = Buffer.concat([u16(i), u16(0)]);
        for (const byte of run) {
          if (room() < 1) next();
          add(Buffer.from([byte]));
        }
      }
    }
    return records.map((parts, i) => biffRecord(i === 0 ? 0x00fc : 0x003c, Buffer.concat(parts)));
  },
};

export interface BiffSheet {
  name: string;
  records: Buffer[];
  hidden?: boolean;
}

/** A Workbook stream: the globals (BOUNDSHEET offsets filled in) and each sheet's BOF..EOF. */
export function biffWorkbook(globals: Buffer[], sheets: BiffSheet[]): Buffer {
  // The name is a ShortXLUnicodeString: a one-byte count, then the option byte and characters.
  const boundsheet = (s: BiffSheet, offset: number) => biffRecord(0x0085, Buffer.concat([u32(offset), Buffer.from([s.hidden ? 1 : 0, 0, s.name.length]), chars(s.name)]));
  const head = [biff.bof('globals'), biffRecord(0x0042, u16(1200)), ...defaultXfs(), ...globals];
  const sizeOfBoundsheets = sheets.reduce((n, s) => n + boundsheet(s, 0).length, 0);
  let offset = head.reduce((n, b) => n + b.length, 0) + sizeOfBoundsheets + 4;
  const bodies = sheets.map((s) => Buffer.concat([biff.bof('sheet'), ...s.records, biff.eof()]));
  const bounds = sheets.map((s, i) => {
    const b = boundsheet(s, offset);
    offset += bodies[i]!.length;
    return b;
  });
  return Buffer.concat([...head, ...bounds, biff.eof(), ...bodies]);
}

/** Excel writes 15 style XFs and then the cell XFs; XF 15 is the default cell format (General). */
function defaultXfs(): Buffer[] {
  return Array.from({ length: 16 }, () => biff.xf(0));
}

export function makeXls(globals: Buffer[], sheets: BiffSheet[]): Uint8Array {
  return makeCfb([{ name: 'Workbook', data: biffWorkbook(globals, sheets) }]);
}

// --- PPT -----------------------------------------------------------------------

export function pptRecord(type: number, body: Uint8Array | Uint8Array[] = [], instance = 0): Buffer {
  const parts = body instanceof Uint8Array ? [body] : body;
  const container = !(body instanceof Uint8Array);
  const data = Buffer.concat(parts);
  const h = Buffer.alloc(8);
  h.writeUInt16LE(((instance << 4) | (container ? 0xf : 0)) >>> 0, 0);
  h.writeUInt16LE(type, 2);
  h.writeUInt32LE(data.length, 4);
  return Buffer.concat([h, data]);
}

/** Text types of TextHeaderAtom. */
export const TEXT_TYPE = { title: 0, body: 1, notes: 2, other: 4 } as const;

export const ppt = {
  textHeader: (type: number) => pptRecord(0x0f9f, u32(type)),
  chars: (s: string) => pptRecord(0x0fa0, Buffer.from(s, 'utf16le')),
  bytes: (s: string) => pptRecord(0x0fa8, Buffer.from(s, 'latin1')),
  outlineRef: (index: number) => pptRecord(0x0f9e, u32(index)),
  /** A shape holding a text box: its text atoms, or a reference to the slide list's outline text. */
  shape: (textbox: Buffer[]) => pptRecord(0xf004, [pptRecord(0xf00a, Buffer.alloc(8)), pptRecord(0xf00d, textbox)]),
  drawing: (shapes: Buffer[]) => pptRecord(0x040c, [pptRecord(0xf002, [pptRecord(0xf008, Buffer.alloc(8)), pptRecord(0xf003, shapes)])]),
};

export interface PptSlide {
  /** Placeholder text kept in the slide list (the outline), referenced from the slide's shapes. */
  title?: string;
  body?: string;
  /** A text box's own text, as a TextBytesAtom (Latin-1) unless it needs UTF-16. */
  textbox?: string;
  notes?: string;
}

/**
 * A PowerPoint 97-2003 presentation. Slide containers are written in reverse
 * order, so only the slide list gives the presentation order. With `stale`,
 * a second document listing the slides the other way round is written last
 * and named by an older edit; the live edit (named by Current User) points
 * back to that edit and overrides its document.
 */
export function makePpt(slides: PptSlide[], opts: { stale?: boolean; encrypted?: boolean } = {}): Uint8Array {
  const parts: Buffer[] = [];
  let length = 0;
  const put = (b: Buffer) => {
    const at = length;
    parts.push(b);
    length += b.length;
    return at;
  };
  const slideId = (i: number) => 256 + i;
  const notesId = (i: number) => 512 + i;
  const slidePersist = (i: number) => 2 + i;
  const notesPersist = (i: number) => 2 + slides.length + i;
  const offsets = new Map<number, number>();

  const outline = (s: PptSlide) => [
    ...(s.title !== undefined ? [ppt.textHeader(TEXT_TYPE.title), ppt.chars(s.title)] : []),
    ...(s.body !== undefined ? [ppt.textHeader(TEXT_TYPE.body), wide(s.body) ? ppt.chars(s.body) : ppt.bytes(s.body)] : []),
  ];
  const slideList = (order: number[]) =>
    pptRecord(
      0x0ff0,
      order.flatMap((i) => [
        pptRecord(0x03f3, Buffer.concat([u32(slidePersist(i)), u32(0), u32(outline(slides[i]!).length / 2), u32(slideId(i)), u32(0)])),
        ...outline(slides[i]!),
      ]),
      0,
    );
  const notesList = () =>
    pptRecord(
      0x0ff0,
      slides.flatMap((s, i) => (s.notes === undefined ? [] : [pptRecord(0x03f3, Buffer.concat([u32(notesPersist(i)), u32(0), u32(0), u32(notesId(i)), u32(0)]))])),
      2,
    );
  const documentContainer = (order: number[]) => pptRecord(0x03e8, [pptRecord(0x03e9, Buffer.alloc(40)), slideList(order), notesList(), pptRecord(0x03ea, Buffer.alloc(0))]);

  const forward = slides.map((_, i) => i);
  offsets.set(1, put(documentContainer(forward)));
  for (let i = slides.length - 1; i >= 0; i--) {
    const s = slides[i]!;
    let refs = 0;
    const shapes = [
      ...(s.title !== undefined ? [ppt.shape([ppt.outlineRef(refs++)])] : []),
      ...(s.body !== undefined ? [ppt.shape([ppt.outlineRef(refs++)])] : []),
      ...(s.textbox !== undefined ? [ppt.shape([ppt.textHeader(TEXT_TYPE.other), wide(s.textbox) ? ppt.chars(s.textbox) : ppt.bytes(s.textbox)])] : []),
    ];
    const slideAtom = Buffer.concat([u32(0), Buffer.alloc(8), u32(0x80000000), u32(s.notes === undefined ? 0 : notesId(i)), u16(0), u16(0)]);
    offsets.set(slidePersist(i), put(pptRecord(0x03ee, [pptRecord(0x03ef, slideAtom), ppt.drawing(shapes)])));
    if (s.notes !== undefined) {
      const notesAtom = Buffer.concat([u32(slideId(i)), u16(0), u16(0)]);
      const notesShapes = [ppt.shape([ppt.textHeader(TEXT_TYPE.notes), ppt.chars(s.notes)])];
      offsets.set(notesPersist(i), put(pptRecord(0x03f0, [pptRecord(0x03f1, notesAtom), ppt.drawing(notesShapes)])));
    }
  }
  const edit = (entries: Map<number, number>, previous: number) => {
    const sorted = [...entries.entries()].sort((a, b) => a[0] - b[0]);
    const dirAt = put(pptRecord(0x1772, Buffer.concat(sorted.map(([id, offset]) => Buffer.concat([u32(id | (1 << 20)), u32(offset)])))));
    const atom = Buffer.concat([u32(slideId(0)), u16(0), Buffer.from([0, 3]), u32(previous), u32(dirAt), u32(1), u32(2 + 2 * slides.length), u16(1), u16(0)]);
    return put(pptRecord(0x0ff5, atom));
  };
  let previous = 0;
  if (opts.stale) previous = edit(new Map([...offsets, [1, put(documentContainer([...forward].reverse()))]]), 0);
  const editAt = edit(opts.stale ? new Map([[1, offsets.get(1)!]]) : offsets, previous);
  const document = Buffer.concat(parts);

  const user = Buffer.from('tester', 'latin1');
  const currentUser = pptRecord(
    0x0ff6,
    Buffer.concat([u32(0x14), u32(opts.encrypted ? 0xf3d1c4df : 0xe391c05f), u32(editAt), u16(user.length), u16(0x03f4), Buffer.from([3, 0]), u16(0), user, u32(8)]),
  );
  const streams: CfbStream[] = [
    { name: 'Current User', data: currentUser },
    { name: 'PowerPoint Document', data: document },
  ];
  if (opts.encrypted) streams.push({ name: 'EncryptedSummary', data: Buffer.alloc(64) });
  return makeCfb(streams);
}
