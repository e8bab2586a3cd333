// What the engine knows of a format, in one descriptor per format (each
// format folder's index.ts): how its bytes are recognised, what it is called,
// how its pages are counted, and whether and how a large one is split. The
// engine's detection, page counting, chunk planning and merging read these;
// none of them names a format.
//
// The reader is not in the descriptor: esbuild bundles every module an
// import() names, so a descriptor that loaded its reader would put every
// reader (PDFium, the HTML and e-mail parsers) into the API and aggregation
// functions, which only detect, count and merge. The descriptor names its
// family instead; the family folder's reader.ts holds its readers, and
// engine/readers.ts, which only the extraction workers load, imports it.

import type { CompoundFile } from '../containers/compound-file.ts';
import type { SafeZip } from '../containers/zip.ts';
import type { PageUnit } from './types.ts';

/**
 * How a format is recognised. Detection (detect.ts) asks in a fixed order,
 * and within each step the registry's order decides: a ZIP signature at byte
 * 0, then a header in the first bytes, then leading magic bytes, then a
 * compound file's streams, then text (names that decide, then sniffers).
 */
export interface Signature {
  /** A header that may start anywhere in the first `window` bytes, as readers of the format allow. */
  header?: { pattern: RegExp; window: number };
  /** Leading bytes; any one of these names the format. */
  magic?: number[][];
  /** The content of a ZIP package's first, stored `mimetype` member (ODF, EPUB). */
  zipMimetype?: string;
  /** Asked of a ZIP whose mimetype member named no format: the members that make it this format. */
  zipMembers?: (zip: ZipNames) => boolean;
  /** Asked of a ZIP's or a TAR's member names after zipMembers: the members that make an archive this format (a LaTeX project). */
  archiveMembers?: (names: string[]) => boolean;
  /** Any ZIP no other format claimed. */
  anyZip?: true;
  /** Any TAR no other format claimed. */
  anyTar?: true;
  /** A gzip file: read by inflating it and reading what it holds. */
  gzip?: true;
  /** A compound file's top-level streams (upper-cased names; `directory` is false when the names were looked for in the raw bytes of a damaged file). */
  compoundStreams?: (streams: StreamNames) => boolean;
  /** Filename extensions and content types that, on text, hint at this format; `decides` makes the hint enough. */
  names?: { extensions: string[]; contentTypes: string[]; decides?: true };
  /** Asked of text in the registry's order: its decoded head, and whether the name hinted at this format. */
  sniff?: (head: string, hinted: boolean) => boolean;
  /** Any text no other format claimed. */
  anyText?: true;
}

export interface ZipNames {
  has(name: string): boolean;
  names(): string[];
  /** Set where the archive was cut short and its members were read from their own headers (containers/zip.ts). */
  readonly damage: string | null;
}

export interface StreamNames {
  has(name: string): boolean;
  /** True when any stream's name starts with `prefix`. */
  hasPrefix(prefix: string): boolean;
  directory: boolean;
}

/**
 * The document as a page count reads it, opened on demand and within the
 * count's budget (page-count.ts): counting never loads a reader.
 */
export interface CountSource {
  bytes: Uint8Array;
  meter: CountMeter;
  zip(): SafeZip;
  compound(what: string): CompoundFile;
  /** Decoded code points of a text file. */
  codePoints(): number;
  /** Decoded text of a text file. */
  text(): string;
}

/** A count's budget as it is spent (page-count.ts Meter). */
export interface CountMeter {
  inflatedLeft(): number;
  addInflated(n: number): void;
  addObject(): void;
  tick(): void;
  checkTime(): void;
}

/**
 * How a large document of the format is cut into chunks (DESIGN.md section
 * 4), each chunk a run of its pages, and how the parts join again.
 *   pages   the reader honours config.pages by reading only those pages
 *   cut     as pages, and the document is first cut into one small document per
 *           chunk (a PDF, by PDFium in the extractor pool: large-document.ts PdfSplitter)
 *   ranges  as pages, and where each chunk's text lies in the file's bytes is
 *           found once when planning (range-planners.ts), so a chunk reads and
 *           decodes its own bytes only (byte-ranges.ts)
 * The separator and the table joining are the merge's rules (merge.ts
 * MergeRules); planning records them on the job, so the merge needs no registry.
 */
export interface SplitCapability {
  chunks: 'pages' | 'cut' | 'ranges';
  /** What joins two parts' content: the separator the reader puts between its pages. */
  separator: string;
  /** A table that runs over a seam between parts is joined again (PDF tables continued on the next page). */
  joinTablesAtSeams?: true;
  /** The document is one table whose rows the parts share: they join row by row, its header once (CSV, TSV). */
  oneTable?: true;
  /**
   * A page can hold more than one chunk should read (a worksheet of a million
   * cells): planning reads the pages and cuts those too large into parts
   * (page-planners.ts, page-parts.ts), each a chunk of its own.
   */
  pageParts?: true;
}

/** Refuses a document with more of its units than the format allows, before any of it is read. */
export interface UnitLimit {
  max: number;
  /** "The PDF has 5,001 pages", for the count given. */
  says: (count: string) => string;
}

/**
 * `bytes`: for a ZIP package, what its parts may inflate to in all (the
 * memory goes to the XML read, not to pictures left packed); for any other
 * file, its own size. `advice`: what to do with a larger document.
 */
export interface ReadLimit {
  bytes: number;
  advice: string;
}

export interface FormatDescriptor<Name extends string = string> {
  name: Name;
  /** The folder under formats/ that holds it: its reader is `readers[name]` of formats/<family>/reader.ts (engine/readers.ts). */
  family: string;
  /**
   * Filename extensions that name the format besides its name and its
   * signature's names (jpg for JPEG): what a job is counted as in the
   * metrics when it ends before its bytes were read (registry.ts formatNamed).
   * Detection never reads them.
   */
  extensions?: string[];
  mime_type: string;
  unit: PageUnit;
  signature: Signature;
  /**
   * The pages to reserve at submission: exact where the unit is structural
   * (PDF pages, slides, sheets, text), an estimate for documents that flow,
   * settled when the job finishes.
   */
  countPages(doc: CountSource): number;
  limit?: UnitLimit;
  /**
   * What one extraction of the format may read, so a document too large for
   * the extraction worker's memory is refused before it is parsed, not by an
   * out-of-memory crash (limits.ts checkReadLimit). Set from `npm run
   * bench:memory`; left out where the upload limit holds (formats read in
   * byte-range chunks; images, whose cost OCR limits by pixels).
   */
  readLimit?: ReadLimit;
  split?: SplitCapability;
  /**
   * How GET /v1/jobs/{id}/pages/{n} shows the document's pages: `render`, each
   * page drawn by the engine's renderer (PDFium); `picture`, the document is
   * its one page's picture, served as it was submitted.
   */
  view?: 'render' | 'picture';
  /**
   * For a format rendered that is not a PDF: page `page` (from 1) as a one-page PDF for the renderer, built when
   * called, with the document's page count (pdf null for a page it does not have or cannot show so; the PDF null
   * where its data cannot be decoded); null for a document that cannot be read.
   */
  pagePdf?(bytes: Uint8Array, page: number): { pdf: (() => Uint8Array | null) | null; pages: number } | null;
}
