// The extraction engine's entry: detect the format, hand the bytes to that
// format's module, then build content, chunks and metadata the same way for all.

import { joinPages } from './chunks.ts';
import { detect } from './detect.ts';
import { extractPlain } from './plain.ts';
import { codePointLength, wordCount } from './text-stats.ts';
import type { ExtractInput, ExtractionResult, FormatOutput } from './types.ts';

export { countPages } from './page-count.ts';
export { ExtractionError } from './types.ts';
export type { ExtractInput, ExtractionResult } from './types.ts';

export async function extract(input: ExtractInput): Promise<ExtractionResult> {
  const { format, mime_type } = detect(input);
  const out = await byFormat[format](input.bytes);
  const { content, chunks } = joinPages(out.pages, out.pageSeparator);
  return {
    content,
    metadata: {
      format,
      mime_type,
      pages: out.pages.length,
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
      ...out.metadata,
      char_count: codePointLength(content),
      word_count: wordCount(content),
    },
    tables: [],
    chunks,
  };
}

const byFormat: Record<ReturnType<typeof detect>['format'], (bytes: Uint8Array) => FormatOutput | Promise<FormatOutput>> = {
  // Imported on demand: pdf.js is heavy and only PDFs need it.
  pdf: async (bytes) => (await import('./pdf.ts')).extractPdf(bytes),
  text: extractPlain,
  markdown: extractPlain,
};
