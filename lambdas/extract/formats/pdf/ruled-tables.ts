// Tables drawn with ruling lines: horizontal and vertical lines that cross
// each other make a grid, and the words whose centres fall inside a grid cell
// are that cell's text. A table without outer borders ends where its lines
// end. A grid is a table when at least two lines are drawn each way and,
// after dropping rows and columns with no text, two rows and two columns are
// left; so a boxed paragraph or a page frame is not one, and a two-column
// table is. Cells that span grid lines land in the grid cell holding their
// centre. A grid row of three or more cells whose short text lines stand side
// by side is one row per line: tables ruled only between columns and under the
// header (the booktabs style) draw no line between their rows. Where a column
// line falls in a word space, the lines are drawn over running text: such a
// row (a note inside the frame) is left out, and a grid of mostly such rows,
// or one whose words carry on outside it, is no table.

import { isFigure } from './figures.ts';
import type { Ruling } from './rulings.ts';
import { wordsText, type PlacedTable, type TextRun } from './tables.ts';

/** A cell's first piece of a wrapped value: words, or a lone "#". */
const LETTER_OR_HASH = /\p{L}|^#$/u;
/** A wrapped value's later pieces: carrying it on in lower case, or a bracketed unit ("(0.75)"). */
const LOWER_OR_BRACKETED = /^\p{Ll}|^\(.*\)$/u;
/** Lines this close (points) are one line: a double rule, the two edges of a thin bar. */
const SNAP = 2.5;
/** More words than this in the average cell is text laid out in ruled boxes, not a table. */
const MAX_MEAN_CELL_WORDS = 40;
/**
 * Words of one line closer than this (in line heights) on either side of a
 * column line: the line crosses running text (a word space is about 0.25),
 * where a table's cells keep their text apart by padding.
 */
const MIN_CELL_GAP = 0.4;
/** Text lines split into rows only when the lines are short, as a table's entries are (prose in ruled columns is not split). */
const MAX_SPLIT_WORDS = 5;
/** Collinear pieces this close end to end are one line; lines this close to crossing cross. */
const JOIN = 3;

export function findRuledTables(drawn: readonly Ruling[], runs: readonly TextRun[]): { tables: PlacedTable[]; rest: TextRun[] } {
  const rulings = withoutCellShading(drawn);
  const h = rulings.filter((r) => r.dir === 'h');
  const v = rulings.filter((r) => r.dir === 'v');
  // Underlines and rules alone (most pages that draw lines at all) make no grid.
  if (h.length < 2 || v.length < 2) return { tables: [], rest: [...runs] };
  const lines = [...merged(h), ...merged(v)];
  const taken = new Set<TextRun>();
  const tables: PlacedTable[] = [];
  for (const grid of grids(lines)) {
    const table = fill(grid, runs.filter((r) => !taken.has(r)));
    if (!table) continue;
    for (const run of table.inside) taken.add(run);
    tables.push({ top: table.top, rows: table.rows, runs: table.runs });
  }
  return { tables, rest: runs.filter((r) => !taken.has(r)) };
}

/**
 * The rulings less the edges of shading set inside a cell of a grid drawn
 * with lines: Word shades a cell's paragraph, not the cell, in from the cell's
 * borders and only as far down as its text, so its edges would cut the cell
 * (its other lines, the cell beside it) into rows and columns of their own.
 * Shading that fills its cell, border to border, or shades rows where no
 * lines are drawn, keeps its edges: there they part the rows.
 */
function withoutCellShading(rulings: readonly Ruling[]): readonly Ruling[] {
  if (!rulings.some((r) => r.shade)) return rulings;
  const solid = rulings.filter((r) => !r.shade);
  const verticals = solid.filter((r) => r.dir === 'v');
  const frames = grids([...merged(solid.filter((r) => r.dir === 'h')), ...merged(verticals)]).map(({ xs, ys }) => ({ x0: xs[0]!, x1: xs.at(-1)!, y0: ys.at(-1)!, y1: ys[0]! }));
  if (frames.length === 0) return rulings;
  const bordered = (x: number, box: { y0: number; y1: number }) => verticals.some((v) => Math.abs(v.at - x) <= SNAP && v.from <= box.y1 && v.to >= box.y0);
  const inset = (box: NonNullable<Ruling['shade']>) =>
    frames.some((f) => box.x0 >= f.x0 - SNAP && box.x1 <= f.x1 + SNAP && box.y0 >= f.y0 - SNAP && box.y1 <= f.y1 + SNAP) && !bordered(box.x0, box) && !bordered(box.x1, box);
  return rulings.filter((r) => !r.shade || !inset(r.shade));
}

/** One direction's rulings with near-equal positions snapped together and touching pieces joined. */
export function merged(rulings: readonly Ruling[]): Ruling[] {
  const sorted = [...rulings].sort((a, b) => a.at - b.at);
  const out: Ruling[] = [];
  let group: Ruling[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const at = group.reduce((sum, r) => sum + r.at, 0) / group.length;
    group.sort((a, b) => a.from - b.from);
    let cur: Ruling = { ...group[0]!, at };
    for (const r of group.slice(1)) {
      if (r.from <= cur.to + JOIN) cur.to = Math.max(cur.to, r.to);
      else {
        out.push(cur);
        cur = { ...r, at };
      }
    }
    out.push(cur);
    group = [];
  };
  for (const r of sorted) {
    if (group.length > 0 && r.at - group[0]!.at > SNAP) flush();
    group.push(r);
  }
  flush();
  return out;
}

const crosses = (h: Ruling, v: Ruling) => v.at >= h.from - JOIN && v.at <= h.to + JOIN && h.at >= v.from - JOIN && h.at <= v.to + JOIN;

/**
 * Sets of lines connected by crossings: each a candidate table. Written as
 * plain loops: as chains of array callbacks this function took V8 100-185 ms
 * to optimise, and was optimised again after every few documents (a deopt on
 * an inlined callback's array), in each pool worker.
 */
function grids(lines: readonly Ruling[]): Grid[] {
  const parent: number[] = [];
  for (let i = 0; i < lines.length; i++) parent.push(i);
  const root = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  for (let h = 0; h < lines.length; h++) {
    if (lines[h]!.dir !== 'h') continue;
    for (let v = 0; v < lines.length; v++) if (lines[v]!.dir === 'v' && crosses(lines[h]!, lines[v]!)) parent[root(h)] = root(v);
  }
  const groups = new Map<number, Ruling[]>();
  for (let i = 0; i < lines.length; i++) {
    const key = root(i);
    const group = groups.get(key);
    if (group) group.push(lines[i]!);
    else groups.set(key, [lines[i]!]);
  }
  const out: Grid[] = [];
  for (const group of groups.values()) {
    // Where no border is drawn, the table ends where the lines across it end.
    const hAt: number[] = [];
    const vAt: number[] = [];
    let left = Infinity;
    let right = -Infinity;
    let bottom = Infinity;
    let top = -Infinity;
    for (const l of group) {
      if (l.dir === 'h') {
        hAt.push(l.at);
        left = Math.min(left, l.from);
        right = Math.max(right, l.to);
      } else {
        vAt.push(l.at);
        bottom = Math.min(bottom, l.from);
        top = Math.max(top, l.to);
      }
    }
    if (distinct(hAt).length < 2 || distinct(vAt).length < 2) continue;
    vAt.push(left, right);
    hAt.push(bottom, top);
    const xs = distinct(vAt);
    const ys = distinct(hAt).reverse();
    // Two rows and two columns need three lines each way.
    if (xs.length >= 3 && ys.length >= 3) out.push({ xs, ys, across: group.filter((l) => l.dir === 'h'), down: group.filter((l) => l.dir === 'v' && !l.shade), walls: group.filter((l) => l.dir === 'v') });
  }
  return out;
}

/** Positions with those closer than SNAP to the last kept one dropped (pieces of one line merged separately). */
function distinct(values: readonly number[]): number[] {
  const sorted = values.slice().sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (out.length === 0 || sorted[i]! - out[out.length - 1]! > SNAP) out.push(sorted[i]!);
  return out;
}

/** The table in a grid: its rows, the words of those rows, and every word inside the grid (a left-out note's too). */
/** A grid: its column and row lines' positions (rows from the top), the lines drawn across it and those drawn down it (not a shaded area's edges: rows shaded a cell at a time leave no edge where rows unshaded have none). */
interface Grid {
  xs: number[];
  ys: number[];
  across: Ruling[];
  down: Ruling[];
  /** Every line down it, a shaded cell's edges too: where a row has none at a column line, a cell spans it there. */
  walls: Ruling[];
}

/** Whether a rule is drawn down the line after column `c` through the middle of grid row `r`, or anywhere in the grid (`r` null). */
function drawnAfter(grid: Grid, c: number, r: number | null): boolean {
  const x = grid.xs[c + 1]!;
  const y = r === null ? null : (grid.ys[r]! + grid.ys[r + 1]!) / 2;
  return grid.down.some((l) => Math.abs(l.at - x) <= SNAP && (y === null || (l.from <= y && l.to >= y)));
}

/**
 * A cell of a grid row that a column rule drawn elsewhere in the grid leaves out in that row is merged with the
 * cell beside it: where such a run of merged cells holds one text, set across the run (centred on it, or
 * reaching past its own column), the text is in every cell of the run, as a spanned cell is in every format (a
 * group's header over its columns). A figure in its own column beside an empty one (a statement's amount and
 * the spacer beside it) stays one cell, and a grid with no rule down between two columns says nothing of spans.
 */
function spanAcross(text: string[][], gridRow: ReadonlyArray<number | null>, extents: ReadonlyArray<ReadonlyArray<[number, number] | null> | null>, grid: Grid): void {
  const { xs } = grid;
  const columns = xs.length - 1;
  const ruled: boolean[] = [];
  for (let c = 0; c < columns - 1; c++) ruled.push(drawnAfter(grid, c, null));
  for (const [t, row] of text.entries()) {
    const r = gridRow[t];
    const extent = extents[t];
    if (r == null || !extent) continue;
    let start = 0;
    for (let c = 0; c < columns; c++) {
      const parted = c === columns - 1 || !ruled[c] || drawnAfter(grid, c, r);
      if (!parted) continue;
      const filled: number[] = [];
      for (let k = start; k <= c; k++) if (row[k] !== '') filled.push(k);
      const k = filled.length === 1 ? filled[0]! : -1;
      const words = k >= 0 ? extent[k] : null;
      if (c > start && words) {
        const width = xs[c + 1]! - xs[start]!;
        // Centred, not set against either side of its own column (a figure there merely stands near the middle).
        const inset = 0.15 * (xs[k + 1]! - xs[k]!);
        const centred = Math.abs((words[0] + words[1]) / 2 - (xs[start]! + xs[c + 1]!) / 2) < 0.1 * width && words[0] > xs[k]! + inset && words[1] < xs[k + 1]! - inset;
        const reaching = words[0] < xs[k]! - SNAP || words[1] > xs[k + 1]! + SNAP;
        if (centred || reaching) for (let j = start; j <= c; j++) row[j] = row[k]!;
      }
      start = c + 1;
    }
  }
}

/** Whether a rule is drawn under grid row `r` across the middle of column `c`. */
function drawnUnder(grid: Grid, r: number, c: number): boolean {
  const [y, x] = [grid.ys[r + 1]!, (grid.xs[c]! + grid.xs[c + 1]!) / 2];
  return grid.across.some((l) => Math.abs(l.at - y) <= SNAP && l.from <= x && l.to >= x);
}

/**
 * Cells of grid rows one above the other where no rule is drawn between them in their column are one cell
 * spanning those rows (a header cell beside a group label ruled off over its columns: "# / enc-layers" beside
 * "TEDs" over "simple complex all"; a label beside the rows it heads) where they hold one text: its text, read top
 * to bottom, is in every row it spans, as a spanned cell is in every format. `gridRow` is each text row's grid row (null where a grid row
 * was read as several text rows, whose cells stay as they are).
 */
function spanDown(text: string[][], gridRow: ReadonlyArray<number | null>, drawn: (r: number, c: number) => boolean): void {
  const columns = Math.max(0, ...text.map((row) => row.length));
  for (let c = 0; c < columns; c++) {
    let start = 0;
    for (let t = 1; t <= text.length; t++) {
      const [a, b] = [gridRow[t - 1], gridRow[t]];
      const joined = t < text.length && a != null && b != null && b === a + 1 && !drawn(a, c);
      if (joined) continue;
      const pieces = text.slice(start, t).map((row) => row[c] ?? '').filter((s) => s !== '');
      // Words, alone or wrapped over the rows (each piece after the first carrying them on in lower case or in
      // brackets: "mAP" over "(0.75)", "#" over "enc-layers"): a column of figures or of currency signs that only
      // the cells beside it rule off holds a value a row, no cell spanning them.
      if (t - start > 1 && LETTER_OR_HASH.test(pieces[0] ?? '') && pieces.slice(1).every((p) => LOWER_OR_BRACKETED.test(p))) {
        const cell = pieces.join(' ');
        for (let k = start; k < t; k++) text[k]![c] = cell;
      }
      start = t;
    }
  }
}

function fill(grid: Grid, runs: readonly TextRun[]): { top: number; rows: string[][]; runs: TextRun[]; inside: TextRun[] } | null {
  const { xs, ys } = grid;
  const cells: TextRun[][][] = ys.slice(1).map(() => xs.slice(1).map(() => []));
  const inside: TextRun[] = [];
  for (const run of runs) {
    const cx = (run.x0 + run.x1) / 2;
    const cy = (run.top + run.bottom) / 2;
    if (cx < xs[0]! || cx > xs.at(-1)! || cy > ys[0]! || cy < ys.at(-1)!) continue;
    const col = lastIndex(xs, (x) => x <= cx, xs.length - 2);
    const row = lastIndex(ys, (y) => y >= cy, ys.length - 2);
    cells[row]![col]!.push(run);
    inside.push(run);
  }
  if (runsOn(inside, runs)) return null;
  // A row whose sentence runs across a column line (a note inside the table's frame) is not part of the table;
  // a grid where most rows are like that is drawn over text.
  // Loops rather than array callbacks, for the reason grids gives.
  let [crossing, plain] = [0, 0];
  for (const row of cells) {
    if (crossesText(row)) crossing++;
    else if (row.some((cell) => cell.length > 0)) plain++;
  }
  if ((cells.length - crossing) * 2 < cells.length) return null;
  // In a table (two rows of text or more without such a row), such a row drawn cell by cell may hold a cell
  // drawn across the column line instead: kept whole. A banner of one row and another so crossed is no table for it.
  const spans = cells.map((row, r) => (plain >= 2 && crossesText(row) ? spannedCells(row, r, grid) : []));
  const tabular: TextRun[][][] = [];
  const rowIndex: number[] = [];
  for (const [r, row] of cells.entries()) {
    if (crossesText(row)) continue;
    tabular.push(row);
    rowIndex.push(r);
  }
  // Rules between most of its rows (two rows or more of one line): a grid row of several lines is then one row
  // whose cells wrap, unless its lines show rows a rule was left out between (rowTexts).
  let singleLine = 0;
  for (const row of tabular) if (lineCount(row) === 1) singleLine++;
  const text: string[][] = [];
  // Each text row's grid row, where the grid row is one text row: a cell those rows share across an undrawn rule spans them.
  const gridRow: Array<number | null> = [];
  // Where each cell's words stand across the page, for the text rows that are grid rows.
  const extents: Array<Array<[number, number] | null> | null> = [];
  for (const [i, row] of tabular.entries()) {
    const lines = rowTexts(row, singleLine >= 2);
    for (const line of lines) {
      text.push(line);
      gridRow.push(lines.length === 1 ? rowIndex[i]! : null);
      extents.push(lines.length === 1 ? row.map((cell) => (cell.length ? [Math.min(...cell.map((w) => w.x0)), Math.max(...cell.map((w) => w.x1))] : null)) : null);
    }
  }
  // A cell drawn across column lines (its row drawn cell by cell, no edge there) is in every column it spans.
  for (const [t, row] of text.entries()) {
    const r = gridRow[t];
    if (r == null) continue;
    for (const [from, to] of spans[r]!) for (let c = from + 1; c <= to; c++) row[c] = row[from]!;
  }
  spanDown(text, gridRow, (r, c) => drawnUnder(grid, r, c));
  const columns = xs.length - 1;
  // Columns no text stands in are a rule's offset from row to row (cells of different widths), not columns:
  // decided before spanned cells fill them.
  const keepCols: boolean[] = [];
  for (let c = 0; c < columns; c++) keepCols.push(text.some((row) => row[c] !== ''));
  spanAcross(text, gridRow, extents, grid);
  const rows: string[][] = [];
  let filled = 0;
  let words = 0;
  for (const row of text) {
    const kept: string[] = [];
    let any = false;
    for (let c = 0; c < row.length; c++) {
      if (row[c] !== '') {
        any = true;
        if (keepCols[c]) {
          filled++;
          words += row[c]!.split(' ').length;
        }
      }
      if (keepCols[c]) kept.push(row[c]!);
    }
    if (any) rows.push(kept);
  }
  if (rows.length < 2 || rows[0]!.length < 2) return null;
  if (words / filled > MAX_MEAN_CELL_WORDS) return null;
  const placed: TextRun[] = [];
  for (const row of tabular) for (const cell of row) for (const run of cell) placed.push(run);
  return { top: ys[0]!, rows, runs: placed, inside };
}

/**
 * The cells of grid row `r` drawn across column lines, as [first, last] column pairs: in a row drawn cell by cell
 * (a line or a shaded cell's edge down through it at some column line), a column line with none through the row
 * that parts a line of text a word space apart is inside a cell ("A merged with B" over two columns), whose words,
 * on both sides of it, are moved into its first column here. (Text that keeps to its own column where a rule is
 * left out is spanAcross's to read.)
 */
function spannedCells(row: TextRun[][], r: number, grid: Grid): Array<[number, number]> {
  const middle = (grid.ys[r]! + grid.ys[r + 1]!) / 2;
  const walled = (c: number) => grid.walls.some((l) => Math.abs(l.at - grid.xs[c + 1]!) <= SNAP && l.from <= middle && l.to >= middle);
  const open: number[] = [];
  for (let c = 0; c < row.length - 1; c++) if (!walled(c)) open.push(c);
  if (open.length === 0 || open.length === row.length - 1) return [];
  const spans: Array<[number, number]> = [];
  for (const c of open) {
    const last = spans.at(-1);
    const from = last && last[1] === c ? last[0] : c;
    if (!row[from]!.some((a) => row[c + 1]!.some((b) => aWordSpaceApart(a, b)))) continue;
    row[from]!.push(...row[c + 1]!.splice(0));
    if (from !== c) last![1] = c + 1;
    else spans.push([c, c + 1]);
  }
  return spans;
}

/** Whether a column line runs between two words of one text line in this grid row, closer than cells keep their text. */
function crossesText(row: TextRun[][]): boolean {
  return row.some((left, c) => {
    const right = row[c + 1];
    if (!right || left.length === 0 || right.length === 0) return false;
    return left.some((a) => right.some((b) => aWordSpaceApart(a, b)));
  });
}

/** Whether a word inside the grid has a neighbour outside it on its line, a word space away: the grid is drawn over running text. */
function runsOn(inside: readonly TextRun[], all: readonly TextRun[]): boolean {
  const within = new Set(inside);
  const outside = all.filter((r) => !within.has(r));
  return inside.some((a) => outside.some((b) => aWordSpaceApart(a, b)));
}

/** Two words on one text line no further apart than running text sets them (MIN_CELL_GAP), on either side. */
function aWordSpaceApart(a: TextRun, b: TextRun): boolean {
  // Text turned a quarter stands in its box along the page: its lines are not these.
  if (quarterTurned(a) || quarterTurned(b)) return false;
  const height = a.top - a.bottom;
  return Math.abs(a.bottom - b.bottom) < height * 0.5 && Math.max(b.x0 - a.x1, a.x0 - b.x1) < height * MIN_CELL_GAP;
}

/**
 * One grid row's cell texts; one row per text line instead when the row
 * holds lines side by side: three or more filled cells, most of them with a
 * line at every height any cell has one, and short lines. In a grid `ruled`
 * between its rows, all of them, or one of figures stacked a line each (a
 * figure does not wrap; a label spanning the lines beside it may stand on one).
 * A cell that wraps beside single-line cells keeps its lines together.
 */
function rowTexts(cells: TextRun[][], ruled: boolean): string[][] {
  const lines = cells.map(textLines);
  const joined = [lines.map((l) => l.map((line) => line.text).filter((t) => t !== '').join(' '))];
  const filled = lines.filter((l) => l.length > 0);
  if (filled.length < 3) return joined;
  const heights: Array<{ y: number; height: number }> = [];
  for (const line of lines.flat().sort((a, b) => b.y - a.y)) {
    const last = heights.at(-1);
    if (!last || Math.abs(last.y - line.y) >= Math.min(last.height, line.height) * 0.5) heights.push(line);
  }
  const n = heights.length;
  const slot = (line: { y: number; height: number }) => heights.findIndex((h) => Math.abs(h.y - line.y) < Math.min(h.height, line.height) * 0.5);
  const words = filled.flat().map((line) => line.text.split(' ').length).sort((a, b) => a - b);
  const sideBySide =
    n >= 2 &&
    (ruled ? filled.every((l) => l.length === n) || filled.some((l) => l.length === n && l.every((line) => isFigure(line.text))) : filled.filter((l) => l.length === n).length * 2 >= filled.length) &&
    words[Math.floor(words.length / 2)]! <= MAX_SPLIT_WORDS &&
    filled.every((l) => new Set(l.map(slot)).size === l.length);
  if (!sideBySide) return joined;
  return heights.map((_, i) => lines.map((l) => l.find((line) => slot(line) === i)?.text ?? ''));
}

/** How many text lines, at different heights, a grid row's cells hold. */
function lineCount(cells: TextRun[][]): number {
  const lines = cells.flatMap(textLines).sort((a, b) => b.y - a.y);
  let count = 0;
  let last: { y: number; height: number } | undefined;
  for (const line of lines) {
    if (!last || Math.abs(last.y - line.y) >= Math.min(last.height, line.height) * 0.5) count++;
    last = line;
  }
  return count;
}

/** Index of the last element that passes, capped at `max` (the last cell), or 0. */
function lastIndex(values: readonly number[], pass: (v: number) => boolean, max: number): number {
  let found = 0;
  values.forEach((v, i) => {
    if (pass(v)) found = i;
  });
  return Math.min(found, max);
}

/** A cell's text lines from the top, each its words left to right; text turned a quarter after them (turnedLines). */
function textLines(runs: TextRun[]): Array<{ y: number; height: number; text: string }> {
  const sorted = runs.filter((r) => !quarterTurned(r)).sort((a, b) => b.bottom - a.bottom || a.x0 - b.x0);
  const lines: TextRun[][] = [];
  for (const run of sorted) {
    const line = lines.at(-1);
    const height = run.top - run.bottom;
    if (line && Math.abs(line[0]!.bottom - run.bottom) < height * 0.5) line.push(run);
    else lines.push([run]);
  }
  const level = lines.map((line) => {
    const height = Math.max(...line.map((r) => r.top - r.bottom));
    return { y: line[0]!.bottom, height, text: wordsText([...line].sort((a, b) => a.x0 - b.x0), height) };
  });
  return [...level, ...turnedLines(runs.filter(quarterTurned))];
}

/** Text turned a quarter either way: a narrow column's header set to read up the page (270) or down it (90). */
const quarterTurned = (r: TextRun) => r.rotated === 90 || r.rotated === 270;

/**
 * A cell's text turned a quarter, each of its lines (runs whose boxes share a strip across the page) read along it:
 * up the page, lines left to right, as text turned anticlockwise reads; down it, lines right to left.
 */
function turnedLines(runs: TextRun[]): Array<{ y: number; height: number; text: string }> {
  if (runs.length === 0) return [];
  const up = runs[0]!.rotated === 270;
  const lines: TextRun[][] = [];
  for (const run of [...runs].sort((a, b) => (up ? a.x0 - b.x0 : b.x1 - a.x1))) {
    const line = lines.find((l) => Math.min(l[0]!.x1, run.x1) - Math.max(l[0]!.x0, run.x0) > 0.5 * (run.x1 - run.x0));
    if (line) line.push(run);
    else lines.push([run]);
  }
  return lines.map((line) => ({
    y: Math.min(...line.map((r) => r.bottom)),
    height: Math.max(...line.map((r) => r.x1 - r.x0)),
    text: [...line].sort((a, b) => (up ? a.bottom - b.bottom : b.top - a.top)).map((r) => r.text).join(' '),
  }));
}
