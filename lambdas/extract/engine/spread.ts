// One long PDF read by several pool workers at once, each taking a run of its
// pages, and merged into exactly what one worker would have returned. Only
// where that is exact: a PDF (pages are independent), one chunk per page
// (chunks never cross a page), and no table joined across the runs' seams.

import { detect } from './detect.ts';
import { detectLanguage } from './language.ts';
import { mergeParts, mergeRulesOf } from './merge.ts';
import { countPages } from './page-count.ts';
import { splitOf } from './registry.ts';
import type { ExtractInput, ExtractionResult } from './types.ts';

/** Fewer pages than this per worker would cost more in parsing the document again than the second core gives back. */
export const MIN_PAGES_PER_WORKER = 100;

/** Above this, a document is either the large-document pipeline's or too big to hold one copy per worker. */
export const MAX_SPREAD_BYTES = 10 * 1024 * 1024;

/** Runs of 1-based page numbers, one per worker, or null when the document is read by one worker. */
export function spreadPlan(input: ExtractInput, workers: number): number[][] | null {
  if (workers < 2 || input.bytes.byteLength > MAX_SPREAD_BYTES) return null;
  if ((input.config?.chunking.strategy ?? 'page') !== 'page') return null;
  try {
    if (detect(input).format !== 'pdf') return null;
  } catch {
    return null;
  }
  const total = countPages(input);
  const pages = input.config?.pages?.filter((n) => n <= total) ?? Array.from({ length: total }, (_, i) => i + 1);
  const runs = Math.min(workers, Math.floor(pages.length / MIN_PAGES_PER_WORKER));
  if (runs < 2) return null;
  const size = Math.ceil(pages.length / runs);
  return Array.from({ length: runs }, (_, i) => pages.slice(i * size, (i + 1) * size)).filter((run) => run.length > 0);
}

/** The results of the runs, in order, as one. */
export function mergeSpread(runs: number[][], results: ExtractionResult[]): ExtractionResult {
  const merged = mergeParts(runs.map((pages, i) => ({ first_page: pages[0]!, last_page: pages.at(-1)!, ok: true, result: results[i]! })), mergeRulesOf(splitOf(results[0]!.metadata.format)!), { joinSeams: false })!;
  const { failed_page_ranges: _none, ...metadata } = merged.metadata;
  return { ...merged, metadata: { ...metadata, language: detectLanguage(merged.content) } };
}
