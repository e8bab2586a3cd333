// The extraction engine's entry: detect the format, hand the bytes to that
// format's module, then select pages and build content, chunks and metadata
// the same way for all. Format modules are imported on demand, so a worker
// loads PDFium only for PDFs and the HTML or e-mail parsers only for those.

import { joinPages, makeChunks, toElements, toUtf16 } from './chunks.ts';
import { placeBlocks } from './elements.ts';
import { detect, MIME_TYPES, type Format } from './detect.ts';
import { detectLanguage } from './language.ts';
import { extractMarkdown, extractPlain } from '../formats/text/plain.ts';
import { codePointLength, wordCount } from './text-stats.ts';
import {
  DEFAULT_CONFIG,
  ExtractionError,
  type ExtractInput,
  type ExtractionConfig,
  type ExtractionResult,
  type FormatOutput,
  type Table,
} from './types.ts';
import type { RowSlice } from '../formats/text/csv.ts';
import { ZIP_LIMITS, type InflateBudget } from '../containers/zip.ts';

export { countPages } from './page-count.ts';
export { SUPPORTED_FORMATS } from './detect.ts';
export { ExtractionError } from './types.ts';
export type { Chunk, DocumentMetadata, Element, ExtractInput, ExtractionConfig, ExtractionResult, FailedSection, Table } from './types.ts';

/** Archives and e-mails inside archives and e-mails are followed this deep. */
const MAX_NESTING = 3;

/** What a format module gets besides the bytes. */
export interface FormatContext {
  config: ExtractionConfig;
  /** Inflation budget shared by an archive and everything inside it. */
  budget: InflateBudget;
  depth: number;
  /** The rows of a chunk of a large CSV or TSV file, when `bytes` are those rows only. */
  rows?: RowSlice;
  /** Extracts an embedded document (an archive member, an attachment). */
  sub(input: ExtractInput): Promise<ExtractionResult>;
}

export async function extract(input: ExtractInput): Promise<ExtractionResult> {
  return extractWithin(input, { remaining: ZIP_LIMITS.maxTotalBytes }, 0);
}

async function extractWithin(input: ExtractInput, budget: InflateBudget, depth: number): Promise<ExtractionResult> {
  const config = input.config ?? DEFAULT_CONFIG;
  // A chunk's rows are not a file to detect: any row may start with a signature of another format.
  const { format, mime_type } = input.rows && depth === 0 ? { format: input.rows.layout.format, mime_type: MIME_TYPES[input.rows.layout.format] } : detect(input);
  const ctx: FormatContext = {
    config,
    budget,
    depth,
    ...(input.rows && depth === 0 ? { rows: input.rows } : {}),
    sub: (inner) => {
      if (depth + 1 > MAX_NESTING) {
        return Promise.reject(new ExtractionError('refused_file', `Refused: documents are nested more than ${MAX_NESTING} levels deep.`));
      }
      // Embedded documents are read whole (the page selection applies to the outer document)
      // and chunked by page, which is how the outer document recovers their pages.
      return extractWithin({ ...inner, config: { ...config, pages: null, chunking: { ...config.chunking, strategy: 'page' } } }, budget, depth + 1);
    },
  };
  const out = await byFormat[format](input.bytes, ctx);
  return assemble(format, mime_type, out, config);
}

function assemble(format: Format, mime_type: string, out: FormatOutput, config: ExtractionConfig): ExtractionResult {
  const placed = placeBlocks(out, config.keep_page_furniture);
  const total = out.pagesSelected?.total ?? placed.pages.length;
  const allNumbers = out.pagesSelected?.kept ?? placed.pages.map((_, i) => i + 1);
  // Indexes into placed.pages of the pages kept.
  let kept = placed.pages.map((_, i) => i);
  let tables: Table[] = out.tables ?? [];
  let sections = placed.sections;
  let pageSizes = out.metadata.page_sizes;
  if (config.pages && !out.pagesSelected) {
    const wanted = new Set(config.pages);
    kept = kept.filter((i) => wanted.has(allNumbers[i]!));
    tables = tables.filter((t) => t.page === undefined || wanted.has(t.page));
    pageSizes = pageSizes?.filter((s) => wanted.has(s.page));
    // Section offsets refer to the whole document's content.
    sections = undefined;
  }
  const numbers = kept.map((i) => allNumbers[i]!);
  const joined = joinPages(
    kept.map((i) => placed.pages[i]!),
    out.pageSeparator,
    numbers,
  );
  const { content } = joined;
  const elements = toElements(placed.drafts, kept, joined, out.pageSeparator, out.tables ?? [], tables);
  const headingStarts = elements.filter((e) => e.type === 'heading' || e.type === 'title').map((e) => e.char_start);
  const chunks = makeChunks(joined, config.chunking, headingStarts.length > 0 ? toUtf16(content, headingStarts) : sections, elements);
  const language = out.metadata.language ?? detectLanguage(content);
  return {
    content,
    metadata: {
      format,
      mime_type,
      pages: numbers.length,
      pages_total: total,
      page_unit: out.unit ?? 'page',
      title: null,
      author: null,
      subject: null,
      keywords: null,
      creator: null,
      producer: null,
      created_at: null,
      modified_at: null,
      encoding: null,
      ocr_pages: [],
      failed_sections: [],
      ...out.metadata,
      ...(pageSizes ? { page_sizes: pageSizes } : {}),
      language,
      char_count: codePointLength(content),
      word_count: wordCount(content),
    },
    tables,
    chunks,
    ...(config.elements ? { elements } : {}),
  };
}

type FormatModule = (bytes: Uint8Array, ctx: FormatContext) => FormatOutput | Promise<FormatOutput>;

const mode = (ctx: FormatContext) => ctx.config.output;

const byFormat: Record<Format, FormatModule> = {
  pdf: async (bytes, ctx) => (await import('../formats/pdf/extract.ts')).extractPdf(bytes, { pages: ctx.config.pages, ocr: ctx.config.ocr, output: mode(ctx) }),
  docx: async (bytes, ctx) => (await import('../formats/ooxml/docx.ts')).extractDocx(bytes, mode(ctx), ctx.budget, ctx.config.comments),
  xlsx: async (bytes, ctx) => (await import('../formats/ooxml/xlsx.ts')).extractXlsx(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  pptx: async (bytes, ctx) => (await import('../formats/ooxml/pptx.ts')).extractPptx(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  odt: async (bytes, ctx) => (await import('../formats/odf/odf.ts')).extractOdt(bytes, mode(ctx), ctx.budget, ctx.config.comments),
  ods: async (bytes, ctx) => (await import('../formats/odf/odf.ts')).extractOds(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  epub: async (bytes, ctx) => (await import('../formats/web/epub.ts')).extractEpub(bytes, mode(ctx), ctx.budget),
  zip: async (bytes, ctx) => (await import('../formats/archive/archive.ts')).extractArchive(bytes, ctx),
  html: async (bytes, ctx) => (await import('../formats/web/html.ts')).extractHtml(bytes, mode(ctx)),
  csv: async (bytes, ctx) => (await import('../formats/text/csv.ts')).extractDelimited(bytes, ctx, 'csv'),
  tsv: async (bytes, ctx) => (await import('../formats/text/csv.ts')).extractDelimited(bytes, ctx, 'tsv'),
  eml: async (bytes, ctx) => (await import('../formats/mail/eml.ts')).extractEml(bytes, ctx),
  msg: async (bytes, ctx) => (await import('../formats/mail/msg.ts')).extractMsg(bytes, ctx),
  doc: async (bytes, ctx) => (await import('../formats/legacy-office/doc.ts')).extractDoc(bytes, mode(ctx)),
  xls: async (bytes, ctx) => (await import('../formats/legacy-office/xls.ts')).extractXls(bytes, mode(ctx), ctx.config.pages),
  ppt: async (bytes, ctx) => (await import('../formats/legacy-office/ppt.ts')).extractPpt(bytes, mode(ctx), ctx.config.pages),
  rtf: async (bytes, ctx) => (await import('../formats/text/rtf.ts')).extractRtf(bytes, mode(ctx)),
  text: extractPlain,
  markdown: extractMarkdown,
  png: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
  jpeg: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
  tiff: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
};
