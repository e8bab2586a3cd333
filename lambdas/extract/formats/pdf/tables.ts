// Tables in a PDF's text layer, found from where the text sits: runs of at
// least three consecutive lines that split into the same number (three or
// more) of cells whose columns overlap from line to line, with the rows around
// them that leave cells empty (sparse-rows.ts). A line splits into cells at
// wide gaps, and where a figure set flush right meets the next cell's text
// with no gap at all, as a printed spreadsheet's do (aligned-cells.ts). Two
// cells a line are taken for a table only where the second column holds
// figures (amounts, dates, times) and the first short labels or figures, four
// rows or more (rows with one cell empty between them), or
// where a caption names the table (captioned-tables.ts): text set in two
// columns looks just like a two-column table otherwise. Tables
// drawn with ruling lines, two-column ones included, are found first from
// their lines (ruled-tables.ts); this reads the words they leave.

import { splitAtAlignedFigures } from './aligned-cells.ts';
import { captionedPairs } from './captioned-tables.ts';
import { AMOUNT, FIGURE, isFigure } from './figures.ts';
import { mostlyRtl } from './script.ts';
import { apart, columnSpans, type Span, withSparseRows } from './sparse-rows.ts';
import { cellRuns, cellText, foldWrappedCells, type WrappingCell, type WrappingLine } from './wrapped-cells.ts';

const MIN_ROWS = 3;
const MIN_COLUMNS = 3;

/** A run of text on one line (a word, usually), in page space: y grows upwards. */
export interface TextRun {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  text: string;
  /** Font size in points, where known. */
  size?: number;
  /** Set on text turned from the horizontal (a rotated label, a margin stamp): its characters are in content order. */
  rotated?: number;
  /** Indices of its first and last character in the page's text (PDFium's numbering), where known. */
  first?: number;
  last?: number;
  /** Set in a fixed-pitch font, whose letters all stand on one grid. */
  mono?: boolean;
}

/** A table and where its top edge is, in page space (y up), to order a page's tables. */
export interface PlacedTable {
  top: number;
  rows: string[][];
  /** The words it was read from. */
  runs: TextRun[];
}

type Cell = WrappingCell;
type Line = WrappingLine;

/** `ruled`: the tables found from ruling lines, whose words `runs` leaves out (a caption beside one names it). */
export function findTables(runs: readonly TextRun[], ruled: readonly PlacedTable[] = []): PlacedTable[] {
  const unfolded = splitAtAlignedFigures(toLines(runs));
  const cut = inColumns(unfolded);
  // Wrapped cells are folded only on a page read as one column: side by side, a prose line of one column and the
  // pieces of the other would pass for a row, and the next prose line for its cell's wrap.
  const whole = cut === unfolded ? foldWrappedCells(unfolded, wordsText) : unfolded;
  const lines = cut === unfolded ? whole : cut;
  const found: Line[][] = [];
  let run: Line[] = [];
  const flush = () => {
    if (run.length >= MIN_ROWS) found.push(run);
    run = [];
  };
  const tabular = (line: Line) => line.cells.length >= MIN_COLUMNS && !line.mixed;
  for (const line of lines) {
    const prev = run.at(-1);
    if (tabular(line) && prev && continues(prev, line)) run.push(line);
    else {
      flush();
      if (tabular(line)) run = [line];
    }
  }
  flush();
  const wide = withSparseRows(whole, found);
  // A line is read once: a row of a wider table is no row of a two-column one, nor a header of the table below.
  const used = new Set<Line>(wide.flatMap((t) => t.lines));
  const pairs = figurePairs(lines).filter((pair) => !pair.some((line) => used.has(line)));
  for (const line of pairs.flat()) used.add(line);
  const extents = ruled.map((t) => ({ top: t.top, bottom: Math.min(...t.runs.map((r) => r.bottom)) }));
  // A caption is no header of the table it names.
  const captioned = captionedPairs(lines, used, extents, continues).map(({ caption, lines: pair }) => (used.add(caption), pair));
  const twoColumn = [...pairs, ...captioned].map((pair) => {
    const columns = columnSpans(pair.filter((line) => line.cells.length === 2));
    return { lines: pair, slots: pair.map((line) => (line.cells.length === 2 ? [0, 1] : [Math.max(0, columnOf(line.cells[0]!, columns))])), columns };
  });
  return [...wide, ...twoColumn].map(({ lines: table, slots, columns }) => {
    const header = headerLines(whole.includes(table[0]!) ? whole : lines, table, columns, used);
    for (const line of [...header, ...table]) used.add(line);
    const rows = table.map((line, r) => {
      const row = columns.map(() => '');
      line.cells.forEach((cell, i) => (row[slots[r]![i]!] = cellText(cell, line.height, wordsText)));
      return row;
    });
    return {
      top: (header[0] ?? table[0]!).y + (header[0] ?? table[0]!).height,
      rows: header.length > 0 ? [headerRow(header, columns), ...rows] : rows,
      runs: [...header, ...table].flatMap((line) => line.cells.flatMap(cellRuns)),
    };
  });
}

/** Rows a two-column table needs: fewer could be a label and its value, or two lines of a form. */
const MIN_PAIR_ROWS = 4;

/**
 * Runs of lines of two cells, a short label (no leader dots: a table of contents is a list) or a figure and a
 * figure after it, their columns overlapping from line to line, half the figures or more amounts; a line
 * between or after them with one figure standing under one of their cells is a row that leaves the other empty.
 */
function figurePairs(lines: Line[]): Line[][] {
  const found: Line[][] = [];
  let run: Line[] = [];
  // Rows with both cells, and those whose figure is an amount. Amounts, not counts: page numbers beside
  // titles (a table of contents) and numbers before items (a list) are no table.
  let full = 0;
  let amounts = 0;
  let lastFull: Line | undefined;
  const flush = () => {
    if (full >= MIN_PAIR_ROWS && amounts * 2 >= full) found.push(run);
    run = [];
    full = 0;
    amounts = 0;
    lastFull = undefined;
  };
  for (const line of lines) {
    // The label first, the figure after it, as a statement or a sheet sets them.
    const texts = line.cells.length === 2 && !line.mixed && line.cells[1]!.runs.length <= 3 ? line.cells.map((c) => wordsText(c.runs, line.height)) : null;
    // Or two figures (a sheet's two columns of numbers).
    const label = texts !== null && (isFigure(texts[0]!) || (!FIGURE.test(texts[0]!) && texts[0]!.split(/\s+/).length <= 8 && !/\.{4}|…{2}/.test(texts[0]!)));
    const pair = texts !== null && FIGURE.test(texts[1]!) && label;
    // Of two figures, either may be the amount.
    const amount = pair && (AMOUNT.test(texts[1]!) || (isFigure(texts[0]!) && AMOUNT.test(texts[0]!)));
    const last = run.at(-1);
    if (pair && last && lastFull && !apart(last, line) && alignsWith(lastFull, line)) {
      run.push(line);
      lastFull = line;
      full++;
      if (amount) amounts++;
      continue;
    }
    const alone = line.cells.length === 1 && !line.mixed ? line.cells[0]! : null;
    if (alone && last && lastFull && !apart(last, line) && isFigure(wordsText(alone.runs, line.height)) && columnOf(alone, lastFull.cells) >= 0) {
      run.push(line);
      continue;
    }
    flush();
    if (pair) {
      run.push(line);
      lastFull = line;
      full = 1;
      amounts = amount ? 1 : 0;
    }
  }
  flush();
  return found;
}

/** The column a cell overlaps most, or -1 when it overlaps none. */
function columnOf(cell: Cell, columns: Span[]): number {
  let best = -1;
  let most = 0;
  columns.forEach((c, i) => {
    const overlap = Math.min(cell.x1, c.x1) - Math.max(cell.x0, c.x0);
    if (overlap > most) [best, most] = [i, overlap];
  });
  return best;
}

/**
 * Lines right above a table whose pieces all stand over its columns: its
 * header, which often wraps inside a cell ("Polarization / resistance (Ω)")
 * and so has fewer pieces on a line than the rows below. At most three lines,
 * each close to the one below; a line of one piece (a title, a caption),
 * unless it ends a wrapped header cell of the line over it, or one read
 * already (a row of the table above) is never one of them.
 */
function headerLines(lines: Line[], table: Line[], columns: Span[], used: ReadonlySet<Line>): Line[] {
  const [left, right] = [columns[0]!.x0, columns.at(-1)!.x1];
  const header: Line[] = [];
  let below = table[0]!;
  for (let i = lines.indexOf(below) - 1; i >= 0 && header.length < 3; i--) {
    const line = lines[i]!;
    if (used.has(line) || line.y - below.y > Math.max(line.height, below.height) * 2.5) break;
    if (line.cells.length < 2 && !wrapsHeaderCell(line, lines[i - 1], columns.length, used)) break;
    const slack = line.height;
    // A header cell may run wider than the numbers under it, but not past the table's sides, unless the line is a
    // sheet's header: a cell a column, each set flush left and ending in its column's stretch (after the column
    // before it ends), over figures set flush right, the first one standing out to the left of them.
    const sheetHeader =
      line.cells.length === columns.length && line.cells.every((c, i) => c.x1 <= columns[i]!.x1 + slack && c.x1 >= (i === 0 ? columns[0]!.x0 - 3 * slack : columns[i - 1]!.x1));
    if (!sheetHeader && line.cells.some((c) => (c.x0 + c.x1) / 2 < left - slack || (c.x0 + c.x1) / 2 > right + slack)) break;
    header.unshift(line);
    below = line;
  }
  return header;
}

/**
 * A line of one piece under a piece of the line above it, which has two or more, but fewer than the table has
 * columns: a header cell's second line ("State funded / legal aid"). Under a line with a piece in every column,
 * it is a row with its other cells empty.
 */
function wrapsHeaderCell(line: Line, above: Line | undefined, columns: number, used: ReadonlySet<Line>): boolean {
  if (!above || used.has(above) || above.cells.length < 2 || above.cells.length >= columns || above.y - line.y > Math.max(line.height, above.height) * 2) return false;
  const cell = line.cells[0]!;
  return above.cells.some((c) => Math.min(c.x1, cell.x1) - Math.max(c.x0, cell.x0) > 0.5 * (cell.x1 - cell.x0));
}

/**
 * The column a header cell heads: the one it stands over most, where it stands over it by a good part of
 * its width or starts where it starts; else the one whose stretch holds its middle, each column's stretch
 * running from the end of the column before it to its own end (a header set flush left over numbers set
 * flush right, as a spreadsheet prints them, stands over the space the cell leaves before them).
 */
function headedColumn(cell: Cell, columns: Span[]): number {
  const over = columnOf(cell, columns);
  if (over >= 0) {
    const column = columns[over]!;
    if (Math.min(cell.x1, column.x1) - Math.max(cell.x0, column.x0) >= 0.3 * (cell.x1 - cell.x0) || Math.abs(cell.x0 - column.x0) < 0.25 * (cell.x1 - cell.x0)) return over;
  }
  const middle = (cell.x0 + cell.x1) / 2;
  const i = columns.findIndex((c) => middle <= c.x1);
  return i < 0 ? columns.length - 1 : i;
}

/** Header lines as one row: each column's pieces, top line first. */
function headerRow(header: Line[], columns: Span[]): string[] {
  const row = columns.map(() => '');
  for (const line of header) {
    for (const cell of line.cells) {
      const i = headedColumn(cell, columns);
      const text = cellText(cell, line.height, wordsText);
      row[i] = row[i] ? `${row[i]} ${text}` : text;
    }
  }
  return row;
}

/** Same number of cells, columns overlapping, and not far below the previous line. */
function continues(prev: Line, line: Line): boolean {
  return !apart(prev, line) && alignsWith(prev, line);
}

/** Same number of cells, each overlapping the one above it. */
function alignsWith(prev: Line, line: Line): boolean {
  if (prev.cells.length !== line.cells.length) return false;
  return line.cells.every((c, i) => {
    const p = prev.cells[i]!;
    const slack = line.height;
    return c.x0 <= p.x1 + slack && p.x0 <= c.x1 + slack;
  });
}

function toLines(runs: readonly TextRun[]): Line[] {
  // Rotated text and zero-size artefacts say nothing about columns.
  const boxes = runs.filter((r) => r.x1 - r.x0 > 0 && r.top - r.bottom > 0 && r.rotated === undefined);
  boxes.sort((a, b) => b.bottom - a.bottom || a.x0 - b.x0);
  const lines: Array<{ y: number; h: number; runs: TextRun[] }> = [];
  for (const r of boxes) {
    const h = r.top - r.bottom;
    const line = lines.at(-1);
    if (line && Math.abs(line.y - r.bottom) < Math.min(line.h, h) * 0.5) {
      line.runs.push(r);
      line.h = Math.max(line.h, h);
    } else lines.push({ y: r.bottom, h, runs: [r] });
  }
  // A superscript ("cm²", a note mark) stands higher than its line's foot: it joins the line it rides on.
  for (let i = lines.length - 2; i >= 0; i--) {
    const [raised, line] = [lines[i]!, lines[i + 1]!];
    if (raised.h < 0.8 * line.h && raised.y > line.y && raised.y < line.y + line.h * 0.8) {
      line.runs.push(...raised.runs);
      lines.splice(i, 1);
    }
  }
  return lines.map((l) => {
    l.runs.sort((a, b) => a.x0 - b.x0);
    const cells: Cell[] = [];
    // A gap wider than about three spaces starts a new cell: an em of the font where its size is known
    // (TeX sets columns 1.2 em apart, and its fonts' boxes are 1.4 em tall), else 0.9 of the boxes' height.
    let size = 0;
    for (const r of l.runs) size = Math.max(size, r.size ?? 0);
    const gap = size > 0 ? Math.min(l.h * 0.9, size) : l.h * 0.9;
    for (const r of l.runs) {
      const last = cells.at(-1);
      if (last && r.x0 - last.x1 < gap) {
        last.runs.push(r);
        last.x1 = Math.max(last.x1, r.x1);
      } else cells.push({ x0: r.x0, x1: r.x1, runs: [r] });
    }
    return { y: l.y, height: l.h, cells };
  });
}

/** A strip down the page that almost no word crosses, with text beside it on both sides; `left` and `right` are the text's edges. */
interface Gutter {
  x0: number;
  x1: number;
  left: number;
  right: number;
}

/**
 * On a page set in two columns, the lines of the two columns share
 * baselines: a prose line of one column and a row of a small table in the
 * other would read as one row of a wider table. Where a gutter runs down the
 * page, a line with a single wide piece of text on one side of it (a prose
 * line of that column) is cut in two at the gutter, and each column's lines
 * follow one another (left column first) between the lines that span both.
 */
function inColumns(lines: Line[]): Line[] {
  // Cutting only takes cells away: a page with no line of enough cells has no table either way.
  if (!lines.some((l) => l.cells.length >= MIN_COLUMNS)) return lines;
  const gutter = findGutter(lines);
  if (!gutter) return lines;
  const out: Line[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  const flush = () => {
    out.push(...left, ...right);
    left = [];
    right = [];
  };
  const prose = (cells: Cell[], width: number) => cells.length === 1 && cells[0]!.x1 - cells[0]!.x0 >= width * 0.5;
  const cut = lines.map((l) => cutAt(l, gutter));
  const sides = (line: Line) => [line.cells.filter((c) => c.x1 <= gutter.x0), line.cells.filter((c) => c.x0 >= gutter.x1)] as const;
  // Page columns hold running text: a strip with no line of it on either side (half the side wide, five words
  // or more) is a table's column gap, though a wide cell of a few words stands as wide.
  const running = (cells: Cell[], width: number) => prose(cells, width) && cells[0]!.runs.length >= 5;
  const proseLines = cut.filter((line) => {
    const [l, r] = sides(line);
    return running(l, gutter.x0 - gutter.left) || running(r, gutter.right - gutter.x1);
  }).length;
  if (proseLines < 2) return lines;
  const both = cut.map((line) => {
    const [l, r] = sides(line);
    return l.length + r.length === line.cells.length && l.length > 0 && r.length > 0 && !prose(l, gutter.x0 - gutter.left) && !prose(r, gutter.right - gutter.x1);
  });
  for (let i = 0; i < cut.length; i++) {
    const line = cut[i]!;
    const [l, r] = sides(line);
    if (l.length + r.length < line.cells.length) {
      flush();
      out.push(line);
      continue;
    }
    if (both[i]) {
      let end = i;
      while (end < cut.length && both[end]) end++;
      if (!goesOnAlone(cut, end, sides)) {
        // Pieces on both sides and prose on neither: rows of a table as wide as the page whose column gap
        // falls on the gutter (kept whole), or, with three pieces only, short lines of both columns side by
        // side, which no table runs through.
        flush();
        for (const row of cut.slice(i, end)) out.push(row.cells.length > MIN_COLUMNS ? row : { ...row, mixed: true });
        i = end - 1;
        continue;
      }
      // A table on one side goes on alone under the run: the run was its rows beside the other column's lines.
      for (const row of cut.slice(i, end)) {
        const [rl, rr] = sides(row);
        left.push({ ...row, cells: rl });
        right.push({ ...row, cells: rr });
      }
      i = end - 1;
      continue;
    }
    if (l.length > 0) left.push({ ...line, cells: l });
    if (r.length > 0) right.push({ ...line, cells: r });
  }
  flush();
  return out;
}

/**
 * Whether the two lines from `at` hold pieces on one side of the gutter only, the same side, each under a piece of
 * the line before `at` on that side: a table set in one page column whose first rows shared their baselines with
 * short lines of the other column (a list's items), not a table as wide as the page, whose rows end on both
 * sides at once.
 */
function goesOnAlone(lines: readonly Line[], at: number, sides: (line: Line) => readonly [Cell[], Cell[]]): boolean {
  const last = lines[at - 1];
  if (!last || at + 2 > lines.length) return false;
  const [lastLeft, lastRight] = sides(last);
  const onOneSide = lines.slice(at, at + 2).map(sides);
  for (const [side, above] of [[0, lastLeft], [1, lastRight]] as const) {
    const alone = onOneSide.every((pair) => pair[side].length > 0 && pair[1 - side]!.length === 0);
    if (alone && onOneSide.every((pair) => pair[side].every((c) => above.some((a) => Math.min(a.x1, c.x1) > Math.max(a.x0, c.x0))))) return true;
  }
  return false;
}

/** A line whose cells run over the gutter without a word crossing it (a gutter as narrow as a cell gap), cut there. */
function cutAt(line: Line, gutter: Gutter): Line {
  const cells = line.cells.flatMap((c): Cell[] => {
    if (c.x0 >= gutter.x0 || c.x1 <= gutter.x1 || c.runs.some((r) => r.x0 < gutter.x1 && r.x1 > gutter.x0)) return [c];
    const sides = [c.runs.filter((r) => r.x1 <= gutter.x0), c.runs.filter((r) => r.x0 >= gutter.x1)];
    return sides.filter((runs) => runs.length > 0).map((runs) => ({ x0: Math.min(...runs.map((r) => r.x0)), x1: Math.max(...runs.map((r) => r.x1)), runs }));
  });
  return cells.length === line.cells.length ? line : { ...line, cells };
}

/**
 * The widest strip in the middle of the text, at least 6 pt wide, that the
 * words of at most two lines or one in twelve cross (a running header, a title, a figure
 * spanning both columns), with a quarter of the lines or more on each side.
 */
function findGutter(lines: Line[]): Gutter | null {
  if (lines.length < 8) return null;
  let left = Infinity;
  let right = -Infinity;
  for (const line of lines) for (const c of line.cells) [left, right] = [Math.min(left, c.x0), Math.max(right, c.x1)];
  const width = Math.floor(right - left);
  if (!(width > 100)) return null;
  // Words, not cells: a gutter can be as narrow as the gap between two cells of a table row.
  // Counted as steps (+1 where a word starts, -1 past its end) and summed across once.
  const crossing = new Int32Array(width + 2);
  for (const line of lines) {
    for (const c of line.cells) {
      for (const r of c.runs) {
        const [from, to] = [Math.max(0, Math.ceil(r.x0 - left)), Math.min(width, Math.floor(r.x1 - left))];
        if (from > to) continue;
        crossing[from]!++;
        crossing[to + 1]!--;
      }
    }
  }
  for (let x = 1; x <= width; x++) crossing[x]! += crossing[x - 1]!;
  const allowed = Math.max(2, Math.floor(lines.length / 12));
  let best: Gutter | null = null;
  for (let x = Math.floor(width * 0.2); x < width * 0.8; x++) {
    if (crossing[x]! > allowed) continue;
    let end = x;
    while (end + 1 < width * 0.8 && crossing[end + 1]! <= allowed) end++;
    if (end - x + 1 >= 6 && (!best || end - x > best.x1 - best.x0)) best = { x0: left + x, x1: left + end + 1, left, right };
    x = end;
  }
  if (!best) return null;
  const gutter = best;
  const beside = (side: (r: TextRun) => boolean) => lines.filter((line) => line.cells.some((c) => c.runs.some(side))).length;
  const enough = lines.length / 4;
  return beside((r) => r.x1 <= gutter.x0) >= enough && beside((r) => r.x0 >= gutter.x1) >= enough ? gutter : null;
}

/** Runs of one line, left to right, as words: a gap wider than a thin space is a space. */
export function wordsText(runs: readonly TextRun[], height: number): string {
  // Right-to-left words read from the right end (their letters are in logical order already).
  const rtl = mostlyRtl(runs.map((r) => r.text).join(''));
  const ordered = rtl ? [...runs].sort((a, b) => b.x0 + b.x1 - (a.x0 + a.x1)) : runs;
  let text = '';
  let edge = rtl ? Infinity : -Infinity;
  for (const run of ordered) {
    // Runs apart by more than a thin space are separate words: a sixth of an em, of the font's size where it is
    // known (a line's height can be far more than its words' size: a taller glyph of another font on it).
    const gap = rtl ? edge - run.x1 : run.x0 - edge;
    if (text !== '' && gap > Math.min(height, run.size ?? height) * 0.15 && !/\s$/.test(text)) text += ' ';
    text += run.text;
    edge = rtl ? Math.min(edge, run.x0) : Math.max(edge, run.x1);
  }
  // Control characters (unmapped glyphs) are not text.
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A table's rows in reading order: a right-to-left table's first column is its rightmost. */
export function rowsInReadingOrder(rows: string[][]): string[][] {
  return mostlyRtl(rows.flat().join('')) ? rows.map((row) => [...row].reverse()) : rows;
}
