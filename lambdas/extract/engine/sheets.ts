// What the spreadsheet readers (XLSX, XLS, ODS) share: a sheet as read, and
// one page per sheet written from it, so a workbook reads the same whatever
// file format holds it. A sheet's cells are written as the blocks a reader
// sees (sheet-blocks.ts): each table apart, a lone cell (a note, a label) as
// a one-cell table, a title line over a table as a paragraph before it; merged
// cells repeat their value over the cells they cover.

import { Blocks, type OutputMode } from './blocks.ts';
import { type ChartText, writeChart } from './charts.ts';
import { MAX_CELLS } from './limits.ts';
import type { CellRange } from './merged-cells.ts';
import { writeSheetCells } from './sheet-blocks.ts';
import type { DraftElement, FormatOutput, Table } from './types.ts';

export interface Sheet {
  name: string;
  rows: string[][];
  /** Merged ranges, each showing its top-left cell's value. */
  merges?: CellRange[];
  /**
   * A sheet the workbook hides from its reader: its page is left empty (it
   * still counts as a page, and metadata.sheets still names it, so paging and
   * quota do not depend on what is shown).
   */
  hidden?: boolean;
  /** Cell comments (notes, and each message of a comment thread), by cell reference. */
  comments?: SheetComment[];
  /** Charts and text boxes drawn on the sheet, in drawing order. */
  drawings?: Drawing[];
}

export interface SheetComment {
  ref: string;
  text: string;
  author?: string;
  /** A reply in a comment thread, after the comment it answers. */
  reply?: boolean;
}

export type Drawing = { kind: 'chart'; chart: ChartText } | { kind: 'text'; text: string } | { kind: 'figure'; text: string };

/** Spreadsheet column name of a 0-based index: A, B, ..., Z, AA. */
export function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** The sheet (or slide) numbers a selection keeps: those that exist, in order; every one without a selection. */
export const selectedNumbers = (total: number, pages: number[] | null) =>
  pages ? pages.filter((n) => n >= 1 && n <= total) : Array.from({ length: total }, (_, i) => i + 1);

/**
 * One page per sheet: its name, then its blocks of cells, then its drawings
 * and comments; nothing for a hidden sheet. `sheets` are the sheets read;
 * `names` every sheet of the workbook (metadata.sheets lists them all,
 * selected or not), `kept` their numbers.
 */
export function sheetsOutput(sheets: Sheet[], mode: OutputMode, metadata: FormatOutput['metadata'], selection: Selection): FormatOutput {
  // Merged cells' copies are cells too: held to the cap a reader holds the cells it reads to.
  const budget = { cells: MAX_CELLS };
  return pagesOutput(
    sheets.map((sheet) => (out: Blocks) => {
      if (sheet.hidden) return;
      out.heading(2, sheet.name);
      writeSheetCells(out, sheet, budget);
      writeExtras(out, sheet);
    }),
    mode,
    metadata,
    selection,
  );
}

/**
 * A part of one sheet (engine/page-parts.ts), written as its share of the
 * page a whole read writes: the sheet's name in its first part, its rows, and
 * what follows the table in its last. `rows` are already the table's columns
 * and width (the whole sheet's); `header` is the table's header row when it
 * lies in an earlier part.
 */
export interface SheetPiece {
  name: string;
  hidden: boolean;
  first: boolean;
  last: boolean;
  rows: string[][];
  header: string[] | null;
  extras: Pick<Sheet, 'comments' | 'drawings'>;
}

export function sheetPieceOutput(piece: SheetPiece, mode: OutputMode, metadata: FormatOutput['metadata'], selection: Selection): FormatOutput {
  const write = (out: Blocks) => {
    if (piece.hidden) return;
    if (piece.first) out.heading(2, piece.name);
    out.tableRows(piece.rows, piece.header, { sheet: piece.name });
    if (piece.last) writeExtras(out, piece.extras);
  };
  return pagesOutput([write], mode, metadata, selection);
}

interface Selection {
  names: string[];
  kept: number[];
  selected: boolean;
}

function writeExtras(out: Blocks, sheet: Pick<Sheet, 'comments' | 'drawings'>): void {
  for (const d of sheet.drawings ?? []) {
    if (d.kind === 'chart') writeChart(out, d.chart);
    else if (d.kind === 'figure') out.figure(d.text);
    else out.paragraph(d.text);
  }
  for (const c of sheet.comments ?? []) out.paragraph(`${c.ref}${commentBy(c)}: ${c.text}`);
}

/** Who wrote a comment, so a thread reads as the exchange it is: " (Ann)", " (reply by Bo)". */
function commentBy(c: SheetComment): string {
  const author = c.author?.replace(/\s+/g, ' ').trim() ?? '';
  if (c.reply) return author ? ` (reply by ${author})` : ' (reply)';
  return author ? ` (${author})` : '';
}

function pagesOutput(pageWriters: Array<(out: Blocks) => void>, mode: OutputMode, metadata: FormatOutput['metadata'], selection: Selection): FormatOutput {
  const tables: Table[] = [];
  const drafts: DraftElement[] = [];
  const pages = pageWriters.map((write, page) => {
    const out = new Blocks(mode);
    write(out);
    for (const e of out.elements) drafts.push({ ...e, page, ...(e.table !== undefined ? { table: e.table + tables.length } : {}) });
    tables.push(...out.tables);
    return out.text();
  });
  return {
    pages,
    pageSeparator: '\n\n',
    unit: 'sheet',
    tables,
    elements: drafts,
    ...(selection.selected ? { pagesSelected: { total: selection.names.length, kept: selection.kept } } : {}),
    metadata: { ...metadata, sheets: selection.names },
  };
}
