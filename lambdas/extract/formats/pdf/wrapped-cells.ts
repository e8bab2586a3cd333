// An unruled table's cell whose text wraps over lines (a description column,
// a long label) leaves lines of fewer pieces under its row, each starting
// where the cell starts (or centred under it) and ending before the next
// column, that carry its sentence on. Left as lines of their own, they part
// the table's full rows, so no run of three is found and their words stay in
// the page's text, or each wrapped line is read as a row with cells empty.
// Folded into the row above, the rows read as one run and the cell as one text.

import { isFigure } from './figures.ts';
import { LOWER_HYPHEN_END, STARTS_LOWER } from '../../engine/letters.ts';
import type { Span } from './sparse-rows.ts';
import type { TextRun } from './tables.ts';

export interface WrappingCell extends Span {
  runs: TextRun[];
  /** The runs of each further line the cell's text wraps onto, top first. */
  wrapped?: TextRun[][];
}

export interface WrappingLine {
  y: number;
  height: number;
  cells: WrappingCell[];
  /** Pieces of two page columns on one baseline (tables.ts inColumns): never a table row. */
  mixed?: boolean;
  /** Where its lowest wrapped line stands (page space, y up), when it has one. */
  foot?: number;
}

const MIN_ROW_CELLS = 3;

/** Lines in page order (top first), with each line that continues cells of the row above folded into that row. */
export function foldWrappedCells<L extends WrappingLine>(lines: L[], text: (runs: readonly TextRun[], height: number) => string): L[] {
  const out: L[] = [];
  // Cells of lines of two pieces or more: a paragraph's line at a column's left edge says nothing of the column's width.
  const cells = lines.filter((l) => l.cells.length >= 2).flatMap((l) => l.cells);
  // Where the text of a column starting at `x0` ends at the most: a line's next word fitted up to there.
  const edge = (x0: number, slack: number) => Math.max(...cells.filter((c) => Math.abs(c.x0 - x0) <= slack).map((c) => c.x1));
  // Rows that took a wrapped line, copied: the lines given are left as they were (the caller may read them again).
  const folded = new Set<L>();
  for (const line of lines) {
    let row = out.at(-1);
    const slots = row ? continuedCells(row, line, text, edge) : null;
    if (!row || !slots) {
      out.push(line);
      continue;
    }
    if (!folded.has(row)) {
      row = { ...row, cells: row.cells.map((c) => ({ ...c, wrapped: c.wrapped && [...c.wrapped] })) };
      folded.add(row);
      out[out.length - 1] = row;
    }
    for (const [i, cell] of line.cells.entries()) {
      const target = row.cells[slots[i]!]!;
      (target.wrapped ??= []).push(cell.runs);
      target.x1 = Math.max(target.x1, cell.x1);
    }
    row.foot = line.y;
  }
  return out;
}

/** The text of a cell over all its lines, a word hyphenated at a line's end joined again. */
export function cellText(cell: WrappingCell, height: number, text: (runs: readonly TextRun[], height: number) => string): string {
  let out = text(cell.runs, height);
  for (const runs of cell.wrapped ?? []) {
    const next = text(runs, height);
    out = LOWER_HYPHEN_END.test(out) && STARTS_LOWER.test(next) ? out.slice(0, -1) + next : `${out} ${next}`;
  }
  return out;
}

/** Every run of a cell, its wrapped lines' too. */
export const cellRuns = (cell: WrappingCell): TextRun[] => (cell.wrapped ? [...cell.runs, ...cell.wrapped.flat()] : cell.runs);

/**
 * For a line that continues cells of `row`, the cell of the row each of its pieces continues; else null. A
 * piece continues a cell when it starts where the cell starts, ends before the next cell does, and carries the
 * cell's last line on (that line ends with a hyphen, a comma or a word no sentence ends with, or the piece opens
 * in lower case), or its first word would not have fitted on that line within its column (running text wraps
 * there only), neither of them a figure. Under the first column it takes both: a label under a row is mostly the
 * next record's, in a row that leaves cells empty.
 */
function continuedCells(
  row: WrappingLine,
  line: WrappingLine,
  text: (runs: readonly TextRun[], height: number) => string,
  edge: (x0: number, slack: number) => number,
): number[] | null {
  if (row.cells.length < MIN_ROW_CELLS || row.mixed || line.mixed || line.cells.length >= row.cells.length) return null;
  const height = Math.max(row.height, line.height);
  // A row that opens with a list's mark (a symbol font's bullet is a private-use character, or no text) is a list item
  // beside another page column's text, whose next line is no wrap of it.
  if (MARK.test(text(row.cells[0]!.runs, height))) return null;
  // The next line of the row's lowest one, at a line's pitch.
  if ((row.foot ?? row.y) - line.y > 1.5 * height) return null;
  const slots: number[] = [];
  for (const piece of line.cells) {
    // Under the cell, set as it is: from its left edge, or centred under it (a date column's "August 14," over "2017").
    const k = row.cells.findIndex((c) => Math.abs(c.x0 - piece.x0) <= 0.6 * height || Math.abs(c.x0 + c.x1 - piece.x0 - piece.x1) <= 0.6 * height);
    if (k < 0 || k <= (slots.at(-1) ?? -1)) return null;
    const next = row.cells[k + 1];
    if (next && piece.x1 > next.x0 - 0.3 * height) return null;
    const cell = row.cells[k]!;
    const lastRuns = cell.wrapped?.at(-1) ?? cell.runs;
    // A cell's text keeps its size: a heading under the table is set larger.
    const [above, below] = [lastRuns[0]!.size, piece.runs[0]!.size];
    if (above && below && Math.abs(above - below) > 0.1 * Math.max(above, below)) return null;
    const [last, own] = [text(lastRuns, height), text(piece.runs, height)];
    const first = piece.runs[0]!;
    const end = Math.max(...lastRuns.map((r) => r.x1));
    // The column ends where its longest text does, and before the next column starts (a cell's text set close to the
    // next one's can pass for one piece with it, and for the column's width). One word alone says nothing: in a
    // column of short codes, none fits after another.
    const right = Math.min(edge(cell.x0, 0.6 * height), next ? next.x0 - 0.5 * height : Infinity);
    const noRoom = lastRuns.length >= 2 && end + 0.25 * height + (first.x1 - first.x0) > right && !isFigure(last) && !isFigure(own);
    const carried = CARRIES.test(last) || OPENS_LOWER.test(own);
    // Under a row's first cell, a line opens the next record (a sheet's row that leaves cells empty) unless both hold;
    // under the others, either does.
    if (k === 0 ? !(carried && noRoom) : !(carried || noRoom)) return null;
    slots.push(k);
  }
  return slots;
}

const MARK = /^(?:[•◦▪‣∙·*–—\p{Co}-]|\(?(?:\d{1,2}|[a-z])[.)])?$/u;
const CARRIES = /(?:[-,]|\b(?:and|or|of|the|to|in|for|with|a|an|by|on|at|from|as)\b)$/i;
const OPENS_LOWER = /^[\p{Ps}\p{Pi}"']*\p{Ll}/u;
