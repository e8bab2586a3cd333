// Office 97-2003 (DOC, XLS, PPT): compound files told apart by their
// top-level streams. Sheets and slides are counted from the workbook's sheet
// list and the presentation's slide list; a DOC's pages need its parser, so
// one is reserved and the rest settled when the job finishes.

import { countWorkbookSheets } from './biff.ts';
import { pptDocument, pptSlideList } from './ppt-records.ts';
import type { FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE, PRESENTATION_ADVICE, SHEET_LIMIT, SLIDE_LIMIT, WORKBOOK_ADVICE } from '../../engine/limits.ts';

export const doc: FormatDescriptor<'doc'> = {
  name: 'doc',
  family: 'legacy-office',
  mime_type: 'application/msword',
  unit: 'text_page',
  signature: { compoundStreams: (streams) => streams.has('WordDocument') },
  countPages: () => 1,
  readLimit: { bytes: 130_000_000, advice: DOCUMENT_ADVICE },
};

export const xls: FormatDescriptor<'xls'> = {
  name: 'xls',
  family: 'legacy-office',
  mime_type: 'application/vnd.ms-excel',
  unit: 'sheet',
  // "Book" is the BIFF5 workbook stream; its name is too short to look for in a damaged file's raw bytes.
  signature: { compoundStreams: (streams) => streams.has('Workbook') || (streams.directory && streams.has('Book')) },
  countPages: ({ compound }) => countWorkbookSheets(compound('The workbook')),
  readLimit: { bytes: 60_000_000, advice: WORKBOOK_ADVICE },
  limit: SHEET_LIMIT,
  split: { chunks: 'pages', separator: '\n\n' },
};

export const ppt: FormatDescriptor<'ppt'> = {
  name: 'ppt',
  family: 'legacy-office',
  mime_type: 'application/vnd.ms-powerpoint',
  unit: 'slide',
  signature: { compoundStreams: (streams) => streams.has('PowerPoint Document') },
  countPages: ({ compound }) => {
    const presentation = pptDocument(compound('The presentation'));
    return Math.max(1, presentation ? pptSlideList(presentation, 0).length : 1);
  },
  readLimit: { bytes: 230_000_000, advice: PRESENTATION_ADVICE },
  limit: SLIDE_LIMIT,
  split: { chunks: 'pages', separator: '\n\n' },
};
