// Every format the engine reads, one descriptor each (format.ts), in the
// order detection asks them within each of its steps: the ZIP packages'
// main parts (DOCX, XLSX, PPTX before EPUB's container), the names that
// decide text (Markdown, CSV, TSV before HTML and e-mail), the text
// sniffers (flat ODT, then a mailbox and an e-mail, whose header fields
// come before any HTML body they hold, then HTML, then other XML). A new
// format is a folder under formats/ (its descriptor in index.ts, naming the
// folder as its family, and its reader in reader.ts) and its descriptor's
// line here.

import { gzip, tar, zip } from '../formats/archive/index.ts';
import { png, jpeg, tiff } from '../formats/image/index.ts';
import { latex } from '../formats/latex/index.ts';
import { doc, ppt, xls } from '../formats/legacy-office/index.ts';
import { eml, mbox, msg } from '../formats/mail/index.ts';
import { odp, ods, odt } from '../formats/odf/index.ts';
import { docx, pptx, xlsx } from '../formats/ooxml/index.ts';
import { pdf } from '../formats/pdf/index.ts';
import { csv, markdown, rtf, text, tsv } from '../formats/text/index.ts';
import { epub, html, xml } from '../formats/web/index.ts';
import type { FormatDescriptor, SplitCapability } from './format.ts';
import { hasHeader, hasMagic } from './signatures.ts';

export const FORMATS = [pdf, docx, xlsx, pptx, odt, ods, odp, epub, zip, tar, gzip, markdown, csv, tsv, mbox, eml, html, xml, msg, doc, xls, ppt, rtf, latex, text, png, jpeg, tiff] as const;

export type Format = (typeof FORMATS)[number]['name'];

// Looked up, not indexed at load: a top-level Map would be a side effect that keeps every
// descriptor (and the page counters) in bundles that import this module for nothing.
const find = (format: string): FormatDescriptor<Format> | undefined => FORMATS.find((d) => d.name === format);

export function descriptorOf(format: Format): FormatDescriptor<Format> {
  return find(format)!;
}

/** How a large document of `format` is split, or undefined when it is extracted whole (and for a name that is no format). */
export const splitOf = (format: string): SplitCapability | undefined => find(format)?.split;

/**
 * The format a filename's extension names, or "other" (so a client's
 * filename cannot mint new values): the metric dimension of a job that
 * ends before its bytes are read (core/metrics.ts). Detection reads the
 * bytes; this never decides how a document is read.
 */
export function formatNamed(filename: string): string {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return 'other';
  const ext = filename.slice(dot + 1).toLowerCase();
  return FORMATS.find((d: FormatDescriptor) => d.name === ext || d.extensions?.includes(ext) || d.signature.names?.extensions.includes(ext))?.name ?? 'other';
}

/**
 * How the page view shows a document of these bytes, or null when it has no
 * pages to show. Told from its leading bytes only, as a PDF reader or an
 * image viewer would: no detection of anything else.
 */
export function pageViewOf(bytes: Uint8Array): { view: 'render' | 'picture'; mime_type: string } | null {
  const shown = shownAs(bytes);
  if (!shown?.view) return null;
  // A document the renderer is given page by page as PDFs, where this one can be (a TIFF's pages stored as PDF holds them).
  if (shown.pagePdf && !shown.pagePdf(bytes, 1)?.pdf) return { view: 'picture', mime_type: shown.mime_type };
  return { view: shown.view, mime_type: shown.mime_type };
}

const shownAs = (bytes: Uint8Array) =>
  FORMATS.find(({ view, signature }) => view && ((signature.header && hasHeader(bytes, signature.header)) || hasMagic(bytes, signature)));

/**
 * What the renderer draws for page `page` of these bytes: the PDF itself, or the one-page PDF its format makes of
 * that page (`page` then 1, and `pages` the document's count); pdf null for a page the document does not have.
 */
export function renderedPage(bytes: Uint8Array, page: number): { pdf: Uint8Array | null; page: number; pages?: number } {
  const format = shownAs(bytes);
  if (!format?.pagePdf) return { pdf: bytes, page };
  const made = format.pagePdf(bytes, page);
  return { pdf: made?.pdf?.() ?? null, page: 1, pages: made?.pages ?? 0 };
}
