// The shapes of an extraction result. These are the public contract of
// `result` in GET /v1/jobs/{id}; the README documents them field by field.

import type { InflateBudget } from '../containers/zip.ts';
import type { RangeSlice } from './byte-ranges.ts';
import type { PagePart } from './page-parts.ts';
import type { PageHelpers } from './shared-pages.ts';

export interface ExtractInput {
  bytes: Uint8Array;
  filename: string;
  /** The content type the client sent with the file part, if any. Detection does not trust it. */
  contentType?: string | null;
  config?: ExtractionConfig | null;
  /** A chunk of a large text file: `bytes` are the chunk's own bytes only (byte-ranges.ts, RangeSlice), not the file. */
  range?: RangeSlice;
  /** A chunk that is one part of a page too large for one chunk (page-parts.ts): the document is read for that part only. */
  pagePart?: PagePart;
  /** Idle workers that may read some of its pages meanwhile (shared-pages.ts): the pool's, for a worker's job. */
  helpers?: PageHelpers;
  /** Told, as the pages of a paged document are read, how many of how many are done (PDFs). */
  onProgress?: Progress;
}

/** Pages read so far, of the pages to read. */
export type Progress = (pagesDone: number, pagesTotal: number) => void;

export interface DocumentMetadata {
  /** Short format name: "pdf", "text", "markdown". */
  format: string;
  mime_type: string;
  /** Pages counted the same way as for the page quota (see page-count.ts). */
  pages: number;
  title?: string | null;
  author?: string | null;
  subject?: string | null;
  keywords?: string | null;
  creator?: string | null;
  producer?: string | null;
  /** ISO 8601, when the format records it. */
  created_at?: string | null;
  modified_at?: string | null;
  /** For text formats: the character encoding that was detected. */
  encoding?: string | null;
  char_count: number;
  word_count: number;
  /** 1-based numbers of the pages whose text came from OCR. */
  ocr_pages: number[];
  /** ISO 639-1 code of the main language, when the text says enough to tell. */
  language?: string | null;
  /** Pages (or the format's unit) in the whole document; `pages` counts those extracted when `config.pages` selects some. */
  pages_total?: number;
  /** What `pages` counts: "page", "slide", "sheet" or "text_page" (3,000 characters of content). */
  page_unit?: PageUnit;
  /** What could not be read: archive members and attachments, embedded objects, a package's damaged parts by part name, "end of file" for a file cut short; non-empty makes the job `partial_success`. */
  failed_sections?: FailedSection[];
  /** Large documents split into chunks: the page ranges of chunks that could not be extracted; non-empty makes the job `partial_success`. */
  failed_page_ranges?: FailedPageRange[];
  /** Headers of an e-mail (from, to, cc, subject, date, ...). */
  email?: Record<string, string> | null;
  /** Names of the worksheets, in workbook order. */
  sheets?: string[];
  /** PDFs and images: each extracted page's size in PDF points (1/72 inch), the space element boxes are in. */
  page_sizes?: PageSize[];
}

export interface PageSize {
  page: number;
  width: number;
  height: number;
}

export type PageUnit = 'page' | 'slide' | 'sheet' | 'text_page';

export interface FailedPageRange {
  first_page: number;
  last_page: number;
  error: string;
}

export interface FailedSection {
  name: string;
  error: string;
}

/** The `config` form field of POST /v1/extract, validated (see lambdas/core/extraction-config.ts). */
export interface ExtractionConfig {
  output: 'text' | 'markdown';
  /** 1-based page numbers to extract, ascending; null for all. */
  pages: number[] | null;
  ocr: 'auto' | 'always' | 'never';
  chunking: { strategy: 'page' | 'section' | 'size'; max_chars: number; overlap: number };
  /** false leaves `elements` out of the result. */
  elements: boolean;
  /** true keeps running headers, footers and page numbers in `content` (they are always in `elements`). */
  keep_page_furniture: boolean;
  /**
   * true adds a word-processing document's review comments (DOCX, ODT) after
   * its body, each with its author and the text it is anchored to. A printed
   * document does not show them, so they are left out unless asked for;
   * slide comments and spreadsheet cell notes are always read.
   */
  comments: boolean;
}

export interface Table {
  page?: number;
  sheet?: string;
  rows: string[][];
  markdown: string;
}

export interface Chunk {
  index: number;
  text: string;
  page_start: number;
  page_end: number;
  /** Offsets into `content`, end exclusive. */
  char_start: number;
  char_end: number;
  /** The headings above the chunk's start, outermost first (the chunk's own opening heading included). */
  headings: string[];
  /** PDFs and images: the boxes of the elements the chunk covers, to cite and highlight the source. */
  boxes?: Array<{ page: number; bbox: BBox }>;
}

/** [x0, y0, x1, y1] in PDF points, origin at the page's top-left corner. */
export type BBox = [number, number, number, number];

/** One block of the document, in reading order: the `elements` of a result. */
export interface Element {
  type: ElementType;
  /** The block's plain text (no Markdown syntax); a table's rows are tab-separated lines. */
  text: string;
  /** 1-based page (the format's unit: page, slide, sheet or 3,000-character text page) the block starts on. */
  page: number;
  /** PDF pages and images only. */
  bbox?: BBox;
  /** Headings and titles 1-6; list items their nesting depth, 0 at the top. */
  level?: number;
  /** List items: numbered (true) or bulleted (false). */
  ordered?: boolean;
  /** Tables: the index of the table in `tables`. */
  table?: number;
  /**
   * Where the block is rendered in `content`, in code points, end exclusive.
   * Blocks left out of `content` (running headers and footers unless
   * `keep_page_furniture`, figures without text) have an empty range where
   * they would stand.
   */
  char_start: number;
  char_end: number;
}

/** The kinds of block a document is made of (the README's `elements`). */
export type ElementType =
  | 'title'
  | 'heading'
  | 'paragraph'
  | 'list_item'
  | 'table'
  | 'figure'
  | 'caption'
  | 'code'
  | 'formula'
  | 'footnote'
  | 'page_header'
  | 'page_footer';

/**
 * A block as a format module writes it: what it is and where its text sits in
 * the text the module rendered (UTF-16 offsets, end exclusive). With `page`,
 * the offsets are into that page's text; without (flow formats), into the
 * module's pages joined. The engine turns these into the result's `elements`.
 */
export interface DraftElement {
  type: ElementType;
  start: number;
  end: number;
  /** Headings 1-6; list items their nesting depth, 0 at the top. */
  level?: number;
  ordered?: boolean;
  /** Index into the module's `tables`. */
  table?: number;
  /** 0-based index of the page (in the module's `pages`) the block is on; flow formats leave it out. */
  page?: number;
  /** PDF points, top-left origin: [x0, y0, x1, y1]. */
  bbox?: BBox;
  /** The block's plain text, where it differs from what was rendered (Markdown syntax, or a block rendered nowhere). */
  text?: string;
}

export interface ExtractionResult {
  content: string;
  metadata: DocumentMetadata;
  tables: Table[];
  chunks: Chunk[];
  /** Left out with `config.elements: false`. */
  elements?: Element[];
}

export type ExtractionErrorCode =
  | 'empty_file'
  | 'unsupported_format'
  | 'corrupt_file'
  | 'encrypted_file'
  | 'refused_file'
  | 'too_many_pages'
  | 'timeout'
  | 'out_of_memory';

/**
 * A problem with the document itself. The job fails with this message; it is
 * never retried, because the same bytes would fail the same way.
 */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/**
 * What a format module hands the dispatcher: its text page by page (the
 * dispatcher joins it into `content` and cuts chunks on page boundaries) and
 * what it knows about the document.
 */
export interface FormatOutput {
  pages: string[];
  /** Joins `pages` into `content`. */
  pageSeparator: string;
  /** Defaults to "page". */
  unit?: PageUnit;
  /** UTF-16 offsets into the joined content where a section (heading, chapter, member) starts. */
  sections?: number[];
  /** The blocks of `pages`, in reading order; without them the engine takes each page's blank-line-separated paragraphs. */
  elements?: DraftElement[];
  tables?: Table[];
  /** Set when the format module already dropped the pages `config.pages` did not select. */
  pagesSelected?: { total: number; kept: number[] };
  /** The pages are the document's from page `first` on, of `total` (a chunk read from its own bytes); `config.pages` selects from them as from a whole read. */
  pageRun?: { first: number; total: number };
  metadata: Partial<
    Pick<
      DocumentMetadata,
      | 'title'
      | 'author'
      | 'subject'
      | 'keywords'
      | 'creator'
      | 'producer'
      | 'created_at'
      | 'modified_at'
      | 'encoding'
      | 'ocr_pages'
      | 'failed_sections'
      | 'email'
      | 'sheets'
      | 'language'
      | 'page_sizes'
    >
  >;
}

export const DEFAULT_CONFIG: ExtractionConfig = {
  output: 'text',
  pages: null,
  ocr: 'auto',
  chunking: { strategy: 'page', max_chars: 4000, overlap: 0 },
  elements: true,
  keep_page_furniture: false,
  comments: false,
};

/** What a format's reader gets besides the bytes. */
export interface FormatContext {
  config: ExtractionConfig;
  /** Inflation budget shared by an archive and everything inside it. */
  budget: InflateBudget;
  depth: number;
  /** A chunk of a large text file, when `bytes` are its own bytes only. */
  range?: RangeSlice;
  /** A part of one page to read instead of the selected pages (page-parts.ts). */
  pagePart?: PagePart;
  /** Idle workers of the pool that may read some of a long document's pages (shared-pages.ts); the document itself only, never one inside it. */
  helpers?: PageHelpers;
  /** The document's own progress (ExtractInput.onProgress), never a document's inside it. */
  progress?: Progress;
  /** Extracts an embedded document (an archive member, an attachment). */
  sub(input: ExtractInput): Promise<ExtractionResult>;
}
