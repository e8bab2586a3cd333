// The planners of the formats whose large documents are split by byte ranges
// (format.ts, SplitCapability "ranges"): each finds, once, where every chunk's
// text lies in the file's bytes (byte-ranges.ts). Kept apart from the
// descriptors for the reason readers.ts is: a literal import() here would put
// the readers into every bundle that reads the registry. Only the worker pool
// loads this.

import type { RangePlan } from './byte-ranges.ts';
import type { Format } from './registry.ts';

type Runs = Array<{ first_page: number; last_page: number }>;
export type RangePlanner = (bytes: Uint8Array, runs: Runs) => Promise<RangePlan | null>;

export const RANGE_PLANNERS: Partial<Record<Format, RangePlanner>> = {
  csv: async (bytes, runs) => (await import('../formats/text/csv.ts')).planRowRuns(bytes, 'csv', runs),
  tsv: async (bytes, runs) => (await import('../formats/text/csv.ts')).planRowRuns(bytes, 'tsv', runs),
  text: async (bytes, runs) => (await import('../formats/text/plain.ts')).planTextRuns(bytes, 'text', runs),
  markdown: async (bytes, runs) => (await import('../formats/text/plain.ts')).planTextRuns(bytes, 'markdown', runs),
};

/** The byte ranges of a document's chunks, or null when its format plans none or its encoding hides where they lie. */
export async function planRanges(bytes: Uint8Array, format: string, runs: Runs): Promise<RangePlan | null> {
  const planner = RANGE_PLANNERS[format as Format];
  return planner ? planner(bytes, runs) : null;
}
