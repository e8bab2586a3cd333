// How a large document is split (DESIGN.md section 4): runs of pages, where
// the format's extractor can select pages and so read only what a chunk needs.
// Which formats split, and how, is their descriptors' split capability
// (extract/engine/format.ts); this plans the runs of pages for any of them.
// The page is the format's own unit (README "Pages"), counted at submission:
//   PDF            pages (cut into one PDF per chunk when planned: large-document.ts)
//   PPTX, PPT      slides (each slide is its own part in the ZIP, its own records in the PPT stream)
//   XLSX           sheets, and a sheet too large for one chunk is cut into runs of its rows (page-parts.ts), a chunk each
//   XLS            sheets (each sheet is its own BIFF substream)
//   ODS            sheets (one content.xml, but each sheet is found by a scan and only the chunk's are parsed)
//   CSV, TSV       3,000-character text pages of the file, a row belonging to the page it starts on,
//                  so a row is never cut and the chunks' rows join back into one table
//   text, Markdown 3,000-character text pages
//
// DOCX, ODT, EPUB and HTML stay whole, with one worker: their text flows
// through one XML or markup parse (document.xml, content.xml, the chapters)
// with no page boundary to cut at before parsing, and what makes such a file
// large is its media (images, fonts), which extraction does not read, so
// every chunk would parse the same text again to keep a slice of it. Archives,
// e-mail and images are extracted whole too.

import type { PlannedPage } from '../extract/engine/page-parts.ts';
import type { ChunkRange } from './job.ts';

/**
 * Consecutive chunks of at most `pagesPerChunk` pages over the pages to
 * extract: all `pagesTotal`, or the ascending `selected` ones (config.pages),
 * so a selection of scattered pages still gives evenly sized chunks.
 */
export function planChunks(pagesTotal: number, selected: number[] | null, pagesPerChunk: number): ChunkRange[] {
  if (!Number.isInteger(pagesPerChunk) || pagesPerChunk < 1) throw new Error(`pagesPerChunk must be a positive integer, got ${pagesPerChunk}`);
  const pages = selected ? selected.filter((n) => n >= 1 && n <= pagesTotal) : null;
  const count = pages ? pages.length : pagesTotal;
  const plan: ChunkRange[] = [];
  for (let start = 0; start < count; start += pagesPerChunk) {
    const end = Math.min(count, start + pagesPerChunk) - 1;
    plan.push({ index: plan.length, first_page: pages ? pages[start]! : start + 1, last_page: pages ? pages[end]! : end + 1 });
  }
  return plan;
}

/**
 * The pages one chunk extracts: its range, narrowed to the selection if there
 * is one. A part of a page counts its page once, in the page's first part.
 */
export function chunkPages(range: ChunkRange, selected: number[] | null): number[] {
  if (range.page_part) return range.page_part.first ? [range.page_part.page] : [];
  const all = Array.from({ length: range.last_page - range.first_page + 1 }, (_, i) => range.first_page + i);
  if (!selected) return all;
  const wanted = new Set(selected);
  return all.filter((n) => wanted.has(n));
}

/**
 * The chunks of a document whose pages were planned one by one (page-planners.ts):
 * a page cut into parts is a chunk per part, and the other pages go together
 * as planChunks puts them, at most `pagesPerChunk` of them and, past the
 * first, at most `cellsPerChunk` of the format's cost unit.
 */
export function partedChunks(planned: PlannedPage[], pagesPerChunk: number, cellsPerChunk: number): ChunkRange[] {
  const plan: ChunkRange[] = [];
  let run: { first: number; last: number; pages: number; cells: number } | null = null;
  const close = () => {
    if (run) plan.push({ index: plan.length, first_page: run.first, last_page: run.last });
    run = null;
  };
  for (const page of planned) {
    if (page.parts) {
      close();
      for (const part of page.parts) plan.push({ index: plan.length, first_page: page.page, last_page: page.page, page_part: part });
      continue;
    }
    if (run && (run.pages >= pagesPerChunk || run.cells + page.cells > cellsPerChunk)) close();
    run ??= { first: page.page, last: page.page, pages: 0, cells: 0 };
    Object.assign(run, { last: page.page, pages: run.pages + 1, cells: run.cells + page.cells });
  }
  close();
  return plan;
}

/** Pages the plan covers (what progress counts towards). */
export const plannedPages = (plan: ChunkRange[], selected: number[] | null) =>
  plan.reduce((sum, range) => sum + chunkPages(range, selected).length, 0);

/** "3-7, 12" for failed chunks' page ranges. */
export const describeRanges = (ranges: Pick<ChunkRange, 'first_page' | 'last_page'>[]) =>
  ranges.map((r) => (r.first_page === r.last_page ? `${r.first_page}` : `${r.first_page}-${r.last_page}`)).join(', ');
