// An unruled table's rows that leave cells empty have fewer pieces than its
// full rows, and a run of equal rows stops at them. Around a run of full rows,
// a line whose pieces each stand under one of the run's columns, in order, is
// a row of the same table; cells it leaves out are empty.

import { isFigure } from './figures.ts';
import type { TextRun } from './tables.ts';

export interface Span {
  x0: number;
  x1: number;
}

interface RowLine {
  y: number;
  height: number;
  cells: Array<Span & { runs: TextRun[] }>;
  /** Pieces of two page columns on one baseline: never a row. */
  mixed?: boolean;
  /** Where its lowest line stands, when a cell of it wraps over lines. */
  foot?: number;
}

export interface SlottedTable<L> {
  lines: L[];
  /** For each line, the column each of its cells stands under. */
  slots: number[][];
  columns: Span[];
}

/** Where each of a run of full rows' columns runs, over all its rows. */
export function columnSpans(run: RowLine[]): Span[] {
  return run[0]!.cells.map((_, i) => ({ x0: Math.min(...run.map((l) => l.cells[i]!.x0)), x1: Math.max(...run.map((l) => l.cells[i]!.x1)) }));
}

/**
 * Each run of full rows (lines of `lines`, in order, as the page's lines are
 * before they are cut at a column gutter) with the lines above and
 * below it that fit its columns. Rows with cells missing are taken between
 * full rows; past the last full row below or the first above, only while they
 * hold a figure (a total under the table, not a note). Above, a full row must
 * hold a figure too: one without is the table's header, read as such (its
 * cells may wrap over two lines). A run reached by the table above it is part
 * of that table.
 */
export function withSparseRows<L extends RowLine>(lines: L[], runs: L[][]): SlottedTable<L>[] {
  const taken = new Set<L>();
  const tables: SlottedTable<L>[] = [];
  for (const run of runs) {
    if (taken.has(run[0]!)) continue;
    const columns = columnSpans(run);
    const everyColumn = columns.map((_, i) => i);
    const rows = run.map((line) => ({ line, slots: everyColumn }));
    // A run of lines cut at a page's column gutter is read as it is: the lines beside it are another column's.
    if (run.some((line) => !lines.includes(line))) {
      tables.push({ lines: run, slots: rows.map((r) => r.slots), columns });
      continue;
    }
    for (let j = lines.indexOf(run.at(-1)!) + 1; j < lines.length; j++) {
      const line = lines[j]!;
      const slots = taken.has(line) || apart(rows.at(-1)!.line, line) ? null : slotsOf(line, columns);
      if (!slots) break;
      rows.push({ line, slots });
    }
    while (rows.length > run.length && rows.at(-1)!.slots.length < columns.length && !holdsFigure(rows.at(-1)!.line)) rows.pop();
    // Above, a full row holds a figure (one without is the header); rows with cells missing wait for one over them.
    const waiting: typeof rows = [];
    for (let j = lines.indexOf(run[0]!) - 1; j >= 0; j--) {
      const line = lines[j]!;
      const slots = taken.has(line) || apart(line, (waiting[0] ?? rows[0]!).line) ? null : slotsOf(line, columns);
      const full = slots?.length === columns.length;
      if (!slots || (full && !holdsFigure(line))) break;
      waiting.unshift({ line, slots });
      if (full) rows.unshift(...waiting.splice(0));
    }
    while (waiting.length > 0 && holdsFigure(waiting.at(-1)!.line)) rows.unshift(waiting.pop()!);
    for (const row of rows) taken.add(row.line);
    tables.push({ lines: rows.map((r) => r.line), slots: rows.map((r) => r.slots), columns });
  }
  return tables;
}

/** The columns a line's cells stand under, one each and in order, or null when a cell stands under none or several. */
function slotsOf(line: RowLine, columns: Span[]): number[] | null {
  if (line.mixed || line.cells.length < 2) return null;
  const slots: number[] = [];
  for (const cell of line.cells) {
    let slot = -1;
    for (let c = 0; c < columns.length; c++) {
      // Touching is not standing under: a clipped label can end where the next column's header starts.
      if (Math.min(cell.x1, columns[c]!.x1) - Math.max(cell.x0, columns[c]!.x0) < TOUCH) continue;
      if (slot >= 0) return null;
      slot = c;
    }
    if (slot < 0 || slot <= (slots.at(-1) ?? -1)) return null;
    slots.push(slot);
  }
  return slots;
}

/** Points of overlap below which a cell only touches a column. */
const TOUCH = 1;

/** Further apart than a table's rows stand (a gap in the text, another block). */
export const apart = (above: RowLine, below: RowLine) => (above.foot ?? above.y) - below.y > Math.max(above.height, below.height) * 3.5;

/** A cell of the line is a figure, whole ("43", "1,204.50"; not a year in a line of prose). */
const holdsFigure = (line: RowLine) => line.cells.some((c) => isFigure(c.runs.map((r) => r.text).join(' ')));
