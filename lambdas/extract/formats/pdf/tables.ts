// Tables in a PDF's text layer, found from where the text sits: runs of at
// least three consecutive lines that split into the same number (three or
// more) of cells whose columns overlap from line to line. Two cells a line are
// never taken for a table here: text set in two columns looks just the same.
// Tables drawn with ruling lines, two-column ones included, are found first
// from their lines (ruled-tables.ts); this reads the words they leave.

const MIN_ROWS = 3;
const MIN_COLUMNS = 3;

/** A run of text on one line (a word, usually), in page space: y grows upwards. */
export interface TextRun {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  text: string;
  /** Indices of its first and last character in the page's text (PDFium's numbering), where known. */
  first?: number;
  last?: number;
}

/** A table and where its top edge is, in page space (y up), to order a page's tables. */
export interface PlacedTable {
  top: number;
  rows: string[][];
  /** The words it was read from. */
  runs: TextRun[];
}

interface Cell {
  x0: number;
  x1: number;
  runs: TextRun[];
}

interface Line {
  y: number;
  height: number;
  cells: Cell[];
}

export function findTables(runs: readonly TextRun[]): PlacedTable[] {
  const lines = toLines(runs);
  const found: Line[][] = [];
  let run: Line[] = [];
  const flush = () => {
    if (run.length >= MIN_ROWS) found.push(run);
    run = [];
  };
  const tabular = (line: Line) => line.cells.length >= MIN_COLUMNS;
  for (const line of lines) {
    const prev = run.at(-1);
    if (tabular(line) && prev && continues(prev, line)) run.push(line);
    else {
      flush();
      if (tabular(line)) run = [line];
    }
  }
  flush();
  return found.map((table) => {
    const columns = columnSpans(table);
    const header = headerLines(lines, table, columns);
    const rows = table.map((line) => line.cells.map((cell) => wordsText(cell.runs, line.height)));
    return {
      top: (header[0] ?? table[0]!).y + (header[0] ?? table[0]!).height,
      rows: header.length > 0 ? [headerRow(header, columns), ...rows] : rows,
      runs: [...header, ...table].flatMap((line) => line.cells.flatMap((cell) => cell.runs)),
    };
  });
}

interface ColumnSpan {
  x0: number;
  x1: number;
}

/** Where each of the table's columns runs, over all its rows. */
function columnSpans(table: Line[]): ColumnSpan[] {
  return table[0]!.cells.map((_, i) => ({ x0: Math.min(...table.map((l) => l.cells[i]!.x0)), x1: Math.max(...table.map((l) => l.cells[i]!.x1)) }));
}

/** The column a cell overlaps most, or -1 when it overlaps none. */
function columnOf(cell: Cell, columns: ColumnSpan[]): number {
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
 * each close to the one below; a line of one piece (a title, a caption) is
 * never one of them.
 */
function headerLines(lines: Line[], table: Line[], columns: ColumnSpan[]): Line[] {
  const [left, right] = [columns[0]!.x0, columns.at(-1)!.x1];
  const header: Line[] = [];
  let below = table[0]!;
  for (let i = lines.indexOf(below) - 1; i >= 0 && header.length < 3; i--) {
    const line = lines[i]!;
    if (line.cells.length < 2 || line.y - below.y > Math.max(line.height, below.height) * 2.5) break;
    const slack = line.height;
    // A header cell may run wider than the numbers under it, but not past the table's sides.
    if (line.cells.some((c) => (c.x0 + c.x1) / 2 < left - slack || (c.x0 + c.x1) / 2 > right + slack || columnOf(c, columns) < 0)) break;
    header.unshift(line);
    below = line;
  }
  return header;
}

/** Header lines as one row: each column's pieces, top line first. */
function headerRow(header: Line[], columns: ColumnSpan[]): string[] {
  const row = columns.map(() => '');
  for (const line of header) {
    for (const cell of line.cells) {
      const i = columnOf(cell, columns);
      const text = wordsText(cell.runs, line.height);
      row[i] = row[i] ? `${row[i]} ${text}` : text;
    }
  }
  return row;
}

/** Same number of cells, columns overlapping, and not far below the previous line. */
function continues(prev: Line, line: Line): boolean {
  if (prev.cells.length !== line.cells.length) return false;
  if (prev.y - line.y > Math.max(prev.height, line.height) * 3.5) return false;
  return line.cells.every((c, i) => {
    const p = prev.cells[i]!;
    const slack = line.height;
    return c.x0 <= p.x1 + slack && p.x0 <= c.x1 + slack;
  });
}

function toLines(runs: readonly TextRun[]): Line[] {
  // Rotated text and zero-size artefacts say nothing about columns.
  const boxes = runs.filter((r) => r.x1 - r.x0 > 0 && r.top - r.bottom > 0);
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
    for (const r of l.runs) {
      const last = cells.at(-1);
      // A gap wider than about two spaces starts a new cell.
      if (last && r.x0 - last.x1 < l.h * 0.9) {
        last.runs.push(r);
        last.x1 = Math.max(last.x1, r.x1);
      } else cells.push({ x0: r.x0, x1: r.x1, runs: [r] });
    }
    return { y: l.y, height: l.h, cells };
  });
}

/** Runs of one line, left to right, as words: a gap wider than a thin space is a space. */
export function wordsText(runs: readonly TextRun[], height: number): string {
  let text = '';
  let end = -Infinity;
  for (const run of runs) {
    // Runs apart by more than a thin space are separate words.
    if (text !== '' && run.x0 - end > height * 0.15 && !/\s$/.test(text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x1);
  }
  // Control characters (unmapped glyphs) are not text.
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/\s+/g, ' ').trim();
}
