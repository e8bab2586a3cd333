// A spreadsheet prints a column of figures flush right and the text column
// after it flush left, so a figure and the next cell's first word can stand
// closer than two words of one cell (Calc: 2 pt apart, its word spaces 3 pt).
// No gap tells them apart; that the same two edges recur row after row does.

import { isFigure } from './figures.ts';
import { LETTER } from '../../engine/letters.ts';
import type { TextRun } from './tables.ts';

interface SplitCell {
  x0: number;
  x1: number;
  runs: TextRun[];
}

interface SplitLine {
  cells: SplitCell[];
}

/** How far apart two edges may be and still be one edge, in points: a printed grid places them exactly. */
const EDGE = 0.6;
/** Lines either side of a line that are looked at for the same edges: a table's neighbourhood, not the page. */
const WINDOW = 12;
/** Other lines that must show the same figure end and next-cell start: three rows in all. */
const MIN_OTHERS = 2;

/**
 * Lines with each cell cut where a figure ends and a word with letters starts,
 * when two more lines nearby show the same two edges (recurs). Fixed-pitch
 * text, where every column is an edge, and a table of contents' lines are
 * never cut.
 */
export function splitAtAlignedFigures<L extends SplitLine>(lines: L[]): L[] {
  return lines.map((line, i) => {
    const cuts = new Set<TextRun>();
    // A table of contents' entries ("Chapter 2 ........ 51") align as columns do, and are a list.
    if (line.cells.some((c) => c.runs.some((r) => LEADER.test(r.text)))) return line;
    line.cells.forEach((cell, c) => {
      for (let k = 0; k + 1 < cell.runs.length; k++) {
        const [figure, next] = [cell.runs[k]!, cell.runs[k + 1]!];
        // A figure that opens a cell after the line's first is a cell of figures; one after words may be part of a phrase.
        if (cuttable(figure, next) && recurs(lines, i, figure, next, k === 0 && c > 0)) cuts.add(next);
      }
    });
    if (cuts.size === 0) return line;
    const cells: SplitCell[] = [];
    for (const cell of line.cells) {
      let piece: SplitCell | null = null;
      for (const run of cell.runs) {
        if (!piece || cuts.has(run)) cells.push((piece = { x0: run.x0, x1: run.x1, runs: [run] }));
        else {
          piece.runs.push(run);
          piece.x1 = Math.max(piece.x1, run.x1);
        }
      }
    }
    return { ...line, cells };
  });
}

/** A figure, then a word with letters in it (not another figure, not a leader's dots, not what makes one figure with it: a time's "PM"). */
const cuttable = (figure: TextRun, next: TextRun) =>
  !figure.mono && !next.mono && next.x0 >= figure.x1 && isFigure(figure.text) && !isFigure(next.text) && LETTER.test(next.text) && !isFigure(`${figure.text} ${next.text}`);

/** Dots or ellipses leading to a page number. */
const LEADER = /\.{4}|…{2}/;

/**
 * Whether other lines nearby show the same two edges: a figure ending where `figure` does and a word starting
 * where `next` does, the words after them not all one. Unless the figure opens a cell (`opens`), the figures
 * must also differ in width, set flush right: the same number after the same words ("Form 945 Display",
 * "Form 943 Display"), or a section's number before its title, ends where the others end too.
 */
function recurs(lines: SplitLine[], at: number, figure: TextRun, next: TextRun, opens: boolean): boolean {
  let both = 0;
  let varied = false;
  let ragged = false;
  for (let j = Math.max(0, at - WINDOW); j <= Math.min(lines.length - 1, at + WINDOW); j++) {
    if (j === at) continue;
    const runs = lines[j]!.cells.flatMap((c) => c.runs);
    const start = runs.find((r, k) => k > 0 && Math.abs(r.x0 - next.x0) <= EDGE && !r.mono);
    const end = start && runs.find((r) => Math.abs(r.x1 - figure.x1) <= EDGE && r.x1 <= start.x0 && isFigure(r.text));
    if (!end) continue;
    both++;
    if (start!.text !== next.text) varied = true;
    if (Math.abs(end.x0 - figure.x0) > EDGE) ragged = true;
  }
  return both >= MIN_OTHERS && varied && (ragged || opens);
}
