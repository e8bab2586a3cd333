// OpenDocument text, spreadsheets and presentations: ZIP packages that name
// themselves in a mimetype member, or (ODT) one flat XML document. A
// spreadsheet's sheets and a presentation's slides are found by a scan of
// content.xml, as the readers find them.

import type { FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE, PRESENTATION_ADVICE, SLIDE_LIMIT, WORKBOOK_ADVICE } from '../../engine/limits.ts';
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

export const odp: FormatDescriptor<'odp'> = {
  name: 'odp',
  family: 'odf',
  mime_type: 'application/vnd.oasis.opendocument.presentation',
  unit: 'slide',
  signature: { zipMimetype: 'application/vnd.oasis.opendocument.presentation' },
  countPages: ({ zip }) => Math.max(1, zip().readText('content.xml')?.match(/<(?:[\w.-]+:)?page[\s/>]/g)?.length ?? 0),
  readLimit: { bytes: 230_000_000, advice: PRESENTATION_ADVICE },
  limit: SLIDE_LIMIT,
};
