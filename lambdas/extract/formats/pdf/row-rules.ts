// Tables ruled between their rows only. A web page's table styled with
// borders under its rows, a report's table with a rule over and under its
// header, a table whose rows are shaded in turn (the shading's edges are
// lines too): a stack of horizontal lines of one width with a row of text
// between each two, and no line between the columns. The columns are where
// no word of any row stands; a vertical line is drawn there, and at both
// ends, for the ruled-table finder (ruled-tables.ts) to read the grid as it
// reads any other.

import { merged } from './ruled-tables.ts';
import type { Ruling } from './rulings.ts';
import type { TextRun } from './tables.ts';

/** Points: lines whose ends are this close are of one width; a vertical line this close to a gutter is already drawn. */
const ALIGN = 3;
/** A line shorter than this is an underline or a rule beside a word, not a table's. */
const MIN_WIDTH = 60;
/** More text lines than this between two rules is a section of text, not a table row. */
const MAX_ROW_LINES = 4;
/** A gap between words narrower than this many times their height is a word space, not a column gutter. */
const MIN_GUTTER = 0.45;

/** `rulings` and the vertical lines a table ruled only between its rows leaves out. */
export function withColumnRules(rulings: readonly Ruling[], runs: readonly TextRun[]): Ruling[] {
  // A row's border is drawn cell by cell: the pieces joined end to end make its line.
  const across = merged(rulings.filter((r) => r.dir === 'h')).filter((r) => r.to - r.from >= MIN_WIDTH);
  if (across.length < 3) return [...rulings];
  const upright = merged(rulings.filter((r) => r.dir === 'v'));
  const added: Ruling[] = [];
  for (const stack of stacks(across)) {
    for (const found of rowRuns(stack, runs)) {
      // A grid drawn whole is the ruled-table finder's already.
      const row = tallestRow(found);
      if (upright.some((v) => crosses(v, found, row))) continue;
      // Shaded rows draw their left edges: only then is a row under the last line one of the table's.
      const edges = upright.filter((v) => v.at >= found.from - ALIGN && v.at <= found.to + ALIGN && v.from >= found.lines.at(-1)!.at - ALIGN && v.to <= found.lines[0]!.at + ALIGN);
      const table = edges.some((v) => Math.abs(v.at - found.from) <= ALIGN) ? withOpenRows(found, runs, edges.map((v) => v.at)) : found;
      added.push(...table.lines.filter((l) => !found.lines.includes(l)), ...columnRules(table, runs, rulings));
    }
  }
  return added.length === 0 ? [...rulings] : [...rulings, ...added];
}

/**
 * The table with a row added below it where a row of text stands under its last line with no line of its
 * own: shading every other row leaves the last row open when it is plain. The row's lines are those whose
 * words keep within the columns the shaded rows' edges mark (a paragraph under the table runs across them).
 * (Not above: a table's caption stands there.)
 */
function withOpenRows(table: RowTable, runs: readonly TextRun[], edges: number[]): RowTable {
  const last = table.lines.at(-1)!;
  const inner = edges.filter((x) => x > table.from + ALIGN && x < table.to - ALIGN);
  const across = runs.filter((r) => (r.x0 + r.x1) / 2 >= table.from && (r.x0 + r.x1) / 2 <= table.to);
  const centre = (r: TextRun) => (r.top + r.bottom) / 2;
  const inColumns = (line: TextRun[]) => line.length > 0 && line.every((r) => !inner.some((x) => r.x0 < x && r.x1 > x));
  let bottom = last.at;
  for (let lines = 0; lines < MAX_ROW_LINES; lines++) {
    // The next line down: the words whose middles stand within a line's height under the row so far.
    const top = Math.max(...across.filter((r) => centre(r) < bottom - ALIGN).map((r) => r.top), -Infinity);
    const line = across.filter((r) => r.top > top - 0.5 * (r.top - r.bottom) && centre(r) < bottom - ALIGN);
    if (!inColumns(line) || (lines > 0 ? bottom - top > 0.5 * (line[0]!.top - line[0]!.bottom) : last.at - top > 2 * (line[0]!.top - line[0]!.bottom))) break;
    bottom = Math.min(...line.map((r) => r.bottom));
  }
  return bottom === last.at ? table : { ...table, lines: [...table.lines, { ...last, at: bottom - 1 }] };
}

/** A vertical line within the table's ends that runs over more than its tallest row (`row`): a grid's, not a shaded row's edge. */
function crosses(v: Ruling, table: RowTable, row: number): boolean {
  const [top, bottom] = [table.lines[0]!.at, table.lines.at(-1)!.at];
  const over = Math.min(v.to, top) - Math.max(v.from, bottom);
  return v.at >= table.from - ALIGN && v.at <= table.to + ALIGN && over > row + ALIGN;
}

/** The height of the table's tallest row. */
function tallestRow(table: RowTable): number {
  let row = 0;
  for (let i = 1; i < table.lines.length; i++) row = Math.max(row, table.lines[i - 1]!.at - table.lines[i]!.at);
  return row;
}

/** Whether a run's middle stands within the band from `from` to `to` across and `bottom` to `top` up. */
function standsIn(r: TextRun, from: number, to: number, top: number, bottom: number): boolean {
  const [x, y] = [(r.x0 + r.x1) / 2, (r.top + r.bottom) / 2];
  return x >= from && x <= to && y <= top && y >= bottom;
}

/** Horizontal lines of one width (the same two ends), top first, three or more of them. */
function stacks(across: Ruling[]): Ruling[][] {
  const groups: Ruling[][] = [];
  for (const r of [...across].sort((a, b) => b.at - a.at)) {
    const group = groups.find((g) => Math.abs(g[0]!.from - r.from) <= ALIGN && Math.abs(g[0]!.to - r.to) <= ALIGN);
    if (group) {
      // A double rule, or a shaded row's edge on the line under the row above: one line.
      if (Math.abs(group.at(-1)!.at - r.at) > ALIGN) group.push(r);
    } else groups.push([r]);
  }
  return groups.filter((g) => g.length >= 3);
}

interface RowTable {
  from: number;
  to: number;
  /** The lines, top first. */
  lines: Ruling[];
}

/** The runs of consecutive lines in a stack with a row of text between each two: a table each. */
function rowRuns(stack: Ruling[], runs: readonly TextRun[]): RowTable[] {
  const [from, to] = [stack[0]!.from, stack[0]!.to];
  const out: RowTable[] = [];
  let lines: Ruling[] = [stack[0]!];
  const flush = () => {
    // A header and a row at least.
    if (lines.length >= 3) out.push({ from, to, lines });
  };
  for (let i = 1; i < stack.length; i++) {
    const [top, bottom] = [stack[i - 1]!.at, stack[i]!.at];
    if (isRow(runs, from, to, top, bottom)) lines.push(stack[i]!);
    else {
      flush();
      lines = [stack[i]!];
    }
  }
  flush();
  return out;
}

/** Whether the band between two lines holds a row: text, in no more lines than a table's row has, and little else. */
function isRow(runs: readonly TextRun[], from: number, to: number, top: number, bottom: number): boolean {
  const feet: number[] = [];
  let height = 0;
  for (const r of runs) {
    if (!standsIn(r, from, to, top, bottom)) continue;
    height = Math.max(height, r.top - r.bottom);
    if (!feet.some((f) => Math.abs(f - r.bottom) < 0.5 * (r.top - r.bottom))) feet.push(r.bottom);
    if (feet.length > MAX_ROW_LINES) return false;
  }
  // A row's lines fill it, with some padding: a band mostly empty is the space between two boxes.
  return feet.length > 0 && top - bottom <= 2 * height * (feet.length + 1);
}

/** Vertical lines at the table's ends and in the gutters no row's words cross, unless drawn already. */
function columnRules(table: RowTable, runs: readonly TextRun[], rulings: readonly Ruling[]): Ruling[] {
  const [top, bottom] = [table.lines[0]!.at, table.lines.at(-1)!.at];
  // Every row's words, the header's too: a gutter its words cross would cut the header out of the table.
  const gutters = gaps(runs.filter((r) => standsIn(r, table.from, table.to, top, bottom)));
  // One column is no table.
  if (gutters.length === 0) return [];
  const drawn = rulings.filter((r) => r.dir === 'v' && r.from <= bottom + ALIGN && r.to >= top - ALIGN);
  return [table.from, ...gutters, table.to]
    .filter((x) => !drawn.some((r) => Math.abs(r.at - x) <= ALIGN))
    .map((at) => ({ dir: 'v' as const, at, from: bottom, to: top }));
}

/** The middles of the gaps no word crosses, wider than a word space. */
function gaps(inside: readonly TextRun[]): number[] {
  if (inside.length === 0) return [];
  const spans = inside.map((r) => [r.x0, r.x1, r.top - r.bottom] as const).sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  let reach = spans[0]![1];
  for (const [x0, x1, height] of spans.slice(1)) {
    if (x0 - reach >= MIN_GUTTER * height) out.push((x0 + reach) / 2);
    reach = Math.max(reach, x1);
  }
  return out;
}
