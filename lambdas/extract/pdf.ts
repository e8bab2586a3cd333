// PDF: the text layer and the document info, with pdf.js (loaded on the
// first PDF only, so text-only callers never pay for it).

import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { normaliseRows, tableMarkdown } from './blocks.ts';
import { findTables } from './pdf-tables.ts';
import { canvasAvailable, loadPdfJs, pdfjsDataOptions, type PdfJs } from './pdfjs.ts';
import { ExtractionError, type FormatOutput, type Table } from './types.ts';

/** Larger PDFs are refused before any text is extracted. */
export const MAX_PDF_PAGES = 5000;

export interface PdfOptions {
  /** 1-based page numbers to read; null for all. */
  pages?: number[] | null;
  /** "auto": OCR pages that have images but no text layer; "always": every page; "never": none. */
  ocr?: 'auto' | 'always' | 'never';
}

/** A page with fewer visible characters than this has no real text layer (a scan, perhaps with a page number). */
const MIN_TEXT_LAYER_CHARS = 10;

/** Pixels a page is rendered at for OCR: about 200 dpi for A4, less for larger pages. */
const OCR_RENDER_PIXELS = 8_000_000;

export async function extractPdf(bytes: Uint8Array, opts: PdfOptions = {}): Promise<FormatOutput> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: bytes,
    isEvalSupported: false, // CVE-2024-4367: no font code compiled from the document
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    enableXfa: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: 0,
    ...pdfjsDataOptions(),
  });
  try {
    const doc = await task.promise.catch((err: unknown) => {
      throw openError(err);
    });
    if (doc.numPages > MAX_PDF_PAGES) {
      throw new ExtractionError(
        'too_many_pages',
        `The PDF has ${doc.numPages.toLocaleString('en-US')} pages; the limit is ${MAX_PDF_PAGES.toLocaleString('en-US')}.`,
      );
    }
    const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
    const pages: string[] = [];
    let unreadable = 0;
    let firstError = '';
    const wanted = opts.pages ? opts.pages.filter((n) => n <= doc.numPages) : Array.from({ length: doc.numPages }, (_, i) => i + 1);
    const ocrMode = opts.ocr ?? 'auto';
    const ocrPages: number[] = [];
    const tables: Table[] = [];
    for (const n of wanted) {
      try {
        const page = await doc.getPage(n);
        const { items } = await page.getTextContent();
        let text = pageText(items);
        for (const rows of findTables(items)) {
          const clean = normaliseRows(rows);
          if (clean.length > 0) tables.push({ page: n, rows: clean, markdown: tableMarkdown(clean) });
        }
        if (ocrMode === 'always' || (ocrMode === 'auto' && text.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARS && (await hasImages(pdfjs, page)))) {
          const read = await ocrPage(doc, page);
          if (read !== null) {
            text = read;
            ocrPages.push(n);
          }
        }
        pages.push(text);
        page.cleanup();
      } catch (err) {
        // A damaged page costs its own text, not the document's.
        unreadable++;
        firstError ||= messageOf(err);
        pages.push('');
      }
    }
    if (unreadable > 0 && unreadable === wanted.length) throw new ExtractionError('corrupt_file', `The PDF could not be read: ${firstError}`);
    return {
      pages,
      pageSeparator: '\n\n',
      tables,
      ...(opts.pages ? { pagesSelected: { total: doc.numPages, kept: wanted } } : {}),
      metadata: {
        title: infoString(info.Title),
        author: infoString(info.Author),
        subject: infoString(info.Subject),
        keywords: infoString(info.Keywords),
        creator: infoString(info.Creator),
        producer: infoString(info.Producer),
        created_at: parsePdfDate(info.CreationDate),
        modified_at: parsePdfDate(info.ModDate),
        ocr_pages: ocrPages,
      },
    };
  } finally {
    await task.destroy();
  }
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

async function hasImages(pdfjs: PdfJs, page: PdfPage): Promise<boolean> {
  const { fnArray } = await page.getOperatorList();
  const { paintImageXObject, paintInlineImageXObject, paintImageMaskXObject, paintImageXObjectRepeat } = pdfjs.OPS;
  return fnArray.some((op) => op === paintImageXObject || op === paintInlineImageXObject || op === paintImageMaskXObject || op === paintImageXObjectRepeat);
}

/**
 * Renders the page and reads it by OCR. Rendering needs the native
 * @napi-rs/canvas package; where it is not installed (a single-file bundle),
 * the page keeps its (empty) text layer and is not listed in ocr_pages.
 */
async function ocrPage(doc: PdfDocument, page: PdfPage): Promise<string | null> {
  if (!canvasAvailable()) return null;
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(200 / 72, Math.sqrt(OCR_RENDER_PIXELS / Math.max(1, base.width * base.height)));
  const viewport = page.getViewport({ scale });
  const factory = (doc as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
  const target = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  try {
    await page.render({ canvasContext: target.context as never, canvas: target.canvas as never, viewport }).promise;
    const png = (target.canvas as unknown as { toBuffer(mime: string): Buffer }).toBuffer('image/png');
    const { ocrImage } = await import('./ocr.ts');
    return await ocrImage(png);
  } finally {
    factory.destroy(target);
  }
}

interface CanvasFactory {
  create(width: number, height: number): { canvas: unknown; context: unknown };
  destroy(target: { canvas: unknown; context: unknown }): void;
}

function openError(err: unknown): ExtractionError {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'PasswordException') {
    return new ExtractionError('encrypted_file', 'The PDF is password-protected; remove the password and resubmit.');
  }
  return new ExtractionError('corrupt_file', `The PDF could not be read: ${messageOf(err)}`);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Items in content-stream order; a new line on pdf.js's end-of-line mark or when the baseline moves. */
export function pageText(items: ReadonlyArray<TextItem | object>): string {
  let out = '';
  let lastY: number | null = null;
  let atLineStart = true;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform[5] as number;
    if (!atLineStart && lastY !== null && Math.abs(y - lastY) > Math.max(1, item.height / 2)) out += '\n';
    out += item.str;
    atLineStart = false;
    if (item.str !== '' || item.hasEOL) lastY = y;
    if (item.hasEOL) {
      out += '\n';
      atLineStart = true;
    }
  }
  return out.replace(/[ \t]+$/gm, '').trimEnd();
}

function infoString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // Some producers pad with NULs or spaces.
  const s = value.replace(/\0/g, '').trim();
  return s === '' ? null : s;
}

const PDF_DATE = /^\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?/;

/** PDF date (D:YYYYMMDDHHmmSSOHH'mm', trailing parts optional) to ISO 8601 in UTC. */
export function parsePdfDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = PDF_DATE.exec(value);
  if (!m) return null;
  const [year, month = 1, day = 1, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((p) => (p === undefined ? undefined : Number(p)));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const sign = m[7] === '+' ? 1 : m[7] === '-' ? -1 : 0;
  const offsetMinutes = sign * (Number(m[8] ?? 0) * 60 + Number(m[9] ?? 0));
  const ms = Date.UTC(year!, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const date = new Date(ms);
  return Number.isNaN(ms) ? null : date.toISOString().replace('.000Z', 'Z');
}
