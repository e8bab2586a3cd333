// Merging the parts of a document that was extracted in chunks (page ranges)
// into the one result an unsplit extraction would have given: content joined
// with the format's page separator, chunk offsets and indexes continued
// across seams, and a table cut by a seam joined again: a table that
// continues on the next page, or the one table a file split by rows is. The
// format's split capability (format.ts) says which, recorded on the job when
// it was planned (MergeRules): the merge reads no registry, so the
// aggregation function does not load every format's descriptor.

import { tableMarkdown } from './blocks.ts';
import { codePointLength } from './text-stats.ts';
import { headingPaths } from './chunks.ts';
import type { SplitCapability } from './format.ts';
import type { Chunk, Element, ExtractionResult, FailedPageRange, PageSize, Table } from './types.ts';

export type Part =
  | { first_page: number; last_page: number; ok: true; result: ExtractionResult; pagePart?: PartOfPage }
  | { first_page: number; last_page: number; ok: false; error: string; pagePart?: PartOfPage };

/**
 * A part that is one part of a page (page-parts.ts): a page's later parts do
 * not count the page again, and one that `continues` the table of the part
 * before it joins it row by row: its content after a line break, its rows
 * onto that table (its repeated header row dropped), its table element into
 * that table's.
 */
export interface PartOfPage {
  first: boolean;
  continues: boolean;
}

/** Whether a part's first table goes on with the table before it, row by row. */
export const continuesTable = (part: { pagePart?: PartOfPage }, result: ExtractionResult) => part.pagePart?.continues === true && result.tables.length > 0;

/** Whether a part adds its page to the merged result's pages: not a page's later parts. */
export const countsPage = (part: { pagePart?: PartOfPage }) => part.pagePart?.first !== false;

/** How a format's parts join: its split capability without the planning. */
export type MergeRules = Pick<SplitCapability, 'separator' | 'joinTablesAtSeams' | 'oneTable'>;

/** The rules of a split capability, as planning records them on the job. */
export const mergeRulesOf = ({ separator, joinTablesAtSeams, oneTable }: SplitCapability): MergeRules => ({
  separator,
  ...(joinTablesAtSeams ? { joinTablesAtSeams } : {}),
  ...(oneTable ? { oneTable } : {}),
});

/**
 * Parts in page order; null when no part succeeded. `joinSeams: false` keeps
 * a PDF table that runs over a seam as the two tables a whole read gives.
 */
export function mergeParts(parts: Part[], split: MergeRules, { joinSeams = true } = {}): ExtractionResult | null {
  const ordered = [...parts].sort((a, b) => a.first_page - b.first_page);
  const good = ordered.filter((p): p is Extract<Part, { ok: true }> => p.ok);
  if (good.length === 0) return null;
  const first = good[0]!.result;
  const { separator } = split;
  const rows = split.oneTable === true;

  const contents: string[] = [];
  // Tables that parts of a page added rows to: rendered again once all are in.
  const joined = new Set<Table>();
  const chunks: Chunk[] = [];
  const elements: Element[] = [];
  const pageSizes: PageSize[] = [];
  let tables: Table[] = [];
  let offset = 0;
  let previous: Extract<Part, { ok: true }> | null = null;
  // A word a seam cuts in two (text pages are cut mid-text) was counted by both parts.
  let wordsCut = 0;
  for (const part of good) {
    const { result } = part;
    if (previous && separator === '' && cutsWord(previous.result.content, result.content)) wordsCut++;
    const rowBreak = continuesTable(part, result);
    // Pages may be empty and still be joined (an empty slide keeps its place); a part with no rows adds no row break.
    const joins = !(rows || !countsPage(part)) || result.content !== '';
    const sep = contents.length === 0 ? '' : rowBreak ? '\n' : separator;
    if (joins) {
      offset += codePointLength(sep);
      contents.push(sep + result.content);
    }
    for (const chunk of result.chunks) {
      chunks.push({ ...chunk, index: chunks.length, char_start: chunk.char_start + offset, char_end: chunk.char_end + offset });
    }
    const before = tables.length;
    if (!previous) tables = [...result.tables];
    else if (rows || (rowBreak && before > 0)) {
      tables = appendRows(tables, result.tables);
      if (!rows) joined.add(tables[before - 1]!);
    }
    // Slides and sheets are never one table across a seam; only a PDF table runs on over a page break.
    else if (split.joinTablesAtSeams && joinSeams) tables = joinAtSeam(tables, result.tables, previous.last_page, part.first_page);
    else tables = [...tables, ...result.tables];
    // The part's first table was joined to the one before the seam when the count grew by one fewer.
    const tableShift = before - (before + result.tables.length - tables.length);
    for (const [i, e] of (result.elements ?? []).entries()) {
      const moved: Element = { ...e, char_start: e.char_start + offset, char_end: e.char_end + offset, ...(e.table !== undefined ? { table: e.table + tableShift } : {}) };
      const last = elements.at(-1);
      if (i === 0 && rowBreak && moved.type === 'table' && last?.type === 'table' && last.table === moved.table) joinTableElements(last, moved);
      else elements.push(moved);
    }
    pageSizes.push(...(result.metadata.page_sizes ?? []));
    offset += codePointLength(result.content);
    previous = part;
  }
  // Rendered once, when all the rows are in: per part, the rendering and the copying grew with the square of the file.
  if (rows && good.length > 1) for (const table of tables) finishRows(table);
  for (const table of joined) finishRows(table);
  const content = contents.join('');
  // A part's chunks knew only the headings of their own part; without elements (config.elements off) they keep those.
  if (first.elements) {
    const paths = headingPaths(elements);
    for (const chunk of chunks) chunk.headings = paths.at(chunk.char_start);
  }
  const failed: FailedPageRange[] = ordered
    .filter((p): p is Extract<Part, { ok: false }> => !p.ok)
    .map((p) => ({ first_page: p.first_page, last_page: p.last_page, error: p.error }));
  const sum = (pick: (r: ExtractionResult) => number) => good.reduce((n, p) => n + pick(p.result), 0);

  return {
    content,
    metadata: {
      ...first.metadata,
      pages: good.reduce((n, p) => n + (countsPage(p) ? p.result.metadata.pages : 0), 0),
      language: good.map((p) => p.result.metadata.language).find((l) => l) ?? null,
      char_count: codePointLength(content),
      word_count: sum((r) => r.metadata.word_count) - wordsCut,
      ocr_pages: good.flatMap((p) => p.result.metadata.ocr_pages),
      failed_sections: good.flatMap((p) => p.result.metadata.failed_sections ?? []),
      failed_page_ranges: failed,
      ...(pageSizes.length > 0 ? { page_sizes: pageSizes } : {}),
    },
    tables,
    chunks,
    ...(first.elements ? { elements } : {}),
  };
}

/** A table's element continued by the next part's rows: one element over both, as a whole read gives. */
export function joinTableElements(into: Element, next: Element): void {
  into.char_end = next.char_end;
  into.text = `${into.text}\n${next.text}`;
}

/** The text before a seam ends inside a word that the text after it goes on with (wordCount's words: runs of non-whitespace). */
export const cutsWord = (before: string, after: string) => before !== '' && after !== '' && /\S/.test(before.at(-1)!) && /\S/.test(after[0]!);

/**
 * The parts of a CSV or TSV file are runs of its one table's rows, each
 * headed by the file's header row (csv.ts), which is kept once. The rows go
 * onto the first part's table in place; finishRows pads and renders it once
 * all parts are in.
 */
function appendRows(before: Table[], after: Table[]): Table[] {
  const tail = before.at(-1);
  const head = after[0];
  if (!tail || !head) return [...before, ...after];
  const [headHeader, ...headRows] = head.rows;
  if (headHeader && !samePadded(tail.rows[0] ?? [], headHeader)) tail.rows.push(headHeader);
  // One row at a time: a spread of a part's rows into push() overflows the stack for large parts.
  for (const row of headRows) tail.rows.push(row);
  return [...before.slice(0, -1), tail, ...after.slice(1)];
}

/** Rows equal once the shorter is padded with empty cells to the longer's width. */
export function samePadded(a: string[], b: string[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? '') !== (b[i] ?? '')) return false;
  return true;
}

/** Parts padded to different widths are padded to the widest, in place, and the table rendered once. */
function finishRows(table: Table): void {
  let width = 0;
  for (const row of table.rows) width = Math.max(width, row.length);
  for (const row of table.rows) while (row.length < width) row.push('');
  table.markdown = tableMarkdown(table.rows);
}

/**
 * The last table before a seam and the first after it are one table when they
 * sit on the seam's two pages and have the same number of columns; a header
 * row repeated at the top of the continuation is dropped.
 */
function joinAtSeam(before: Table[], after: Table[], lastPageBefore: number, firstPageAfter: number): Table[] {
  const tail = before.at(-1);
  const head = after[0];
  if (!tail || !head || tail.page !== lastPageBefore || head.page !== firstPageAfter) return [...before, ...after];
  const width = (t: Table) => t.rows[0]?.length ?? 0;
  if (width(tail) === 0 || width(tail) !== width(head)) return [...before, ...after];
  const sameRow = (a: string[], b: string[]) => a.length === b.length && a.every((cell, i) => cell === b[i]);
  const continuation = sameRow(tail.rows[0]!, head.rows[0]!) ? head.rows.slice(1) : head.rows;
  const rows = [...tail.rows, ...continuation];
  const joined: Table = { ...tail, rows, markdown: tableMarkdown(rows) };
  return [...before.slice(0, -1), joined, ...after.slice(1)];
}
