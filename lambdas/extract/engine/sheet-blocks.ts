// A sheet's cells written as the blocks a reader sees: where the blocks are
// is sheet-regions.ts's; what each one is, here. A single value standing
// alone is a one-cell table (a cell of the grid, as a spreadsheet reader
// shows it); leading rows that hold one value at a block's
// left edge over a wider table (a title, a subtitle) are paragraphs before
// it; a block of one value a row is a one-column table when it is one column
// wide (a list of values), else lines of text (labels merged across the
// sheet); the rest is a table. Merged cells repeat their value over the
// cells they cover (merged-cells.ts).

import { firstNotBefore } from './binary-search.ts';
import type { Blocks } from './blocks.ts';
import { type CellRange, spreadMerged } from './merged-cells.ts';
import { sheetRegions } from './sheet-regions.ts';

/** A cell holds something when it holds more than blanks; most start with a printable ASCII character, tested first. */
const BLANKS = /^\s*$/;
const holds = (s: string | undefined) => {
  if (s === undefined || s === '') return false;
  const c = s.charCodeAt(0);
  return (c > 0x20 && c < 0x7f) || !BLANKS.test(s);
};

interface Cells {
  rows: string[][];
  /** Each row's columns with a value, ascending. */
  filled: number[][];
  merges: CellRange[];
}

/** The sheet's cells as the blocks a reader sees, in reading order; merged copies count against `budget`. */
export function writeSheetCells(out: Blocks, sheet: { name: string; rows: string[][]; merges?: CellRange[] }, budget: { cells: number }): void {
  const { rows } = sheet;
  const merges = spreadMerged(rows, sheet.merges ?? [], budget, 'workbook');
  const filled: number[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const cols: number[] = [];
    const row = rows[r] ?? [];
    for (let c = 0; c < row.length; c++) if (holds(row[c])) cols.push(c);
    filled[r] = cols;
  }
  const cells = { rows, filled, merges };
  for (const region of sheetRegions(filled, (r, c) => rows[r]?.[c] ?? '')) writeBlock(out, region, cells, sheet.name);
}

function writeBlock(out: Blocks, region: CellRange, cells: Cells, sheet: string): void {
  const { merges } = cells;
  const text = (r: number, c: number) => cells.rows[r]?.[c] ?? '';
  const byRow = new Map<number, number[]>();
  merges.forEach((m, i) => {
    if (m.top > region.bottom || m.bottom < region.top || m.left > region.right || m.right < region.left) return;
    for (let r = m.top; r <= m.bottom; r++) {
      const list = byRow.get(r);
      if (list) list.push(i);
      else byRow.set(r, [i]);
    }
  });
  const mergeAt = (r: number, c: number) => byRow.get(r)?.find((i) => merges[i]!.left <= c && c <= merges[i]!.right);
  /** The values row r shows in the block, up to two: a merged range is one value however many cells it covers. */
  const shown = (r: number): Array<{ key: string; col: number; text: string }> => {
    const found: Array<{ key: string; col: number; text: string }> = [];
    for (const c of filledIn(cells.filled[r], region)) {
      const m = mergeAt(r, c);
      const key = m === undefined ? `${r}:${c}` : `m${m}`;
      if (!found.some((f) => f.key === key)) found.push({ key, col: m === undefined ? c : merges[m]!.left, text: text(r, c) });
      if (found.length === 2) break;
    }
    return found;
  };
  const lines: Array<{ key: string; text: string }> = [];
  let r = region.top;
  for (; r <= region.bottom; r++) {
    const values = shown(r);
    if (values.length === 0) continue;
    if (values.length > 1 || values[0]!.col !== region.left) break;
    if (lines.at(-1)?.key !== values[0]!.key) lines.push(values[0]!);
  }
  const oneColumn = region.left === region.right;
  // A value standing alone is the cell it is (a one-cell table, as the sheet shows it, a grid cell); lines of labels
  // merged across the sheet, one under another, read as the text they are.
  if (r > region.bottom && lines.length === 1) {
    out.table([[lines[0]!.text]], { sheet });
    return;
  }
  if (r > region.bottom && !(oneColumn && lines.length > 1)) {
    for (const line of lines) out.paragraph(line.text);
    return;
  }
  if (!oneColumn) for (const line of lines) out.paragraph(line.text);
  const from = oneColumn ? region.top : r;
  // A row holding nothing but the lower part of cells merged down from above shows nothing new: no row of its own.
  const continues = (row: number) => {
    if (!byRow.has(row)) return false;
    for (const c of filledIn(cells.filled[row], region)) {
      const m = mergeAt(row, c);
      if (m === undefined || merges[m]!.top === row) return false;
    }
    return true;
  };
  // The table's columns: those that hold something in its rows (a spacer column is none of them).
  const used = new Uint8Array(region.right - region.left + 1);
  for (let row = from; row <= region.bottom; row++) for (const c of filledIn(cells.filled[row], region)) used[c - region.left] = 1;
  const columns: number[] = [];
  used.forEach((u, i) => {
    if (u) columns.push(region.left + i);
  });
  const table: string[][] = [];
  for (let row = from; row <= region.bottom; row++) {
    if (row > from && continues(row)) continue;
    table.push(columns.map((c) => text(row, c)));
  }
  out.table(table, { sheet });
}

/** The columns of `cols` (ascending) within the region's. */
function* filledIn(cols: number[] | undefined, region: CellRange): Generator<number> {
  if (!cols) return;
  for (let i = firstNotBefore(cols.length, (k) => cols[k]! < region.left); i < cols.length && cols[i]! <= region.right; i++) yield cols[i]!;
}
