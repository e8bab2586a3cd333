// XLSX: one page per sheet, its cells as the spreadsheet shows them (number
// formats applied to numbers and dates), cut into its tables and notes by
// engine/sheets.ts, merged cells (mergeCells) repeating their value. Each
// sheet is its own part, so a page selection (a chunk of a large workbook)
// parses only the selected sheets, besides the shared strings and styles
// every sheet needs. A hidden sheet is read (its cells count as a whole read
// counts them) but not written.

import { type OutputMode } from '../../engine/blocks.ts';
import { BUILTIN_FORMATS, formatGeneral, formatNumber } from '../../engine/number-formats.ts';
import { coreProperties, readChart, relationships } from './ooxml.ts';
import { MAX_CELLS, tooManyCells } from '../../engine/limits.ts';
import { type Drawing, type Sheet, type SheetComment, selectedNumbers, sheetsOutput } from '../../engine/sheets.ts';
import type { CellRange } from '../../engine/merged-cells.ts';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { missingPart, SafeZip, type InflateBudget } from '../../containers/zip.ts';
import type { FormatOutput } from '../../engine/types.ts';

/** What every sheet of a workbook is read with: its package, shared strings, number formats and date system, and its sheets in order. */
export interface Workbook {
  zip: SafeZip;
  strings: string[];
  /** The shared strings' mean length: what a cell pointing to one holds, on average. */
  sharedLength: number;
  formats: string[];
  date1904: boolean;
  /** state="hidden" or "veryHidden": sheets the workbook does not show its reader. */
  sheets: Array<{ name: string; target: string | undefined; hidden: boolean }>;
  /** Display names of the authors of threaded comments, by person id. */
  persons: Map<string, string>;
}

export function openWorkbook(bytes: Uint8Array, budget?: InflateBudget): Workbook {
  const zip = new SafeZip(bytes, budget);
  const main = 'xl/workbook.xml';
  const workbook = readXml(zip, main);
  if (!workbook) throw missingPart(zip, 'XLSX', main);
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
    sheets: elements(child(workbook, 'sheets') ?? workbook, 'sheet').map((s, i) => ({
      name: s.attrs.name ?? `Sheet${i + 1}`,
      target: rels.get(s.attrs.id ?? '')?.target,
      hidden: s.attrs.state === 'hidden' || s.attrs.state === 'veryHidden',
    })),
    persons: persons(zip, partOf('person')),
  };
}

/** `pages`: 1-based sheet numbers to read (config.pages); null for every sheet. */
export function extractXlsx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const book = openWorkbook(bytes, budget);
  const { zip, strings, formats, date1904, persons, sheets: listed } = book;
  // With a selection the cap counts the cells read: the chunks of a large workbook are held to it
  // one by one here, and the workbook as a whole when its parts are merged (aggregate.ts).
  const cellBudget = { cells: MAX_CELLS };
  const kept = selectedNumbers(listed.length, pages);
  const sheets = kept.map((number): Sheet => {
    const { name, target, hidden } = listed[number - 1]!;
    const rows = new SheetRows(strings, formats, date1904, cellBudget);
    // Rows are read as the parser closes them, so the sheet is never a tree of all its cells.
    const root = target ? readXml(zip, target, { name: 'row', visit: (row) => rows.add(row) }) : null;
    return { name, hidden, rows: rows.rows, merges: root ? mergedRanges(root) : [], ...sheetExtras(zip, target, persons) };
  });
  return sheetsOutput(sheets, mode, coreProperties(zip), { names: listed.map((s) => s.name), kept, selected: pages !== null });
}

/** The sheet's merged ranges (mergeCells), 0-based. */
function mergedRanges(root: XmlElement): CellRange[] {
  const list = child(root, 'mergeCells');
  if (!list) return [];
  const out: CellRange[] = [];
  for (const m of elements(list, 'mergeCell')) {
    const [from, to] = (m.attrs.ref ?? '').split(':');
    const a = from ? cellPosition(from) : null;
    const b = to ? cellPosition(to) : a;
    if (a && b) out.push({ top: Math.min(a.row, b.row), left: Math.min(a.col, b.col), bottom: Math.max(a.row, b.row), right: Math.max(a.col, b.col) });
  }
  return out;
}

/** A cell reference ("B12", "$B$12") as 0-based row and column; null if it is none. */
function cellPosition(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/.exec(ref.trim().toUpperCase());
  return m ? { row: Number(m[2]) - 1, col: columnIndex(m[1]!) } : null;
}

/** What a sheet shows besides its cells: its comments, charts, text boxes and described pictures. */
export function sheetExtras(zip: SafeZip, target: string | undefined, persons: Map<string, string>): Pick<Sheet, 'comments' | 'drawings'> {
  const sheetRels = target ? relationships(zip, target) : new Map<string, { target: string; type: string }>();
  return { comments: comments(zip, sheetRels, persons), drawings: drawings(zip, sheetRels) };
}

/**
 * The sheet's comments. Notes are the legacy comments part, with their
 * authors. For a comment thread Excel writes a note there too, whose text is
 * a placeholder ("[Threaded comment] Your version of Excel allows you to read
 * this threaded comment; ...") for versions without threads; the thread
 * itself is in the threaded comments part: the comment and its replies, each
 * by a person of the workbook's person list. The thread is read in its
 * note's place.
 */
function comments(zip: SafeZip, rels: Map<string, { target: string; type: string }>, persons: Map<string, string>): SheetComment[] {
  const threads = threadedComments(zip, rels, persons);
  const out: SheetComment[] = [];
  for (const r of rels.values()) {
    if (r.type !== 'comments') continue;
    const root = readXml(zip, r.target);
    const list = root && child(root, 'commentList');
    if (!list) continue;
    const authors = elements(child(root, 'authors') ?? root, 'author').map((a) => textContent(a).trim());
    for (const c of elements(list, 'comment')) {
      const ref = c.attrs.ref ?? '';
      const thread = threads.get(ref);
      if (thread) {
        out.push(...thread);
        threads.delete(ref);
        continue;
      }
      const text = child(c, 'text');
      let s = text ? richString(text).replace(/\s+/g, ' ').trim() : '';
      // Excel opens a note with its author's name in bold ("Ann:"): the author is written apart.
      const author = authors[Number(c.attrs.authorId)] ?? '';
      if (author && s.startsWith(`${author}:`)) s = s.slice(author.length + 1).trim();
      if (s) out.push({ ref, text: s, ...(author ? { author } : {}) });
    }
  }
  // A thread without its note (a writer that skips the legacy part) is read all the same.
  for (const thread of threads.values()) out.push(...thread);
  return out;
}

/** The sheet's comment threads by cell reference: each comment first, then its replies in the order written. */
function threadedComments(zip: SafeZip, rels: Map<string, { target: string; type: string }>, persons: Map<string, string>): Map<string, SheetComment[]> {
  const out = new Map<string, SheetComment[]>();
  for (const r of rels.values()) {
    if (r.type !== 'threadedComment') continue;
    const root = readXml(zip, r.target);
    if (!root) continue;
    for (const c of elements(root, 'threadedComment')) {
      const el = child(c, 'text');
      const text = el ? textContent(el).replace(/\s+/g, ' ').trim() : '';
      if (!text) continue;
      const ref = c.attrs.ref ?? '';
      const author = persons.get(c.attrs.personId ?? '') ?? '';
      const list = out.get(ref) ?? [];
      list.push({ ref, text, ...(author ? { author } : {}), ...(c.attrs.parentId ? { reply: true } : {}) });
      out.set(ref, list);
    }
  }
  return out;
}

/** The workbook's person list (the authors of threaded comments): display names by id. */
function persons(zip: SafeZip, part: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const root = part ? readXml(zip, part) : null;
  if (!root) return out;
  for (const p of elements(root, 'person')) if (p.attrs.id && p.attrs.displayName?.trim()) out.set(p.attrs.id, p.attrs.displayName.trim());
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
