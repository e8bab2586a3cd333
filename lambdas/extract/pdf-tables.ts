// Tables in a PDF's text layer, found from where the text sits: runs of at
// least three consecutive lines that split into the same number (three or
// more) of cells whose columns overlap from line to line. Ruling lines are not
// read. Two cells a line are never taken for a table: text set in two columns
// looks just the same (a two-column table is left in the text).

import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';

const MIN_ROWS = 3;
const MIN_COLUMNS = 3;


interface Cell {
  x0: number;
  x1: number;
  text: string;
}

interface Line {
  y: number;
  height: number;
  cells: Cell[];
}

export function findTables(items: ReadonlyArray<TextItem | object>): string[][][] {
  const lines = toLines(items);
  const tables: string[][][] = [];
  let run: Line[] = [];
  const flush = () => {
    if (run.length >= MIN_ROWS) tables.push(run.map((l) => l.cells.map((c) => c.text)));
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
  return tables;
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

function toLines(items: ReadonlyArray<TextItem | object>): Line[] {
  const glyphs = items
    .filter((i): i is TextItem => 'str' in i && i.str.trim() !== '')
    .map((i) => ({ x: i.transform[4] as number, y: i.transform[5] as number, w: i.width, h: Math.abs(i.height) || Math.abs(i.transform[3] as number) || 10, str: i.str }))
    // Rotated text and zero-width artefacts say nothing about columns.
    .filter((g) => g.w > 0);
  glyphs.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Array<{ y: number; h: number; glyphs: typeof glyphs }> = [];
  for (const g of glyphs) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - g.y) < Math.min(line.h, g.h) * 0.5) line.glyphs.push(g);
    else lines.push({ y: g.y, h: g.h, glyphs: [g] });
  }
  return lines.map((l) => {
    l.glyphs.sort((a, b) => a.x - b.x);
    const cells: Cell[] = [];
    for (const g of l.glyphs) {
      const last = cells.at(-1);
      // A gap wider than about two spaces starts a new cell.
      if (last && g.x - last.x1 < l.h * 0.9) {
        last.text += (g.x - last.x1 > l.h * 0.15 && !/\s$/.test(last.text) ? ' ' : '') + g.str;
        last.x1 = Math.max(last.x1, g.x + g.w);
      } else cells.push({ x0: g.x, x1: g.x + g.w, text: g.str });
    }
    // Control characters (unmapped glyphs) are not text.
    for (const c of cells) c.text = c.text.replace(/[\u0000-\u001f\u007f]/g, '').replace(/\s+/g, ' ').trim();
    return { y: l.y, height: l.h, cells };
  });
}
