// A page too large for one chunk, cut into parts: the engine's way of
// splitting a document whose unit can hold any amount of text (a worksheet of
// a million cells is one page). Planning reads the page once, in the worker
// pool, and finds where each part's content lies; each chunk then reads its
// part only, so a chunk's memory is bounded by the part, not by the page, and
// the merge joins the parts back into the page (merge.ts, Part.pagePart).
// The shapes belong to neither the planners nor the job record, so they live
// here, as byte-ranges.ts does for text files.

/**
 * Where a run of a sheet's rows lies in the sheet's XML as it inflates (byte
 * offsets), and what the part needs of the whole sheet to read its rows as a
 * whole read would: the table's first column and width, and the header row.
 */
export interface SheetRows {
  kind: 'sheet-rows';
  /** The part's rows: from the start of its first row element to the start of the next part's. */
  start: number;
  end: number;
  /** The sheet's first row with text, when it lies before `start`: each part's table repeats it, as a CSV chunk's does. */
  header: [start: number, end: number] | null;
  /** The sheet's first column with text (0-based) and the table's width from there. */
  column: number;
  width: number;
}

export interface PagePart {
  /** The 1-based page the part belongs to. */
  page: number;
  /** The page's first part writes what precedes its rows (the sheet's name). */
  first: boolean;
  /** Its last part writes what follows them (charts, text boxes, comments). */
  last: boolean;
  /** The part's first table continues the table of the part before it, row by row (its header row lies in an earlier part). */
  continues: boolean;
  at: SheetRows;
}

/** One planned page: its size in the format's cost unit (cells) and its parts, or null when it is read whole. */
export interface PlannedPage {
  page: number;
  cells: number;
  parts: PagePart[] | null;
}
