// PDF: the text layer, the document info, tables and OCR of scanned pages,
// with PDFium. pdf.js did the same at a quarter of pdftotext's speed; PDFium
// parses in compiled code and is 2.4x faster on the same pages (see the
// README's benchmark section).

import { type Repaired, repairsOf } from './repair.ts';
import { checkUnitLimit, PDF_PAGE_LIMIT } from '../../engine/limits.ts';
import { renderPdfPages, type PageLayout } from './structure.ts';
import { pageDrawing, type Box } from './rulings.ts';
import { barCharts, drawingsOf, framedDrawings } from './charts.ts';
import { withDrawnBullets } from './drawn-bullets.ts';
import { imageRulings, withoutRuleGlyphs, type GrayImage } from './image-rulings.ts';
import { annotationWords, placeAmong } from './annotations.ts';
import { appearanceWords } from './appearances.ts';
import { readOutline } from './outline.ts';
import { pageTags } from './tags.ts';
import { illegible } from './legibility.ts';
import { pageWords } from './words.ts';
import { readingFrame, shownBox, shownFrame, shownRect, shownSize, shownWords, type ShownFrame } from './page-box.ts';
import { MARK_ALPHABET, numberMarks } from './ocr-marks.ts';
import { ocrWords } from './ocr-words.ts';
import { layoutWords, round2 } from './page-layout.ts';
import { copyIn, heapBytes, loadPdfium, PAGE_OBJECT, PDFIUM_ERROR, withBuffer, type Pdfium } from './pdfium.ts';
import { encodeGrayPng } from '../../containers/png.ts';
import { helpOver, helpReadPages, readPagesShared, type HelpTask, type PageHelpers } from '../../engine/shared-pages.ts';
import { ExtractionError, type BBox, type FormatOutput, type PageSize, type Progress, type Table } from '../../engine/types.ts';

/**
 * The engine's WebAssembly memory may grow to this before the next page is
 * refused. WebAssembly memory lives outside the V8 heap, so the worker's heap
 * cap does not see it; this does, between pages.
 */
export const MAX_PDF_ENGINE_BYTES = 1536 * 1024 * 1024;

export interface PdfOptions {
  /** 1-based page numbers to read; null for all. */
  pages?: number[] | null;
  /** "auto": OCR pages that have images but no text layer, or whose text layer is unreadable; "always": every page; "never": none. */
  ocr?: 'auto' | 'always' | 'never';
  /** "markdown": each table the page's text holds in one piece is written in its place as a Markdown table. */
  output?: 'text' | 'markdown';
  /** Idle workers that may read some of a long document's pages meanwhile (engine/shared-pages.ts). */
  helpers?: PageHelpers;
  /** Told how many of the pages to read are read, as they are. */
  progress?: Progress;
}

type OcrMode = NonNullable<PdfOptions['ocr']>;

/** A page with fewer visible characters than this has no real text layer (a scan, perhaps with a page number). */
const MIN_TEXT_LAYER_CHARS = 10;

/** Pixels a page is rendered at for OCR: about 200 dpi for A4, less for larger pages. */
const OCR_RENDER_PIXELS = 8_000_000;

const INFO_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Creator', 'Producer', 'CreationDate', 'ModDate'] as const;

export async function extractPdf(bytes: Uint8Array, opts: PdfOptions = {}): Promise<FormatOutput> {
  const m = await loadPdfium();
  return withDocument(m, bytes, async (doc, cutAt) =>
    withForm(m, doc, async (form) => {
      const total = m.FPDF_GetPageCount(doc);
      checkUnitLimit(PDF_PAGE_LIMIT, total);
      const info = Object.fromEntries(INFO_KEYS.map((key) => [key, metaText(m, doc, key)]));
      // Only a tagged document has a structure tree worth reading page by page.
      const tagged = m.FPDFCatalog_IsTagged(doc);
      const wanted = opts.pages ? opts.pages.filter((n) => n <= total) : Array.from({ length: total }, (_, i) => i + 1);
      const ocrMode = opts.ocr ?? 'auto';
      const read = (n: number) => readPage(m, doc, n, ocrMode, tagged, form);
      const reads = await readPagesShared(wanted, read, opts.helpers && { helpers: opts.helpers, bytes, ocr: ocrMode }, opts.progress);
      const { layouts, tables, pageSizes, ocrPages, unreadable } = assemblePages(reads, wanted);
      if (unreadable > 0 && unreadable === wanted.length) throw new ExtractionError('corrupt_file', 'The PDF could not be read: its pages are damaged.');
      // Read after the pages: PDFium then knows each page's index, which a bookmark's destination is looked up in (before, a walk of the page tree per bookmark).
      const outline = readOutline(m, doc);
      wanted.forEach((n, i) => (layouts[i]!.outline = outline.get(n - 1)));
      const { pages, elements } = renderPdfPages(layouts, wanted, opts.output ?? 'text');
      // A page read in its own space, its text set level there, is boxed as it is shown; and every box lies on the page.
      for (const e of elements) {
        const layout = e.page === undefined ? undefined : layouts[e.page];
        if (e.bbox && layout) e.bbox = shownBox(e.bbox, layout);
      }
      return {
        pages,
        pageSeparator: '\n\n',
        tables,
        elements,
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
          page_sizes: pageSizes,
          ...(cutAt === null ? {} : { failed_sections: [{ name: 'end of file', error: cutShort(cutAt, bytes.byteLength) }] }),
        },
      };
    }),
  );
}

/** One page as read: its layout, the tables found on it (their indexes counted from 0 on the page), its size, whether it was OCR'd; size null for a page PDFium cannot load. */
interface PageRead {
  layout: PageLayout;
  tables: Table[];
  size: PageSize | null;
  ocr: boolean;
}

async function readPage(m: Pdfium, doc: number, n: number, ocrMode: OcrMode, tagged: boolean, form: number): Promise<PageRead> {
  if (heapBytes(m) > MAX_PDF_ENGINE_BYTES) {
    throw new ExtractionError('out_of_memory', `The PDF needs more than ${MAX_PDF_ENGINE_BYTES / 1024 ** 2} MB to parse; split it and resubmit the parts.`);
  }
  const tables: Table[] = [];
  const page = m.FPDF_LoadPage(doc, n - 1);
  // A damaged page costs its own text, not the document's.
  if (!page) return { layout: { width: 0, height: 0, blocks: [], tables: [], figures: [] }, tables, size: null, ocr: false };
  // The form-fill environment reads a checkbox's state only for a page it was told is loaded.
  if (form) m.FORM_OnAfterLoadPage(page, form);
  try {
    // OCR on every page reads the picture, not the text layer beside it.
    const layout = ocrMode === 'always' ? pageFrame(m, page) : readLayout(m, doc, page, n, tables, tagged, form, ocrMode === 'auto');
    const shown = shownSize(layout);
    const size = { page: n, width: round2(shown.width), height: round2(shown.height) };
    const chars = layout.blocks.reduce((sum, b) => sum + b.lines.reduce((k, l) => k + l.words.reduce((w, word) => w + word.text.length, 0), 0), 0);
    const scanned = chars < MIN_TEXT_LAYER_CHARS && layout.tables.length === 0 && hasImages(m, page);
    if (!(ocrMode === 'always' || (ocrMode === 'auto' && (scanned || layout.illegible === true)))) {
      return { layout, tables, size, ocr: false };
    }
    const { ocrImage, ocrSnippets } = await import('../../engine/ocr.ts');
    // The picture is the page as shown: its words are read in that frame.
    // (Charts found in a page's own space, when it was read there, stand elsewhere on it.)
    if (layout.turn) layout.drawings = layout.framed = [];
    Object.assign(layout, shown);
    delete layout.turn;
    // An unreadable text layer's tables and structure tags give way to the picture's reading.
    tables.length = 0;
    delete layout.tagged;
    const scale = renderScale(m, page);
    // The picture outlives the engine's bitmap: its lines rule the scan's tables, its strokes tell bold lines.
    let picture: GrayImage | undefined;
    const read = await ocrImage(renderPage(m, page, (pixels, w, h, stride) => (picture = { pixels: pixels.slice(0, stride * h), width: w, height: h, stride })));
    const drawn = picture ? imageRulings(picture, scale, layout.height) : [];
    // A numbered list's numbers the page's reading lost, read again from the picture, in place of their garbled
    // reading; a page whose snippets cannot be read keeps the page's reading, as before they were looked for.
    const numbers = picture ? await numberMarks(read.lines, picture, (snippets) => ocrSnippets(snippets, MARK_ALPHABET)).catch(() => undefined) : undefined;
    const lines = numbers ? read.lines.filter((l) => !numbers.garbled.has(l)) : read.lines;
    // The scan's words go through the layout analysis a text layer's do; the scan is the page, not a figure on it.
    layoutWords(n, tables, layout, withoutRuleGlyphs(ocrWords(lines, scale, layout.height, picture, numbers?.marks), drawn), drawn);
    layout.figures = [];
    return { layout, tables, size, ocr: true };
  } finally {
    if (form) m.FORM_OnBeforeClosePage(page, form);
    m.FPDF_ClosePage(page);
  }
}

/** The pages read, in order, as the document's: its tables numbered through it, its page sizes, its OCR'd pages. */
function assemblePages(reads: PageRead[], wanted: number[]) {
  const layouts: PageLayout[] = [];
  const tables: Table[] = [];
  const pageSizes: PageSize[] = [];
  const ocrPages: number[] = [];
  let unreadable = 0;
  reads.forEach((read, i) => {
    for (const t of read.layout.tables) t.index += tables.length;
    tables.push(...read.tables);
    layouts.push(read.layout);
    if (read.size) pageSizes.push(read.size);
    else unreadable++;
    if (read.ocr) ocrPages.push(wanted[i]!);
  });
  return { layouts, tables, pageSizes, ocrPages, unreadable };
}

/**
 * A helper's part in reading a long PDF (engine/shared-pages.ts): the pages it
 * takes, read as the lead reads its own, sent to the lead.
 */
export async function helpReadPdf(task: HelpTask): Promise<void> {
  if (helpOver(task.claims)) return;
  const m = await loadPdfium();
  await withDocument(m, task.bytes, (doc) =>
    withForm(m, doc, (form) => {
      const tagged = m.FPDFCatalog_IsTagged(doc);
      return helpReadPages(task, (n) => readPage(m, doc, n, task.ocr ?? 'auto', tagged, form));
    }),
  );
}

/**
 * `use` with the document's form-fill handle, which reads the values its form
 * fields hold (annotations.ts); 0 for a document without a form.
 */
async function withForm<T>(m: Pdfium, doc: number, use: (form: number) => Promise<T>): Promise<T> {
  if (m.FPDF_GetFormType(doc) <= 0) return use(0);
  const info = m.PDFiumExt_OpenFormFillInfo();
  const form = info ? m.PDFiumExt_InitFormFillEnvironment(doc, info) : 0;
  try {
    return await use(form);
  } finally {
    if (form) m.PDFiumExt_ExitFormFillEnvironment(form);
    if (info) m.PDFiumExt_CloseFormFillInfo(info);
  }
}

/**
 * Opens `bytes` as a document for `use`, and closes it and frees its memory
 * after, whatever happens. `use` is told where a file cut short was read only
 * up to (repair.ts); null for a whole file.
 */
export async function withDocument<T>(m: Pdfium, bytes: Uint8Array, use: (doc: number, cutAt: number | null) => Promise<T>): Promise<T> {
  let data = copyIn(m, bytes);
  try {
    let doc = m.FPDF_LoadMemDocument(data, bytes.byteLength, '');
    const code = doc ? 0 : m.FPDF_GetLastError();
    let repaired: Repaired | null = null;
    // A file cut short has lost its trailer: with one appended that names its catalog (or a page tree of its
    // page objects, where the catalog was lost or opens no page), PDFium reads what is left.
    for (const attempt of code === PDFIUM_ERROR.format ? repairsOf(bytes) : []) {
      m.pdfium.wasmExports.free(data);
      data = copyIn(m, attempt.bytes);
      doc = m.FPDF_LoadMemDocument(data, attempt.bytes.byteLength, '');
      if (doc && m.FPDF_GetPageCount(doc) > 0) {
        repaired = attempt;
        break;
      }
      if (doc) m.FPDF_CloseDocument(doc);
      doc = 0;
    }
    if (!doc) throw openError(code);
    try {
      return await use(doc, repaired ? repaired.kept : null);
    } finally {
      m.FPDF_CloseDocument(doc);
    }
  } finally {
    m.pdfium.wasmExports.free(data);
  }
}

/** What a PDF read from its objects before a cut lost (metadata.failed_sections: the job is then a partial success). */
function cutShort(kept: number, size: number): string {
  return (
    `The PDF is cut short or damaged (its cross-reference table and trailer are missing): it was read from its objects up to byte ${kept} of ${size}, and whatever stood after them is lost ` +
    '(pages, or the fonts and pictures of pages before: text whose font was lost may read as the wrong letters). Upload the complete file to read all of it.'
  );
}

function openError(code: number): ExtractionError {
  if (code === PDFIUM_ERROR.password || code === PDFIUM_ERROR.security) {
    return new ExtractionError('encrypted_file', 'The PDF is password-protected; remove the password and resubmit.');
  }
  const why = code === PDFIUM_ERROR.format ? 'it is not a PDF or is damaged beyond repair' : code === PDFIUM_ERROR.file ? 'it is truncated or empty' : `PDFium error ${code}`;
  return new ExtractionError('corrupt_file', `The PDF could not be read: ${why}.`);
}

/** The page's size in the frame it is read in and its figures, before any text is read. */
function pageFrame(m: Pdfium, page: number, frame = shownFrame(m, page)): PageLayout {
  return { width: frame.width, height: frame.height, ...(frame.after ? { turn: frame.after } : {}), blocks: [], tables: [], figures: figureBoxes(m, page, frame) };
}


/**
 * The page's words read into lines and blocks, with the tables their layout
 * shows (added to `tables`, numbered `n`) and the boxes of its images;
 * `judgeLegibility`: mark the layout `illegible` where its text layer is unreadable.
 */
function readLayout(m: Pdfium, doc: number, page: number, n: number, tables: Table[], tagged: boolean, form: number, judgeLegibility: boolean): PageLayout {
  const shown = shownFrame(m, page);
  const textPage = m.FPDFText_LoadPage(page);
  if (!textPage) return pageFrame(m, page, shown);
  try {
    const count = m.FPDFText_CountChars(textPage);
    if (count <= 0) return pageFrame(m, page, shown);
    const own = pageWords(m, textPage, count, tagged);
    // Only OCR "auto" acts on an unreadable layer: the check is not paid for otherwise.
    const unreadable = judgeLegibility && illegible(m, textPage, count);
    const frame = readingFrame(shown, own);
    const layout = pageFrame(m, page, frame);
    const drawing = pageDrawing(m, page, frame.matrix);
    // A chart drawn over a picture of itself is one figure.
    const figuresOf = (drawings: Box[]) =>
      drawings.map((d) => figureBox(d.x0, d.y0, d.x1, d.y1, layout.width, layout.height)).filter((c) => !layout.figures.some((f) => overlaps(c, f)));
    layout.drawings = figuresOf([...drawingsOf(drawing.shapes, layout.width * layout.height), ...barCharts(drawing.frames)]);
    layout.framed = figuresOf(framedDrawings(drawing.frames, drawing.shapes, layout.width * layout.height));
    // Filled-in form fields, free-text notes and the text of stamps' and signatures' appearances are not in the
    // content stream: their words go where their boxes stand. Words, marks and annotations alike in the frame the
    // page is read in.
    const annotated = annotationWords(m, page, count, form);
    const appearing = appearanceWords(m, doc, n - 1, page, form, count + annotated.length);
    const words = placeAmong(withDrawnBullets(shownWords(own, frame), drawing.marks), shownWords([...annotated, ...appearing], frame));
    const tags = tagged ? pageTags(m, page) : null;
    if (tags) for (const w of words) w.tag = tags.get(w.mcid);
    layout.tagged = tags !== null;
    layoutWords(n, tables, layout, words, drawing.rulings ?? []);
    if (unreadable) layout.illegible = true;
    return layout;
  } finally {
    m.FPDFText_ClosePage(textPage);
  }
}

interface ObjectExports {
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetBounds(object: number, left: number, bottom: number, right: number, top: number): number;
}

/** Images large enough to be figures (not rules, bullets or logos in a corner), in page space with the origin top-left. */
function figureBoxes(m: Pdfium, page: number, frame: ShownFrame): BBox[] {
  const { width, height } = frame;
  const boxes: BBox[] = [];
  // Raw exports: a page of a chart can hold thousands of objects, and the wrapped calls convert every argument.
  const x = m.pdfium.wasmExports as unknown as ObjectExports;
  const count = x.FPDFPage_CountObjects(page);
  withBuffer(m, 16, (out) => {
    const at = out >> 2;
    for (let i = 0; i < count; i++) {
      const obj = x.FPDFPage_GetObject(page, i);
      if (x.FPDFPageObj_GetType(obj) !== PAGE_OBJECT.image) continue;
      if (!x.FPDFPageObj_GetBounds(obj, out, out + 4, out + 8, out + 12)) continue;
      const f32 = m.pdfium.HEAPF32;
      const shown = shownRect(frame, f32[at]!, f32[at + 1]!, f32[at + 2]!, f32[at + 3]!);
      const [left, bottom, right, top] = [shown.x0, shown.bottom, shown.x1, shown.top];
      const [w, h] = [right - left, top - bottom];
      // A page-sized image is a scan or a background, not a figure in the text.
      if (w < 36 || h < 36 || w * h > width * height * 0.9) continue;
      boxes.push(figureBox(left, bottom, right, top, width, height));
    }
  });
  return boxes;
}

/** A box in page space (y up) as a figure's: top-left origin, inside the page. */
function figureBox(left: number, bottom: number, right: number, top: number, width: number, height: number): BBox {
  return [round2(Math.max(0, left)), round2(Math.max(0, height - top)), round2(Math.min(width, right)), round2(Math.min(height, height - bottom))];
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

/** Pixels per point OCR renders the page at: 200 dpi, less for pages too large for OCR_RENDER_PIXELS. */
export function renderScale(m: Pdfium, page: number): number {
  return Math.min(200 / 72, Math.sqrt(OCR_RENDER_PIXELS / Math.max(1, m.FPDF_GetPageWidthF(page) * m.FPDF_GetPageHeightF(page))));
}

/** The page as a grayscale PNG at about 200 dpi (less for very large pages), for OCR; `read` sees its pixels first (one byte each, rows `stride` apart). */
export function renderPage(m: Pdfium, page: number, read?: (pixels: Uint8Array, width: number, height: number, stride: number) => void): Uint8Array {
  const widthPt = m.FPDF_GetPageWidthF(page);
  const heightPt = m.FPDF_GetPageHeightF(page);
  const scale = renderScale(m, page);
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
    const pixels = m.pdfium.HEAPU8.subarray(start, start + stride * height);
    read?.(pixels, width, height, stride);
    return encodeGrayPng(pixels, width, height, stride, scale * 72);
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

/** Whether two boxes share more than half of the smaller one's area. */
function overlaps(a: BBox, b: BBox): boolean {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const area = (box: BBox) => (box[2] - box[0]) * (box[3] - box[1]);
  return w > 0 && h > 0 && w * h > 0.5 * Math.min(area(a), area(b));
}
