// PDF: the text layer, the document info, tables and OCR of scanned pages,
// with PDFium. pdf.js did the same at a quarter of pdftotext's speed; PDFium
// parses in compiled code and is 2.4x faster on the same pages (see the
// README's benchmark section).

import { normaliseRows, tableMarkdown } from './blocks.ts';
import { findRuledTables } from './pdf-ruled-tables.ts';
import { pageRulings } from './pdf-rulings.ts';
import { findTables, type PlacedTable, type TextRun } from './pdf-tables.ts';
import { characterExports, copyIn, heapBytes, loadPdfium, PAGE_OBJECT, PDFIUM_ERROR, withBuffer, type Pdfium } from './pdfium.ts';
import { encodeGrayPng } from './png.ts';
import { ExtractionError, type FormatOutput, type Table } from './types.ts';

/** Larger PDFs are refused before any text is extracted. */
export const MAX_PDF_PAGES = 5000;

/**
 * The engine's WebAssembly memory may grow to this before the next page is
 * refused. WebAssembly memory lives outside the V8 heap, so the worker's heap
 * cap does not see it; this does, between pages.
 */
export const MAX_PDF_ENGINE_BYTES = 1536 * 1024 * 1024;

export interface PdfOptions {
  /** 1-based page numbers to read; null for all. */
  pages?: number[] | null;
  /** "auto": OCR pages that have images but no text layer; "always": every page; "never": none. */
  ocr?: 'auto' | 'always' | 'never';
  /** "markdown": each table the page's text holds in one piece is written in its place as a Markdown table. */
  output?: 'text' | 'markdown';
}

/** A page with fewer visible characters than this has no real text layer (a scan, perhaps with a page number). */
const MIN_TEXT_LAYER_CHARS = 10;

/** Pixels a page is rendered at for OCR: about 200 dpi for A4, less for larger pages. */
const OCR_RENDER_PIXELS = 8_000_000;

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate'] as const;

export async function extractPdf(bytes: Uint8Array, opts: PdfOptions = {}): Promise<FormatOutput> {
  const m = await loadPdfium();
  return withDocument(m, bytes, async (doc) => {
    const total = m.FPDF_GetPageCount(doc);
    if (total > MAX_PDF_PAGES) {
      throw new ExtractionError(
        'too_many_pages',
        `The PDF has ${total.toLocaleString('en-US')} pages; the limit is ${MAX_PDF_PAGES.toLocaleString('en-US')}.`,
      );
    }
    const info = Object.fromEntries(INFO_KEYS.map((key) => [key, metaText(m, doc, key)]));
    const wanted = opts.pages ? opts.pages.filter((n) => n <= total) : Array.from({ length: total }, (_, i) => i + 1);
    const ocrMode = opts.ocr ?? 'auto';
    const pages: string[] = [];
    const ocrPages: number[] = [];
    const tables: Table[] = [];
    let unreadable = 0;
    for (const n of wanted) {
      if (heapBytes(m) > MAX_PDF_ENGINE_BYTES) {
        throw new ExtractionError('out_of_memory', `The PDF needs more than ${MAX_PDF_ENGINE_BYTES / 1024 ** 2} MB to parse; split it and resubmit the parts.`);
      }
      const page = m.FPDF_LoadPage(doc, n - 1);
      if (!page) {
        // A damaged page costs its own text, not the document's.
        unreadable++;
        pages.push('');
        continue;
      }
      try {
        const read = readPage(m, page, opts.output === 'markdown');
        let text = read.text;
        for (const table of read.tables) tables.push({ page: n, ...table });
        if (ocrMode === 'always' || (ocrMode === 'auto' && text.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARS && hasImages(m, page))) {
          const { ocrImage } = await import('./ocr.ts');
          text = await ocrImage(renderPage(m, page));
          ocrPages.push(n);
        }
        pages.push(text);
      } finally {
        m.FPDF_ClosePage(page);
      }
    }
    if (unreadable > 0 && unreadable === wanted.length) throw new ExtractionError('corrupt_file', 'The PDF could not be read: its pages are damaged.');
    return {
      pages,
      pageSeparator: '\n\n',
      tables,
      ...(opts.pages ? { pagesSelected: { total, kept: wanted } } : {}),
      metadata: {
        title: info.Title ?? null,
        author: info.Author ?? null,
        subject: info.Subject ?? null,
        keywords: info.Keywords ?? null,
        creator: info.Creator ?? null,
        producer: info.Producer ?? null,
        created_at: parsePdfDate(info.CreationDate),
        modified_at: parsePdfDate(info.ModDate),
        ocr_pages: ocrPages,
      },
    };
  });
}

/** Opens `bytes` as a document for `use`, and closes it and frees its memory after, whatever happens. */
export async function withDocument<T>(m: Pdfium, bytes: Uint8Array, use: (doc: number) => Promise<T>): Promise<T> {
  const data = copyIn(m, bytes);
  try {
    const doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, '');
    if (!doc) throw openError(m.FPDF_GetLastError());
    try {
      return await use(doc);
    } finally {
      m.FPDF_CloseDocument(doc);
    }
  } finally {
    m.pdfium.wasmExports.free(data);
  }
}

function openError(code: number): ExtractionError {
  if (code === PDFIUM_ERROR.password || code === PDFIUM_ERROR.security) {
    return new ExtractionError('encrypted_file', 'The PDF is password-protected; remove the password and resubmit.');
  }
  const why = code === PDFIUM_ERROR.format ? 'it is not a PDF or is damaged beyond repair' : code === PDFIUM_ERROR.file ? 'it is truncated or empty' : `PDFium error ${code}`;
  return new ExtractionError('corrupt_file', `The PDF could not be read: ${why}.`);
}

type PageTable = Pick<Table, 'rows' | 'markdown'>;

/**
 * The text layer in content-stream order (PDFium marks line ends), and the
 * tables its layout shows; with `markdown`, the tables in the text as well.
 */
function readPage(m: Pdfium, page: number, markdown: boolean): { text: string; tables: PageTable[] } {
  const textPage = m.FPDFText_LoadPage(page);
  if (!textPage) return { text: '', tables: [] };
  try {
    const count = m.FPDFText_CountChars(textPage);
    if (count <= 0) return { text: '', tables: [] };
    const runs = textRuns(m, textPage, count);
    const placed = pageTables(m, page, runs);
    const tables = placed.map(({ rows }) => normaliseRows(rows)).map((rows) => ({ rows, markdown: tableMarkdown(rows) }));
    const slices = markdown ? tableSlices(placed, tables, runs) : [];
    // Text, table, text, ...: a table stands apart from the text around it by one blank line.
    const parts: string[] = [];
    let at = 0;
    for (const slice of slices) {
      parts.push(textRange(m, textPage, at, slice.first), slice.markdown);
      at = slice.last + 1;
    }
    parts.push(textRange(m, textPage, at, count));
    const text = slices.length === 0 ? parts[0]! : parts.map((part) => part.trim()).filter((part) => part !== '').join('\n\n');
    return { text: tidyPageText(text), tables: tables.filter((t) => t.rows.length > 0) };
  } finally {
    m.FPDFText_ClosePage(textPage);
  }
}

/** Characters [from, to) of the page's text. */
function textRange(m: Pdfium, textPage: number, from: number, to: number): string {
  if (to <= from) return '';
  return withBuffer(m, (to - from + 1) * 2, (buf) => {
    m.FPDFText_GetText(textPage, from, to - from, buf);
    return m.pdfium.UTF16ToString(buf);
  });
}

/**
 * Where each table sits in the page's text: the span from its first to its
 * last character, when no word of anything else falls inside it (a table
 * whose words the content stream interleaves with other text stays as text).
 */
function tableSlices(placed: PlacedTable[], tables: PageTable[], runs: readonly TextRun[]): Array<{ first: number; last: number; markdown: string }> {
  const slices: Array<{ first: number; last: number; markdown: string }> = [];
  placed.forEach((table, i) => {
    const own = new Set(table.runs);
    const first = Math.min(...table.runs.map((r) => r.first ?? Infinity));
    const last = Math.max(...table.runs.map((r) => r.last ?? -Infinity));
    if (!Number.isFinite(first) || !Number.isFinite(last) || tables[i]!.rows.length === 0) return;
    if (runs.some((r) => !own.has(r) && r.first !== undefined && r.first <= last && (r.last ?? r.first) >= first)) return;
    slices.push({ first, last, markdown: tables[i]!.markdown });
  });
  slices.sort((a, b) => a.first - b.first);
  return slices.filter((s, i) => i === 0 || s.first > slices[i - 1]!.last);
}

/** Ruled tables first, then tables in the words they leave, top of the page first. */
function pageTables(m: Pdfium, page: number, runs: TextRun[]): PlacedTable[] {
  const ruled = findRuledTables(pageRulings(m, page) ?? [], runs);
  return [...ruled.tables, ...findTables(ruled.rest)].sort((a, b) => b.top - a.top);
}

/** PDFium's line ends are CR LF; U+0002 marks a hyphen it joined; other controls are unmapped glyphs. */
export function tidyPageText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/\u0002/g, '-')
    .replace(/[\u0000\u0001\u0003-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    .replace(/[ \t]+$/gm, '')
    .trimEnd();
}

/**
 * The page's words with their positions: characters in content order, joined
 * while they sit on one baseline with no more than a thin space between them.
 * Whitespace, PDFium's generated characters and control codes end a word.
 */
function textRuns(m: Pdfium, textPage: number, count: number): TextRun[] {
  const x = characterExports(m);
  const runs: TextRun[] = [];
  let run: TextRun | null = null;
  withBuffer(m, 16, (out) => {
    const at = out >> 2;
    for (let i = 0; i < count; i++) {
      const code = x.FPDFText_GetUnicode(textPage, i);
      if (code <= 0x20 || code === 0x7f || code === 0xa0 || code === 0xfffe || x.FPDFText_IsGenerated(textPage, i) === 1) {
        run = null;
        continue;
      }
      // The loose box spans the glyph's advance and the font's ascent to descent, the same
      // for every glyph of a line (the tight box of a "1" or a full stop is a sliver).
      if (!x.FPDFText_GetLooseCharBox(textPage, i, out)) continue;
      const f32 = m.pdfium.HEAPF32;
      const [left, top, right, bottom] = [f32[at]!, f32[at + 1]!, f32[at + 2]!, f32[at + 3]!];
      const size = Math.max(1, top - bottom);
      const char = String.fromCodePoint(code);
      if (run && Math.abs(bottom - run.bottom) < size * 0.3 && left >= run.x0 && left - run.x1 < size * 0.15) {
        run.text += char;
        run.x1 = Math.max(run.x1, right);
        run.last = i;
      } else {
        run = { x0: left, x1: right, bottom, top, text: char, first: i, last: i };
        runs.push(run);
      }
    }
  });
  return runs;
}

/** Whether the page paints an image, directly or inside a form XObject (how scanners often wrap theirs). */
function hasImages(m: Pdfium, page: number): boolean {
  const count = m.FPDFPage_CountObjects(page);
  for (let i = 0; i < count; i++) {
    const type = m.FPDFPageObj_GetType(m.FPDFPage_GetObject(page, i));
    if (type === PAGE_OBJECT.image || type === PAGE_OBJECT.form) return true;
  }
  return false;
}

/** The page as a grayscale PNG at about 200 dpi (less for very large pages), for OCR. */
export function renderPage(m: Pdfium, page: number): Uint8Array {
  const widthPt = m.FPDF_GetPageWidthF(page);
  const heightPt = m.FPDF_GetPageHeightF(page);
  const scale = Math.min(200 / 72, Math.sqrt(OCR_RENDER_PIXELS / Math.max(1, widthPt * heightPt)));
  const width = Math.max(1, Math.ceil(widthPt * scale));
  const height = Math.max(1, Math.ceil(heightPt * scale));
  // Format 1 is 8-bit gray (FPDFBitmap_Gray): what OCR reads, a quarter of the memory of BGRA.
  const bitmap = m.FPDFBitmap_CreateEx(width, height, 1, 0, 0);
  if (!bitmap) throw new ExtractionError('out_of_memory', `A page of ${width} x ${height} pixels could not be rendered for OCR.`);
  try {
    m.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
    // FPDF_ANNOT: stamps and filled-in forms are part of what a reader sees.
    m.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, 0x01);
    const stride = m.FPDFBitmap_GetStride(bitmap);
    const start = m.FPDFBitmap_GetBuffer(bitmap);
    return encodeGrayPng(m.pdfium.HEAPU8.subarray(start, start + stride * height), width, height, stride);
  } finally {
    m.FPDFBitmap_Destroy(bitmap);
  }
}

/** An info dictionary entry, or null when absent or blank. */
function metaText(m: Pdfium, doc: number, key: string): string | null {
  const bytes = m.FPDF_GetMetaText(doc, key, 0, 0);
  // Two bytes is the terminator alone: the key is absent or empty.
  if (bytes <= 2) return null;
  const value = withBuffer(m, bytes, (buf) => {
    m.FPDF_GetMetaText(doc, key, buf, bytes);
    return m.pdfium.UTF16ToString(buf);
  });
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
