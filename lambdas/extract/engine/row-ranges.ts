// Where the rows of a large CSV or TSV file's chunks lie in its bytes: the
// engine's third way of splitting a document (format.ts, SplitCapability
// "rows"), planned by the CSV reader and carried by the job record and the
// chunk messages, so its shapes belong to neither.

import type { TextEncodingName } from '../containers/text-decoding.ts';

/**
 * How a large CSV or TSV file's rows are found in its bytes, worked out once
 * when the file is planned (planRowRuns), so the chunk that extracts a run of
 * pages reads those rows' bytes and nothing else: every chunk reading and
 * scanning the whole file made the file's cost grow with its square.
 */
export interface RowLayout {
  format: 'csv' | 'tsv';
  /** The whole file's encoding and delimiter: a run alone could sniff others. */
  encoding: TextEncodingName;
  delimiter: string;
  pages_total: number;
  /** Byte offsets of the file's header row (its first row with text); null when no row has text. */
  header: [start: number, end: number] | null;
}

/**
 * Byte offsets of the rows that start on a run's pages, and the code points
 * of the file's text before them (where the rows fall among its text pages).
 * A tuple: the job record holds one per chunk, thousands of them.
 */
export type RowRun = [start: number, end: number, codePoints: number];

export interface RowPlan {
  layout: RowLayout;
  runs: RowRun[];
}

/** A chunk's input instead of the file: its run's bytes, after the header row's `header_bytes` when the header lies before the run. */
export interface RowSlice {
  layout: RowLayout;
  run: RowRun;
  header_bytes: number;
}
