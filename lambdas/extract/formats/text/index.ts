// Text formats: plain text (whatever text no other format claims), Markdown,
// CSV and TSV, told apart only by the file's name or content type, and RTF,
// by its leading "{\rtf". A text page is 3,000 characters (text-pages.ts).

import type { FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE } from '../../engine/limits.ts';
import { textPages } from '../../engine/text-pages.ts';

const textPageCount: FormatDescriptor['countPages'] = ({ codePoints }) => textPages(codePoints());

export const markdown: FormatDescriptor<'markdown'> = {
  name: 'markdown',
  family: 'text',
  mime_type: 'text/markdown',
  unit: 'text_page',
  signature: { names: { extensions: ['md', 'markdown'], contentTypes: ['text/markdown', 'text/x-markdown'], decides: true } },
  countPages: textPageCount,
  // Text pages are cut mid-text: nothing joins them.
  split: { chunks: 'ranges', separator: '' },
};

// A CSV or TSV file is one table: its chunks are runs of rows, joined again row by row.
export const csv: FormatDescriptor<'csv'> = {
  name: 'csv',
  family: 'text',
  mime_type: 'text/csv',
  unit: 'text_page',
  signature: { names: { extensions: ['csv'], contentTypes: ['text/csv'], decides: true } },
  countPages: textPageCount,
  split: { chunks: 'ranges', separator: '\n', oneTable: true },
};

export const tsv: FormatDescriptor<'tsv'> = {
  name: 'tsv',
  family: 'text',
  mime_type: 'text/tab-separated-values',
  unit: 'text_page',
  signature: { names: { extensions: ['tsv', 'tab'], contentTypes: ['text/tab-separated-values'], decides: true } },
  countPages: textPageCount,
  split: { chunks: 'ranges', separator: '\n', oneTable: true },
};

export const rtf: FormatDescriptor<'rtf'> = {
  name: 'rtf',
  family: 'text',
  mime_type: 'application/rtf',
  unit: 'text_page',
  signature: { magic: [[0x7b, 0x5c, 0x72, 0x74, 0x66]] },
  countPages: textPageCount,
  readLimit: { bytes: 130_000_000, advice: DOCUMENT_ADVICE },
};

export const text: FormatDescriptor<'text'> = {
  name: 'text',
  family: 'text',
  extensions: ['txt'],
  mime_type: 'text/plain',
  unit: 'text_page',
  signature: { anyText: true },
  countPages: textPageCount,
  split: { chunks: 'ranges', separator: '' },
};
