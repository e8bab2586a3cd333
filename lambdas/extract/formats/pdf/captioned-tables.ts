// A table of two columns looks like two columns of text, or like labels with
// their values, so the text-layer finder takes one only where a column holds
// amounts. A caption that names a table ("Table 2:", "Tabelle 3.") says what
// the lines next to it are: the run of two-cell lines right under it, or right
// above it where the caption follows its table, is that table.

import { TABLE_CAPTION } from './captions.ts';
import { apart, type Span } from './sparse-rows.ts';
import type { TextRun } from './tables.ts';

interface PairLine {
  y: number;
  height: number;
  cells: Array<Span & { runs: TextRun[] }>;
  mixed?: boolean;
}

/** Rows a captioned table needs, its header row among them. */
const MIN_ROWS = 3;
/** Words a cell of such a table holds at most: a column of prose runs longer. */
const MAX_CELL_WORDS = 8;

/** A bullet or an enumerator alone in a line's first cell: a list item, not a row. */
const MARKER = /^(?:[^\p{L}\p{N}]|\(?[\p{L}\p{N}]{1,3}[.)])$/u;

/**
 * Runs of two-cell lines (of `lines`, top to bottom) next to a line that is a
 * table's caption, their columns overlapping from line to line (`continues`),
 * none in `taken`; each run with the caption line it was found by. A caption
 * with a table found otherwise right next to it (a line of it in `taken`, or
 * a ruled table's extent in `tables`, y up) names that table.
 */
export function captionedPairs<L extends PairLine>(
  lines: L[],
  taken: ReadonlySet<L>,
  tables: ReadonlyArray<{ top: number; bottom: number }>,
  continues: (prev: L, line: L) => boolean,
): Array<{ caption: L; lines: L[] }> {
  const found: Array<{ caption: L; lines: L[] }> = [];
  const pair = (line: L | undefined): line is L =>
    line !== undefined &&
    line.cells.length === 2 &&
    !line.mixed &&
    !taken.has(line) &&
    !MARKER.test(line.cells[0]!.runs.map((r) => r.text).join(' ')) &&
    line.cells.every((c) => c.runs.length <= MAX_CELL_WORDS);
  // Within the distance `apart` allows between rows, under the caption's foot or over its top.
  const near = (caption: L) => (t: { top: number; bottom: number }) => {
    const reach = 3.5 * caption.height;
    const [foot, head] = [caption.y, caption.y + caption.height];
    return (t.top <= head && foot - t.top <= reach) || (t.bottom >= foot && t.bottom - head <= reach);
  };
  lines.forEach((caption, i) => {
    if (caption.cells.length !== 1 || !TABLE_CAPTION.test(caption.cells[0]!.runs.map((r) => r.text).join(' '))) return;
    if (taken.has(lines[i + 1]!) || taken.has(lines[i - 1]!) || tables.some(near(caption))) return;
    for (const step of [1, -1]) {
      const run: L[] = [];
      for (let k = i + step; pair(lines[k]); k += step) {
        const line = lines[k]!;
        const prev = run.at(-1);
        if (prev ? !(step > 0 ? continues(prev, line) : continues(line, prev)) : step > 0 ? apart(caption, line) : apart(line, caption)) break;
        run.push(line);
      }
      if (run.length >= MIN_ROWS && !found.some((f) => f.lines.some((l) => run.includes(l)))) {
        found.push({ caption, lines: step > 0 ? run : run.reverse() });
        break;
      }
    }
  });
  return found;
}
