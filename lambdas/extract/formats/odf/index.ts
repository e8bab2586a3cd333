// OpenDocument text and spreadsheets: ZIP packages that name themselves in a
// stored mimetype member, or (ODT) one flat XML document. A spreadsheet's
// sheets are found by a scan of content.xml, as the reader finds them.

import type { FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE, WORKBOOK_ADVICE } from '../../engine/limits.ts';
import { partsTextPages } from '../../engine/text-pages.ts';
import { odsSheetSpans } from './ods-sheets.ts';

export const odt: FormatDescriptor<'odt'> = {
  name: 'odt',
  family: 'odf',
  extensions: ['fodt'],
  mime_type: 'application/vnd.oasis.opendocument.text',
  unit: 'text_page',
  signature: {
    zipMimetype: 'application/vnd.oasis.opendocument.text',
    // A flat OpenDocument text (.fodt): the package's parts in one XML document.
    sniff: (head) => /<office:document[\s>]/.test(head) && /office:mimetype="application\/vnd\.oasis\.opendocument\.text"/.test(head),
  },
  countPages: (doc) => partsTextPages(doc, () => ['content.xml']),
  readLimit: { bytes: 80_000_000, advice: DOCUMENT_ADVICE },
};

export const ods: FormatDescriptor<'ods'> = {
  name: 'ods',
  family: 'odf',
  mime_type: 'application/vnd.oasis.opendocument.spreadsheet',
  unit: 'sheet',
  signature: { zipMimetype: 'application/vnd.oasis.opendocument.spreadsheet' },
  countPages: ({ zip }) => Math.max(1, odsSheetSpans(zip().readText('content.xml') ?? '').length),
  readLimit: { bytes: 70_000_000, advice: WORKBOOK_ADVICE },
  split: { chunks: 'pages', separator: '\n\n' },
};
