// ZIP archives: any ZIP that no document format claims. Counted at a page
// per member; the members' own pages are counted when they are extracted.

import type { FormatDescriptor } from '../../engine/format.ts';
import { ARCHIVE_ADVICE } from '../../engine/limits.ts';

export const zip: FormatDescriptor<'zip'> = {
  name: 'zip',
  family: 'archive',
  mime_type: 'application/zip',
  unit: 'page',
  signature: { anyZip: true },
  countPages: ({ zip }) => Math.max(1, zip().entries.filter((e) => !e.isDirectory).length),
  readLimit: { bytes: 160_000_000, advice: ARCHIVE_ADVICE },
};
