// Merged cells: a spreadsheet's merge ranges and a text table's cells that
// span columns or rows. The merged value is repeated in every cell the merge
// covers, so each row (and each column) reads whole on its own, as pandas and
// docling read them: a chunk or a search hit holding one row of a table still
// says what its merged label says.

import { tooManyCells } from './limits.ts';

/** A rectangle of cells, 0-based rows and columns, both ends inclusive. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * `rows` (changed in place and returned) with each merge's value, its
 * top-left cell's, copied into the other cells it covers; a merge whose
 * top-left cell is empty shows nothing and is dropped. A merge is cut off
 * below the last row the reader has (a sheet's last row with a cell, a text
 * table's last row): a label merged down a whole column of a sheet repeats
 * only beside the rows that hold something. Each copy is counted
 * against `budget` (a merge over a million cells is refused as that many
 * cells are). Returns the merges kept, cut off so.
 */
export function spreadMerged(rows: string[][], merges: CellRange[], budget: { cells: number }, what: string): CellRange[] {
  if (merges.length === 0) return [];
  const lastRow = rows.length - 1;
  const kept: CellRange[] = [];
  // A reader may hand the same array for rows it repeats: each row written to gets its own.
  const own = new Set<string[]>();
  for (const m of merges) {
    const value = rows[m.top]?.[m.left] ?? '';
    if (value.trim() === '') continue;
    const clipped = { ...m, bottom: Math.min(m.bottom, lastRow) };
    for (let r = clipped.top; r <= clipped.bottom; r++) {
      let row = rows[r] ?? [];
      if (!own.has(row)) {
        row = rows[r] = [...row];
        own.add(row);
      }
      while (row.length <= clipped.right) row.push('');
      for (let c = clipped.left; c <= clipped.right; c++) {
        if (r === clipped.top && c === clipped.left) continue;
        if (--budget.cells < 0) throw tooManyCells(what);
        row[c] = value;
      }
    }
    kept.push(clipped);
  }
  for (let r = 0; r < rows.length; r++) rows[r] ??= [];
  return kept;
}
