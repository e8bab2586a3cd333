// Large worksheets cut into runs of rows (engine/page-parts.ts). A sheet is
// one page however many cells it holds, and its result is several times the
// size of its XML: read whole, a sheet of a million cells held the worker's
// memory at many times the file. Planning scans each sheet once as it
// inflates and cuts it at the row starts after every CELLS_PER_CHUNK cell
// elements (with a value or not) or TEXT_BYTES_PER_CHUNK of XML (with the
// shared strings its cells point to), whichever comes first. It also works out what a part needs of
// the whole sheet to write its rows as one table: the table's first column
// and width (the used range of every row) and the header row. A part then
// inflates its sheet up to its own end, parses its rows only, and stops.
// Such a sheet is one table of its used range, run by run: no part sees the
// whole sheet, so it is not cut into the blocks a whole read cuts a sheet
// into (engine/sheet-regions.ts), and its merged cells are not repeated.

import { parseXml, type XmlElement } from '../../containers/xml.ts';
import { CELLS_PER_CHUNK, MAX_CELLS, TEXT_BYTES_PER_CHUNK, tooManyCells } from '../../engine/limits.ts';
import type { PagePart, PlannedPage, SheetRows } from '../../engine/page-parts.ts';
import { type OutputMode } from '../../engine/blocks.ts';
import { selectedNumbers, sheetPieceOutput } from '../../engine/sheets.ts';
import type { FormatOutput } from '../../engine/types.ts';
import type { InflateBudget } from '../../containers/zip.ts';
import { coreProperties } from './ooxml.ts';
import { cellText, columnIndex, openWorkbook, rowCells, sheetExtras, type Workbook } from './xlsx.ts';

/** Row and cell start tags and the end of the sheet's data, whatever the prefix; `c` and `row` only, not `col` or `rowBreaks`. */
const MARKUP = /<(\/?)(?:[A-Za-z_][\w.-]*:)?(row|c|sheetData)(?=[\s>/])/g;
const CELL_END = /<\/(?:[A-Za-z_][\w.-]*:)?c>/g;
const SHARED = /\st\s*=\s*["']s["']/;

export interface PlanOptions {
  budget?: InflateBudget;
  part?: PartBudget;
  maxCells?: number;
}

/** What one part holds at most, besides the row it ends on: cell elements (with a value or not), and text estimated from its XML. */
interface PartBudget {
  cells: number;
  text: number;
}

/**
 * The selected sheets of a workbook (every sheet without a selection), each
 * with its cells and, for a sheet over a part's budget (`part`: cell
 * elements and estimated text), its parts. `maxCells` is the workbook's cap.
 */
export async function planSheetParts(bytes: Uint8Array, pages: number[] | null, opts: PlanOptions = {}): Promise<PlannedPage[]> {
  const book = openWorkbook(bytes, opts.budget);
  const part = opts.part ?? { cells: CELLS_PER_CHUNK, text: TEXT_BYTES_PER_CHUNK };
  const maxCells = opts.maxCells ?? MAX_CELLS;
  const sheets = selectedNumbers(book.sheets.length, pages).map((page) => ({ page, target: book.sheets[page - 1]!.target }));
  const planned: PlannedPage[] = [];
  let valued = 0;
  for (const { page, target } of sheets) {
    const sheet = target ? await planSheet(book, page, target, part) : { planned: { page, cells: 0, parts: null }, valued: 0 };
    planned.push(sheet.planned);
    valued += sheet.valued;
  }
  // Cells with a value bound the cells with text a whole read counts from above. Only past the cap are they read,
  // every one, so that a workbook a whole read refuses is refused here, before its chunks run.
  if (valued > maxCells) {
    const left = { cells: maxCells };
    for (const { page, target } of sheets) if (target) await planSheet(book, page, target, part, left);
  }
  return planned;
}

/**
 * One sheet's plan, and its cells with a value (an upper bound of its cells
 * with text). With `exact`, every cell with a value is read and counted
 * against it, as a whole read counts them.
 */
async function planSheet(book: Workbook, page: number, target: string, budget: PartBudget, exact?: { cells: number }): Promise<{ planned: PlannedPage; valued: number }> {
  const starts: number[] = [0];
  let cells = 0;
  let valued = 0;
  let inPart = 0;
  // The shared strings the part's cells point to, at the workbook's mean length: text the part's XML does not hold.
  let sharedText = 0;
  // Raw column bounds of the cells with text so far, and the first row with text.
  let first = Infinity;
  let last = -1;
  let header: [number, number] | null = null;
  let row: { start: number; text: boolean } | null = null;
  let nextCol = 0;
  let dataEnd = -1;
  const endRow = (at: number) => {
    if (row?.text && !header) header = [row.start, at];
    row = null;
  };

  // The XML as Latin-1, a character a byte, so string offsets are byte offsets; the markup looked for is ASCII.
  let carry = '';
  let base = 0;
  for await (const piece of book.zip.stream(target)) {
    const text = carry + Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('latin1');
    // Where the scan stopped: past the last complete tag, or at a tag (or cell) the piece cuts off.
    let done = 0;
    let cutAt = -1;
    MARKUP.lastIndex = 0;
    for (let m = MARKUP.exec(text); m; m = MARKUP.exec(text)) {
      const at = m.index;
      const tagEnd = text.indexOf('>', at);
      if (tagEnd < 0) {
        cutAt = at;
        break;
      }
      const [, closing, name] = m;
      if (name === 'sheetData') {
        if (closing) {
          endRow(base + at);
          dataEnd = base + at;
        }
      } else if (name === 'row' && !closing) {
        endRow(base + at);
        if (inPart >= budget.cells || base + at - starts.at(-1)! + sharedText >= budget.text) {
          starts.push(base + at);
          inPart = 0;
          sharedText = 0;
        }
        row = { start: base + at, text: false };
        nextCol = 0;
      } else if (name === 'c' && !closing) {
        const tag = text.slice(at, tagEnd + 1);
        if (SHARED.test(tag)) sharedText += book.sharedLength;
        // As rowCells reads a cell's column: from its reference when it has one.
        const ref = /\sr\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag);
        const col = ref && (ref[1] ?? ref[2]) ? columnIndex(ref[1] ?? ref[2]!) : nextCol;
        // Only a cell that could move the table's bounds (or be the header's) is read: after the first rows, almost none.
        const empty = tag.endsWith('/>');
        if (!empty && (exact || col < first || col > last || (row !== null && !header))) {
          CELL_END.lastIndex = tagEnd;
          const close = CELL_END.exec(text);
          if (!close) {
            cutAt = at;
            break;
          }
          const cell = parseXml(Buffer.from(text.slice(at, close.index + close[0].length), 'latin1').toString('utf8'), `the part ${target}`);
          const value = cellText(cell, book.strings, book.formats, book.date1904);
          if (value !== '' && exact && --exact.cells < 0) throw tooManyCells('workbook');
          if (value.trim() !== '') {
            first = Math.min(first, col);
            last = Math.max(last, col);
            if (row) row.text = true;
          }
        }
        nextCol = col + 1;
        cells++;
        inPart++;
        if (!empty) valued++;
      }
      done = MARKUP.lastIndex;
    }
    // A tag the piece cut off is read again with the next piece; so is a '<' at its very end (a name cut short).
    const keep = cutAt >= 0 ? cutAt : Math.max(done, text.lastIndexOf('<'));
    base += keep;
    carry = text.slice(keep);
  }
  endRow(dataEnd >= 0 ? dataEnd : base + carry.length);
  const end = dataEnd >= 0 ? dataEnd : base + carry.length;
  if (starts.length === 1) return { planned: { page, cells, parts: null }, valued };
  const column = Number.isFinite(first) ? first : 0;
  const width = last >= column ? last - column + 1 : 0;
  const found = header as [number, number] | null;
  const parts = starts.map((start, i): PagePart => {
    const at: SheetRows = { kind: 'sheet-rows', start, end: starts[i + 1] ?? end, header: found && found[0] < start ? found : null, column, width };
    return { page, first: i === 0, last: i === starts.length - 1, continues: at.header !== null, at };
  });
  return { planned: { page, cells, parts }, valued };
}

/** One part of a sheet, read as its share of the sheet's page (engine/sheets.ts sheetPieceOutput). */
export async function extractSheetPart(bytes: Uint8Array, mode: OutputMode, budget: InflateBudget | undefined, part: PagePart): Promise<FormatOutput> {
  const book = openWorkbook(bytes, budget);
  const { name, target, hidden } = book.sheets[part.page - 1] ?? { name: `Sheet${part.page}`, target: undefined, hidden: false };
  const { at } = part;
  const cellBudget = { cells: MAX_CELLS };
  let rows: string[][] = [];
  let header: string[] | null = null;
  if (target) {
    const [headerXml, rowsXml] = await slices(book, target, [at.header ?? [0, 0], [at.start, at.end]]);
    const read = (xml: string) => {
      const out: string[][] = [];
      parseXml(`<sheetData>${xml}</sheetData>`, `the part ${target}`, {
        name: 'row',
        visit: (row: XmlElement) => {
          const cells = tableRow(rowCells(row, book.strings, book.formats, book.date1904, cellBudget), at);
          if (cells) out.push(cells);
        },
      });
      return out;
    };
    header = at.header ? (read(headerXml!)[0] ?? null) : null;
    rows = read(rowsXml!);
  }
  const extras = part.last ? sheetExtras(book.zip, target, book.persons) : {};
  const names = book.sheets.map((s) => s.name);
  return sheetPieceOutput({ name, hidden, first: part.first, last: part.last, rows, header, extras }, mode, coreProperties(book.zip), { names, kept: [part.page], selected: true });
}

/** A row as the whole table has it (its used range, then normaliseRows): from the table's first column, as wide as the table, cells trimmed; null for a row without text. */
function tableRow(cells: string[], at: SheetRows): string[] | null {
  const out = new Array<string>(at.width);
  let text = false;
  for (let i = 0; i < at.width; i++) {
    const cell = (cells[at.column + i] ?? '').replace(/\s+/g, ' ').trim();
    if (cell !== '') text = true;
    out[i] = cell;
  }
  return text ? out : null;
}

/** The sheet's XML between each pair of byte offsets (ascending, not overlapping), inflating no further than the last. */
async function slices(book: Workbook, target: string, ranges: Array<[number, number]>): Promise<string[]> {
  const wanted = ranges.map(([s, e]) => ({ s, e, pieces: [] as Uint8Array[] }));
  const stop = Math.max(...ranges.map(([, e]) => e));
  let base = 0;
  for await (const piece of book.zip.stream(target)) {
    const next = base + piece.length;
    for (const w of wanted) if (w.s < next && w.e > base) w.pieces.push(piece.subarray(Math.max(0, w.s - base), Math.min(piece.length, w.e - base)));
    base = next;
    if (base >= stop) break;
  }
  const decoder = new TextDecoder('utf-8');
  return wanted.map((w) => decoder.decode(Buffer.concat(w.pieces)));
}
