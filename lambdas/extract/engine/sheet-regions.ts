// Where the tables of a sheet are: its cells cut into the rectangular blocks
// a reader sees as separate tables, notes and labels, in reading order.
//
// A block is a group of cells with a value (a merged range counting as
// filled over its whole area) connected through edge-adjacent cells, and
// blocks are separated by wholly empty rows and columns. The sheet is cut as
// a page is cut into columns and paragraphs: at the empty rows that run
// across the whole of what is being cut, into bands, then each band at the
// empty columns that run down the whole of it, into strips, and each of those
// again, until nothing cuts. That gives the reading order too: bands top to
// bottom, the strips of a band (blocks beside each other) left to right.
//
// Not every empty row or column is a gap between tables. Tables have spacer
// columns and blank rows of their own, and cutting there would cut every row
// of the table in two (a label and its figures in different tables) or a
// header from its body. The rule:
//   - empty columns are inside a table when the blocks either side of them
//     run down (nearly) the same rows: their row spans overlap by at least
//     three quarters of the rows they cover together. However wide the gap:
//     a column of page numbers set apart from its topics is still theirs.
//     Tables placed side by side are told apart by starting or ending
//     elsewhere. Keeping a row whole matters more than the table's bounds: a
//     row cut in two loses what its figures are;
//   - an empty row is inside a table when it is one row high, the blocks
//     above and below it span (nearly) the same columns, and the row under it
//     reads as a row of figures (it holds a number), not as a new header (a
//     table starts with its header, which is text). A blank row that
//     separates a header from its figures, or groups of figures, stays in;
//     two tables one above the other, the second under its own header,
//     stay apart. Cutting there costs less than cutting a column: the rows
//     stay whole.
// Blocks that touch only at a corner (a note diagonally off a table, labels
// set in a staircase) are cut apart too, though no empty row or column
// separates them.

import { firstNotBefore } from './binary-search.ts';
import type { CellRange } from './merged-cells.ts';

/** How much of the rows (columns) two blocks across a gap cover together they must share to be one table. */
const ALIGNED = 0.75;
/** Cuts within cuts beyond this depth (a maze no sheet is laid out as) leave the rest as one block. */
const MAX_DEPTH = 48;
/** Separate pieces in one uncut region beyond this are a sparse table's scattered cells, not blocks of their own. */
const MAX_PIECES = 200;

/**
 * The blocks of a sheet in reading order. `filled[r]` are the columns of row
 * r with a value, ascending; `text` gives a cell's value.
 */
export function sheetRegions(filled: number[][], text: (row: number, col: number) => string): CellRange[] {
  const cells = new Cells(filled, text);
  const all = cells.bounds(0, filled.length - 1, 0, Infinity);
  const out: CellRange[] = [];
  if (all) cut(cells, all, 0, out);
  return out;
}

interface Run {
  start: number;
  end: number;
  /** The other axis' span of the run's values. */
  lo: number;
  hi: number;
}

interface Group {
  start: number;
  end: number;
  /** Whether it holds an empty row (column) it was joined across. */
  joined: boolean;
}

function cut(cells: Cells, region: CellRange, depth: number, out: CellRange[]): void {
  if (depth > MAX_DEPTH) {
    out.push(region);
    return;
  }
  const bands = joinRuns(cells.bands(region), (upper, lower) => lower.start - upper.end === 2 && overlap(upper, lower) >= ALIGNED && cells.holdsNumber(lower.start, region));
  if (bands.length > 1) {
    for (const b of bands) {
      const sub = cells.bounds(b.start, b.end, region.left, region.right);
      if (sub) cut(cells, sub, depth + 1, out);
    }
    return;
  }
  const strips = joinRuns(cells.strips(region), (a, b) => overlap(a, b) >= ALIGNED);
  if (strips.length > 1) {
    for (const s of strips) {
      const sub = cells.bounds(region.top, region.bottom, s.start, s.end);
      if (sub) cut(cells, sub, depth + 1, out);
    }
    return;
  }
  if (bands[0]!.joined || strips[0]!.joined) out.push(region);
  else out.push(...cells.pieces(region));
}

/** Consecutive runs grouped: those `together` says belong together share a group. */
function joinRuns(runs: Run[], together: (before: Run, after: Run) => boolean): Group[] {
  const groups: Group[] = [];
  for (const [i, run] of runs.entries()) {
    const before = runs[i - 1];
    if (before && together(before, run)) {
      const g = groups.at(-1)!;
      g.end = run.end;
      g.joined = true;
    } else groups.push({ start: run.start, end: run.end, joined: false });
  }
  return groups;
}

/** The share of the two spans that both cover. */
function overlap(a: Run, b: Run): number {
  const common = Math.min(a.hi, b.hi) - Math.max(a.lo, b.lo) + 1;
  return common <= 0 ? 0 : common / (Math.max(a.hi, b.hi) - Math.min(a.lo, b.lo) + 1);
}

/** A figure, a date, an amount: digits and no letters ("12,553", "(81)", "2024-01-01", "5.2%"). */
const NUMBER = /^(?=.*\d)[^\p{L}]*$/u;

class Cells {
  constructor(
    private readonly filled: number[][],
    private readonly text: (row: number, col: number) => string,
  ) {}

  /** Row r's filled columns within [left, right]: the index range into filled[r]. */
  private within(r: number, left: number, right: number): [number, number] {
    const cols = this.filled[r] ?? [];
    const from = firstNotBefore(cols.length, (i) => cols[i]! < left);
    let to = from;
    while (to < cols.length && cols[to]! <= right) to++;
    return [from, to];
  }

  /** The smallest range inside the given one holding all its values; null if it holds none. */
  bounds(top: number, bottom: number, left: number, right: number): CellRange | null {
    let first = -1;
    let last = -1;
    let lo = Infinity;
    let hi = -1;
    for (let r = top; r <= bottom; r++) {
      const [from, to] = this.within(r, left, right);
      if (from === to) continue;
      if (first < 0) first = r;
      last = r;
      lo = Math.min(lo, this.filled[r]![from]!);
      hi = Math.max(hi, this.filled[r]![to - 1]!);
    }
    return first < 0 ? null : { top: first, bottom: last, left: lo, right: hi };
  }

  /** Runs of rows with a value, each with the columns its values span. */
  bands(region: CellRange): Run[] {
    const runs: Run[] = [];
    for (let r = region.top; r <= region.bottom; r++) {
      const [from, to] = this.within(r, region.left, region.right);
      if (from === to) continue;
      const lo = this.filled[r]![from]!;
      const hi = this.filled[r]![to - 1]!;
      const last = runs.at(-1);
      if (last && last.end === r - 1) {
        last.end = r;
        last.lo = Math.min(last.lo, lo);
        last.hi = Math.max(last.hi, hi);
      } else runs.push({ start: r, end: r, lo, hi });
    }
    return runs;
  }

  /** Runs of columns with a value, each with the rows its values span. */
  strips(region: CellRange): Run[] {
    const width = region.right - region.left + 1;
    const top = new Int32Array(width).fill(-1);
    const bottom = new Int32Array(width).fill(-1);
    for (let r = region.top; r <= region.bottom; r++) {
      const [from, to] = this.within(r, region.left, region.right);
      for (let i = from; i < to; i++) {
        const c = this.filled[r]![i]! - region.left;
        if (top[c]! < 0) top[c] = r;
        bottom[c] = r;
      }
    }
    const runs: Run[] = [];
    for (let c = 0; c < width; c++) {
      if (top[c]! < 0) continue;
      const last = runs.at(-1);
      if (last && last.end === region.left + c - 1) {
        last.end++;
        last.lo = Math.min(last.lo, top[c]!);
        last.hi = Math.max(last.hi, bottom[c]!);
      } else runs.push({ start: region.left + c, end: region.left + c, lo: top[c]!, hi: bottom[c]! });
    }
    return runs;
  }

  /** Whether row r holds a number within the region's columns. */
  holdsNumber(r: number, region: CellRange): boolean {
    const [from, to] = this.within(r, region.left, region.right);
    for (let i = from; i < to; i++) if (NUMBER.test(this.text(r, this.filled[r]![i]!).trim())) return true;
    return false;
  }

  /** Whether each row's cells in the region run unbroken and overlap the next row's: one piece, as most tables are, found without labelling every cell. */
  private unbroken(region: CellRange): boolean {
    let lo = -1;
    let hi = -1;
    for (let r = region.top; r <= region.bottom; r++) {
      const [from, to] = this.within(r, region.left, region.right);
      if (from === to) return false;
      const first = this.filled[r]![from]!;
      const last = this.filled[r]![to - 1]!;
      if (last - first + 1 !== to - from || (r > region.top && (first > hi || last < lo))) return false;
      lo = first;
      hi = last;
    }
    return true;
  }

  /**
   * The blocks of a region no empty row or column cuts: its groups of
   * edge-connected cells, a group lying across another's rectangle taken in
   * with it (a table's stray cell, its empty neighbours all round), in
   * reading order.
   */
  pieces(region: CellRange): CellRange[] {
    if (this.unbroken(region)) return [region];
    // Union-find over the region's cells, numbered row by row.
    const starts: number[] = [];
    let count = 0;
    for (let r = region.top; r <= region.bottom; r++) {
      const [from, to] = this.within(r, region.left, region.right);
      count += to - from;
    }
    const cols = new Int32Array(count);
    const rows = new Int32Array(count);
    let n = 0;
    for (let r = region.top; r <= region.bottom; r++) {
      starts.push(n);
      const [from, to] = this.within(r, region.left, region.right);
      for (let i = from; i < to; i++, n++) {
        cols[n] = this.filled[r]![i]!;
        rows[n] = r;
      }
    }
    starts.push(n);
    const parent = Int32Array.from({ length: count }, (_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) {
        parent[i] = parent[parent[i]!]!;
        i = parent[i]!;
      }
      return i;
    };
    const union = (a: number, b: number) => {
      parent[find(a)] = find(b);
    };
    for (let k = 0; k + 1 < starts.length; k++) {
      const [a0, a1] = [starts[k]!, starts[k + 1]!];
      for (let i = a0; i + 1 < a1; i++) if (cols[i + 1] === cols[i]! + 1) union(i, i + 1);
      if (k + 2 >= starts.length) continue;
      // The same column in the next row.
      let j = a1;
      const b1 = starts[k + 2]!;
      for (let i = a0; i < a1 && j < b1; ) {
        if (cols[i] === cols[j]) union(i++, j++);
        else if (cols[i]! < cols[j]!) i++;
        else j++;
      }
    }
    const boxes = new Map<number, CellRange>();
    for (let i = 0; i < cols.length; i++) {
      const root = find(i);
      const b = boxes.get(root);
      if (!b) boxes.set(root, { top: rows[i]!, bottom: rows[i]!, left: cols[i]!, right: cols[i]! });
      else {
        b.bottom = Math.max(b.bottom, rows[i]!);
        b.left = Math.min(b.left, cols[i]!);
        b.right = Math.max(b.right, cols[i]!);
      }
    }
    const merged = mergeOverlapping([...boxes.values()]);
    if (!merged) return [region];
    return merged.sort((a, b) => a.top - b.top || a.left - b.left);
  }
}

/** Rectangles, those that overlap merged until none do; null past MAX_PIECES. */
function mergeOverlapping(boxes: CellRange[]): CellRange[] | null {
  const meets = (a: CellRange, b: CellRange) => a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
  let current = boxes.sort((a, b) => a.top - b.top);
  for (let changed = true; changed; ) {
    changed = false;
    const groups: CellRange[] = [];
    for (const box of current) {
      let into: CellRange | null = null;
      for (let g = 0; g < groups.length; g++) {
        const group = groups[g]!;
        if (!meets(group, into ?? box)) continue;
        const target = into ?? box;
        group.top = Math.min(group.top, target.top);
        group.bottom = Math.max(group.bottom, target.bottom);
        group.left = Math.min(group.left, target.left);
        group.right = Math.max(group.right, target.right);
        if (into) {
          groups.splice(groups.indexOf(into), 1);
          g--;
        }
        into = group;
        changed = true;
      }
      if (!into) {
        if (groups.length >= MAX_PIECES) return null;
        groups.push({ ...box });
      }
    }
    current = groups;
  }
  return current;
}
