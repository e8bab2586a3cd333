// The extraction engine's dispatch: detect the format, hand the bytes to that
// format's reader (readers.ts, imported on demand), then select pages and
// build content, chunks and metadata the same way for all.

import { joinPages, makeChunks, toElements, toUtf16 } from './chunks.ts';
import { placeBlocks } from './elements.ts';
import { detect, type Format } from './detect.ts';
import { detectLanguage } from './language.ts';
import { codePointLength, wordCount } from './text-stats.ts';
import {
  DEFAULT_CONFIG,
  ExtractionError,
  type ExtractInput,
  type ExtractionConfig,
  type ExtractionResult,
  type FormatContext,
  type FormatOutput,
  type Table,
} from './types.ts';
import { ZIP_LIMITS, type InflateBudget } from '../containers/zip.ts';
import { readerOf } from './readers.ts';
import { descriptorOf } from './registry.ts';
import { checkReadLimit } from './limits.ts';

export { countPages } from './page-count.ts';
export { SUPPORTED_FORMATS } from './detect.ts';
export { ExtractionError } from './types.ts';
export type { Chunk, DocumentMetadata, Element, ExtractInput, ExtractionConfig, ExtractionResult, FailedSection, FormatContext, Table } from './types.ts';

/** Archives and e-mails inside archives and e-mails are followed this deep. */
const MAX_NESTING = 3;

export async function extract(input: ExtractInput): Promise<ExtractionResult> {
  return extractWithin(input, { remaining: ZIP_LIMITS.maxTotalBytes }, 0);
}

async function extractWithin(input: ExtractInput, budget: InflateBudget, depth: number): Promise<ExtractionResult> {
  const config = input.config ?? DEFAULT_CONFIG;
  // A chunk's bytes are not a file to detect: any row or page may start with a signature of another format.
  const { format, mime_type } = input.range && depth === 0 ? { format: input.range.layout.format, mime_type: descriptorOf(input.range.layout.format).mime_type } : detect(input);
  const ctx: FormatContext = {
    config,
    budget,
    depth,
    ...(input.range && depth === 0 ? { range: input.range } : {}),
    ...(input.pagePart && depth === 0 ? { pagePart: input.pagePart } : {}),
    ...(input.helpers && depth === 0 ? { helpers: input.helpers } : {}),
    ...(input.onProgress && depth === 0 ? { progress: input.onProgress } : {}),
    sub: (inner) => {
      if (depth + 1 > MAX_NESTING) {
        return Promise.reject(new ExtractionError('refused_file', `Refused: documents are nested more than ${MAX_NESTING} levels deep.`));
      }
      // Embedded documents are read whole (the page selection applies to the outer document)
      // and chunked by page, which is how the outer document recovers their pages.
      return extractWithin({ ...inner, config: { ...config, pages: null, chunking: { ...config.chunking, strategy: 'page' } } }, budget, depth + 1);
    },
  };
  // A chunk is held to the limit as a whole document is: each reads its own part of the document.
  if (depth === 0) checkReadLimit(format, descriptorOf(format).readLimit, input.bytes, budget);
  const out = await (await readerOf(format))(input.bytes, ctx);
  return assemble(format, mime_type, out, config);
}

function assemble(format: Format, mime_type: string, out: FormatOutput, config: ExtractionConfig): ExtractionResult {
  const placed = placeBlocks(out, config.keep_page_furniture);
  const total = out.pagesSelected?.total ?? out.pageRun?.total ?? placed.pages.length;
  const first = out.pageRun?.first ?? 1;
  const allNumbers = out.pagesSelected?.kept ?? placed.pages.map((_, i) => first + i);
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
