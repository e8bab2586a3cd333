// Where each chunk of a large text file lies in its bytes: the engine's third
// way of splitting a document (format.ts, SplitCapability "ranges"), worked
// out once when the file is planned (range-planners.ts, in the worker pool)
// and carried by the job record, so a chunk worker fetches its own bytes (an
// S3 range GET) and decodes nothing else. Every chunk decoding and scanning
// the whole file made a file's cost grow with its square. The shapes belong
// to neither the planners nor the job record, so they live here.

import type { TextEncodingName } from '../containers/text-decoding.ts';

/**
 * A CSV or TSV file: each chunk reads the rows that start on its pages (a row
 * is never cut), after the file's header row.
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
 * Plain text or Markdown: each chunk reads its own text pages, which start
 * and end on code point boundaries (a page is 3,000 code points, text-pages.ts),
 * so bytes cut there decode to exactly the pages a whole read gives.
 */
export interface TextLayout {
  format: 'text' | 'markdown';
  encoding: TextEncodingName;
  pages_total: number;
}

export type RangeLayout = RowLayout | TextLayout;

/**
 * Byte offsets of a chunk's text (the rows that start on its pages, or its
 * pages) and the code points of the file's text before them (which pages
 * they are). A text chunk adds two offsets: where its blocks start (a
 * paragraph or block running on from the chunk before is that chunk's, so
 * the blocks are read from the first that starts in this chunk), and how far
 * to read past its end so that the block running on over its end is read
 * whole (a heading's or code block's text). A tuple: the job record holds
 * one per chunk, thousands of them.
 */
export type ByteRun = [start: number, end: number, codePoints: number, blocksFrom?: number, readEnd?: number];

export interface RangePlan {
  layout: RangeLayout;
  runs: ByteRun[];
}

/** A chunk's input instead of the file: its run's bytes (up to readEnd), after the header row's `header_bytes` when the header lies before the run. */
export interface RangeSlice {
  layout: RangeLayout;
  run: ByteRun;
  header_bytes: number;
}
