// XLSX: every sheet as a table, one page per sheet, cells as the spreadsheet
// shows them (number formats applied to numbers and dates). Each sheet is its
// own part, so a page selection (a chunk of a large workbook) parses only the
// selected sheets, besides the shared strings and styles every sheet needs.

import { type OutputMode } from '../../engine/blocks.ts';
import { BUILTIN_FORMATS, formatGeneral, formatNumber } from '../../engine/number-formats.ts';
import { coreProperties, readChart, relationships } from './ooxml.ts';
import { MAX_CELLS, tooManyCells } from '../../engine/limits.ts';
import { type Drawing, type Sheet, selectedNumbers, sheetsOutput } from '../../engine/sheets.ts';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { ExtractionError, type FormatOutput, } from '../../engine/types.ts';

/** What every sheet of a workbook is read with: its package, shared strings, number formats and date system, and its sheets in order. */
export interface Workbook {
  zip: SafeZip;
  strings: string[];
  /** The shared strings' mean length: what a cell pointing to one holds, on average. */
  sharedLength: number;
  formats: string[];
  date1904: boolean;
  sheets: Array<{ name: string; target: string | undefined }>;
}

export function openWorkbook(bytes: Uint8Array, budget?: InflateBudget): Workbook {
  const zip = new SafeZip(bytes, budget);
  const main = 'xl/workbook.xml';
  const workbook = readXml(zip, main);
  if (!workbook) throw new ExtractionError('corrupt_file', 'The XLSX could not be read: xl/workbook.xml is missing.');
  const rels = relationships(zip, main);
  const partOf = (type: string) => [...rels.values()].find((r) => r.type === type)?.target;
  const props = child(workbook, 'workbookPr');
  const strings = sharedStrings(zip, partOf('sharedStrings'));
  return {
    zip,
    strings,
    sharedLength: strings.length === 0 ? 0 : strings.reduce((n, s) => n + s.length, 0) / strings.length,
    formats: cellFormats(zip, partOf('styles')),
    date1904: props?.attrs.date1904 === '1' || props?.attrs.date1904 === 'true',
    sheets: elements(child(workbook, 'sheets') ?? workbook, 'sheet').map((s, i) => ({ name: s.attrs.name ?? `Sheet${i + 1}`, target: rels.get(s.attrs.id ?? '')?.target })),
  };
}

/** `pages`: 1-based sheet numbers to read (config.pages); null for every sheet. */
export function extractXlsx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const book = openWorkbook(bytes, budget);
  const { zip, strings, formats, date1904, sheets: listed } = book;
  // With a selection the cap counts the cells read: the chunks of a large workbook are held to it
  // one by one here, and the workbook as a whole when its parts are merged (aggregate.ts).
  const cellBudget = { cells: MAX_CELLS };
  const kept = selectedNumbers(listed.length, pages);
  const sheets = kept.map((number): Sheet => {
    const { name, target } = listed[number - 1]!;
    const rows = new SheetRows(strings, formats, date1904, cellBudget);
    // Rows are read as the parser closes them, so the sheet is never a tree of all its cells.
    if (target) readXml(zip, target, { name: 'row', visit: (row) => rows.add(row) });
    return { name, rows: rows.rows, ...sheetExtras(zip, target) };
  });
  return sheetsOutput(sheets, mode, coreProperties(zip), { names: listed.map((s) => s.name), kept, selected: pages !== null });
}

/** What a sheet shows besides its cells: its comments, charts, text boxes and described pictures. */
export function sheetExtras(zip: SafeZip, target: string | undefined): Pick<Sheet, 'comments' | 'drawings'> {
  const sheetRels = target ? relationships(zip, target) : new Map<string, { target: string; type: string }>();
  return { comments: comments(zip, sheetRels), drawings: drawings(zip, sheetRels) };
}

/** The sheet's comments (notes): the legacy comments part, which Excel also writes for threaded comments. */
function comments(zip: SafeZip, rels: Map<string, { target: string; type: string }>): Array<{ ref: string; text: string }> {
  const out: Array<{ ref: string; text: string }> = [];
  for (const r of rels.values()) {
    if (r.type !== 'comments') continue;
    const root = readXml(zip, r.target);
    const list = root && child(root, 'commentList');
    if (!list) continue;
    for (const c of elements(list, 'comment')) {
      const text = child(c, 'text');
      const s = text ? richString(text).replace(/\s+/g, ' ').trim() : '';
      if (s) out.push({ ref: c.attrs.ref ?? '', text: s });
    }
  }
  return out;
}

/** Charts (their titles), text boxes and described pictures of the sheet's drawing, in drawing order. */
function drawings(zip: SafeZip, rels: Map<string, { target: string; type: string }>): Drawing[] {
  const out: Drawing[] = [];
  for (const r of rels.values()) {
    if (r.type !== 'drawing') continue;
    const root = readXml(zip, r.target);
    if (!root) continue;
    const drawingRels = relationships(zip, r.target);
    for (const anchor of elements(root)) {
      for (const ref of descendants(anchor, 'chart')) {
        const target = drawingRels.get(ref.attrs.id ?? '')?.target;
        const chart = target ? readChart(zip, target) : null;
        if (chart) out.push({ kind: 'chart', chart });
      }
      for (const sp of descendants(anchor, 'sp')) {
        const body = child(sp, 'txBody');
        const text = body ? elements(body, 'p').map((p) => descendants(p, 't').map(textContent).join('')).join('\n').trim() : '';
        if (text) out.push({ kind: 'text', text });
      }
      for (const pic of descendants(anchor, 'pic')) {
        const nv = child(pic, 'nvPicPr');
        const descr = (nv && child(nv, 'cNvPr')?.attrs.descr)?.trim();
        if (descr && !/^[^\s]+\.[a-z0-9]{2,4}$/i.test(descr)) out.push({ kind: 'figure', text: descr });
      }
    }
  }
  return out;
}

/** Text of a rich string (si, is, comment text): its runs, not phonetic readings. */
function richString(el: XmlElement): string {
  return el.children
    .filter((c): c is XmlElement => typeof c !== 'string' && (c.name === 't' || c.name === 'r'))
    .map((c) => textContent(c.name === 'r' ? (child(c, 't') ?? '') : c))
    .join('');
}

function sharedStrings(zip: SafeZip, part: string | undefined): string[] {
  const strings: string[] = [];
  // Phonetic runs (rPh) are reading aids, not cell text. Handed over one at a time: a large table's strings never stand as one tree.
  if (part) readXml(zip, part, { name: 'si', visit: (si) => strings.push(richString(si)) });
  return strings;
}

/** Style index to number format code. */
function cellFormats(zip: SafeZip, part: string | undefined): string[] {
  const styles = part ? readXml(zip, part) : null;
  if (!styles) return [];
  const custom = new Map<number, string>();
  for (const f of elements(child(styles, 'numFmts') ?? styles, 'numFmt')) custom.set(Number(f.attrs.numFmtId), f.attrs.formatCode ?? '');
  return elements(child(styles, 'cellXfs') ?? styles, 'xf').map((xf) => {
    const id = Number(xf.attrs.numFmtId ?? 0);
    return custom.get(id) ?? BUILTIN_FORMATS[id] ?? 'General';
  });
}

/** A sheet's cell texts by row and column, filled one `row` element at a time (a chart sheet has none). */
class SheetRows {
  readonly rows: string[][] = [];
  private nextRow = 1;

  constructor(
    private readonly strings: string[],
    private readonly formats: string[],
    private readonly date1904: boolean,
    private readonly budget: { cells: number },
  ) {}

  add(row: XmlElement): void {
    const r = Number(row.attrs.r) || this.nextRow;
    this.nextRow = r + 1;
    const cells = rowCells(row, this.strings, this.formats, this.date1904, this.budget);
    if (cells.length === 0) return;
    while (this.rows.length < r - 1) this.rows.push([]);
    this.rows[r - 1] = cells;
  }
}

/** A row element's cell texts by column (from A), counted against the workbook's cell budget. */
export function rowCells(row: XmlElement, strings: string[], formats: string[], date1904: boolean, budget: { cells: number }): string[] {
  const cells: string[] = [];
  let nextCol = 0;
  for (const c of elements(row, 'c')) {
    const col = c.attrs.r ? columnIndex(c.attrs.r) : nextCol;
    nextCol = col + 1;
    const value = cellText(c, strings, formats, date1904);
    if (value === '') continue;
    if (--budget.cells < 0) throw tooManyCells('workbook');
    while (cells.length < col) cells.push('');
    cells[col] = value;
  }
  return cells;
}

export function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return Math.min(n - 1, 16383);
}

export function cellText(c: XmlElement, strings: string[], formats: string[], date1904: boolean): string {
  const type = c.attrs.t ?? 'n';
  if (type === 'inlineStr') {
    const is = child(c, 'is');
    return is ? textContent(is) : '';
  }
  const v = child(c, 'v');
  const raw = v ? textContent(v) : '';
  if (raw === '') return '';
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? '';
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'str':
    case 'e':
      return raw;
    default: {
      const n = Number(raw);
      if (!Number.isFinite(n)) return raw;
      const code = formats[Number(c.attrs.s ?? 0)] ?? 'General';
      try {
        return formatNumber(n, code, date1904);
      } catch {
        return formatGeneral(n);
      }
    }
  }
}
