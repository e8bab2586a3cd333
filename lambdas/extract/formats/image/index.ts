// Images, read by OCR: one page each (a TIFF a page per directory), recognised by their leading bytes.

import type { FormatDescriptor } from '../../engine/format.ts';
import { countTiffPages, TIFF_PAGE_LIMIT, tiffPagePdf } from './tiff.ts';

const image = <Name extends string>(name: Name, mime_type: string, magic: number[][], extensions?: string[]): FormatDescriptor<Name> => ({
  name,
  family: 'image',
  ...(extensions ? { extensions } : {}),
  mime_type,
  unit: 'page',
  signature: { magic },
  countPages: () => 1,
  view: 'picture',
});

export const png = /* @__PURE__ */ image('png', 'image/png', [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]);
export const jpeg = /* @__PURE__ */ image('jpeg', 'image/jpeg', [[0xff, 0xd8, 0xff]], ['jpg']);
export const tiff: FormatDescriptor<'tiff'> = {
  .../* @__PURE__ */ image('tiff', 'image/tiff', [
    [0x49, 0x49, 0x2a, 0x00],
    [0x4d, 0x4d, 0x00, 0x2a],
  ], ['tif']),
  countPages: (doc) => countTiffPages(doc.bytes),
  limit: TIFF_PAGE_LIMIT,
  // Browsers show no TIFF: its pages are drawn as a PDF's are, where a PDF holds them as they are stored.
  view: 'render',
  pagePdf: tiffPagePdf,
};
