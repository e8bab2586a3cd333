// Office Open XML (DOCX, XLSX, PPTX): ZIP packages told apart by their main
// part. Slides and sheets are counted as the readers list them (the
// presentation's slide list, the workbook's sheets, chartsheets included), so
// a large document's chunk plan covers exactly what they read; a document's
// pages are estimated from its text.

import type { FormatDescriptor, ZipNames } from '../../engine/format.ts';
import { DOCUMENT_ADVICE, PRESENTATION_ADVICE, SLIDE_LIMIT, WORKBOOK_ADVICE } from '../../engine/limits.ts';
import { partsTextPages } from '../../engine/text-pages.ts';

/** A package cut short before its main part still names its kind by its parts' folder, so its reader can say what was lost. */
const cutShortIn = (zip: ZipNames, folder: string) => zip.damage !== null && zip.names().some((n) => n.startsWith(folder));

export const docx: FormatDescriptor<'docx'> = {
  name: 'docx',
  family: 'ooxml',
  mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  unit: 'text_page',
  signature: { zipMembers: (zip) => zip.has('word/document.xml') || cutShortIn(zip, 'word/') },
  countPages: (doc) => partsTextPages(doc, () => ['word/document.xml']),
  readLimit: { bytes: 80_000_000, advice: DOCUMENT_ADVICE },
};

export const xlsx: FormatDescriptor<'xlsx'> = {
  name: 'xlsx',
  family: 'ooxml',
  mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  unit: 'sheet',
  signature: { zipMembers: (zip) => zip.has('xl/workbook.xml') || cutShortIn(zip, 'xl/') },
  countPages: ({ zip }) => listed(zip().readText('xl/workbook.xml'), /<(?:[\w.-]+:)?sheet[\s/>]/g) ?? count(zip().names(), /^xl\/worksheets\/[^/]+\.xml$/),
  readLimit: { bytes: 140_000_000, advice: WORKBOOK_ADVICE },
  split: { chunks: 'pages', separator: '\n\n', pageParts: true },
};

export const pptx: FormatDescriptor<'pptx'> = {
  name: 'pptx',
  family: 'ooxml',
  mime_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  unit: 'slide',
  signature: { zipMembers: (zip) => zip.has('ppt/presentation.xml') || cutShortIn(zip, 'ppt/') },
  countPages: ({ zip }) => listed(zip().readText('ppt/presentation.xml'), /<(?:[\w.-]+:)?sldId[\s/>]/g) ?? count(zip().names(), /^ppt\/slides\/slide\d+\.xml$/),
  readLimit: { bytes: 230_000_000, advice: PRESENTATION_ADVICE },
  limit: SLIDE_LIMIT,
  split: { chunks: 'pages', separator: '\n\n' },
};

/** Elements matching `tag` in a main part, at least one; null without the part. */
function listed(part: string | null, tag: RegExp): number | null {
  return part === null ? null : Math.max(1, part.match(tag)?.length ?? 0);
}

const count = (names: string[], re: RegExp) => Math.max(1, names.filter((n) => re.test(n)).length);
