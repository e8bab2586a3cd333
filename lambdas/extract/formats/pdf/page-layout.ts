// A page's words (from its text layer, or read by OCR from a scan) into the
// page's layout: its tables, ruled by the lines drawn or seen on it or found
// by their aligned columns, and the rest as lines in blocks, in reading order.

import { normaliseRows, tableMarkdown } from '../../engine/blocks.ts';
import type { Table } from '../../engine/types.ts';
import { toBlocks, toLines } from './layout.ts';
import { drawnLaterWhereTheyStand, inReadingOrder, outOfOrder, raisedAbove } from './reading-order.ts';
import { findRuledTables } from './ruled-tables.ts';
import type { Ruling } from './rulings.ts';
import { withColumnRules } from './row-rules.ts';
import type { PageLayout } from './structure.ts';
import { findTables, rowsInReadingOrder, type PlacedTable, type TextRun } from './tables.ts';
import type { Word } from './words.ts';

export const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A page's words into its tables (added to the document's too, as page `n`) and its blocks of lines, in
 * place of what `layout` held; tables are ruled by `rulings` (drawn on the page, or seen in a scan).
 */
export function layoutWords(n: number, tables: Table[], layout: PageLayout, words: Word[], rulings: readonly Ruling[]): void {
  const height = layout.height;
  const inTables = new Set<TextRun>();
  layout.tables = [];
  for (const placed of pageTables(rulings, words)) {
    const rows = rowsInReadingOrder(normaliseRows(placed.rows));
    if (rows.length === 0) continue;
    const runs = placed.runs as Word[];
    for (const r of runs) inTables.add(r);
    const markdown = tableMarkdown(rows);
    layout.tables.push({
      index: tables.length,
      bbox: [round2(Math.min(...runs.map((r) => r.x0))), round2(height - Math.max(...runs.map((r) => r.top))), round2(Math.max(...runs.map((r) => r.x1))), round2(height - Math.min(...runs.map((r) => r.bottom)))],
      order: Math.min(...runs.map((r) => r.first)),
      rows,
      markdown,
      setIn: setIn(runs),
    });
    tables.push({ page: n, rows, markdown });
  }
  const lines = toLines(words.filter((w) => !inTables.has(w)), height);
  // A tagged PDF's structure says the order; otherwise a stream that keeps going back up the page is read by position.
  const inStream = () => {
    const raised = raisedAbove(lines, layout.tables) ?? lines;
    return drawnLaterWhereTheyStand(raised, layout.tables) ?? raised;
  };
  const ordered = layout.tagged ? lines : outOfOrder(lines) ? inReadingOrder(lines, layout.tables) : inStream();
  layout.blocks = toBlocks(ordered);
}

/** The size most of the words' characters are set in (to a half point), and how many characters they hold. */
function setIn(words: readonly Word[]): { size: number; chars: number } {
  const bySize = new Map<number, number>();
  let chars = 0;
  for (const w of words) {
    const size = Math.round(w.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + w.text.length);
    chars += w.text.length;
  }
  const size = [...bySize.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
  return { size, chars };
}

/** Ruled tables first, then tables in the words they leave, top of the page first. */
function pageTables(rulings: readonly Ruling[], runs: TextRun[]): PlacedTable[] {
  // A table ruled only between its rows gets the column lines it leaves out.
  const ruled = findRuledTables(withColumnRules(rulings, runs), runs);
  return [...ruled.tables, ...findTables(ruled.rest, ruled.tables).filter((t) => !isProse(t.rows))].sort((a, b) => b.top - a.top);
}

/**
 * Columns of running text (a two-column page beside a narrow third) align as
 * a table does; without ruling lines to say otherwise, cells that average
 * five words or more in two columns are prose.
 */
function isProse(rows: string[][]): boolean {
  const width = Math.max(...rows.map((r) => r.length));
  let wordy = 0;
  for (let c = 0; c < width; c++) {
    const cells = rows.map((r) => r[c] ?? '').filter((cell) => cell.trim() !== '');
    const words = cells.reduce((n, cell) => n + cell.trim().split(/\s+/).length, 0);
    if (cells.length > 0 && words / cells.length >= 5) wordy++;
  }
  return wordy >= 2;
}

