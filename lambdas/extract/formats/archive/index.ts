// Archives: any ZIP or TAR that no document format claims, counted at a page
// per member (the members' own pages are counted when they are extracted),
// and gzip files, counted at a page, read as what they hold (a TAR, as
// arXiv serves a paper's sources, or one document).

import type { FormatDescriptor } from '../../engine/format.ts';
import { ARCHIVE_ADVICE } from '../../engine/limits.ts';
import { SafeTar } from '../../containers/tar.ts';

export const zip: FormatDescriptor<'zip'> = {
  name: 'zip',
  family: 'archive',
  mime_type: 'application/zip',
  unit: 'page',
  signature: { anyZip: true },
  countPages: ({ zip }) => Math.max(1, zip().entries.filter((e) => !e.isDirectory).length),
  readLimit: { bytes: 160_000_000, advice: ARCHIVE_ADVICE },
};

export const tar: FormatDescriptor<'tar'> = {
  name: 'tar',
  family: 'archive',
  extensions: ['tar'],
  mime_type: 'application/x-tar',
  unit: 'page',
  signature: { anyTar: true },
  countPages: ({ bytes }) => Math.max(1, new SafeTar(bytes).names().length),
  readLimit: { bytes: 160_000_000, advice: ARCHIVE_ADVICE },
};

export const gzip: FormatDescriptor<'gzip'> = {
  name: 'gzip',
  family: 'archive',
  extensions: ['gz', 'tgz'],
  mime_type: 'application/gzip',
  unit: 'page',
  signature: { gzip: true },
  // What it holds is counted when it is read, as an archive's members are.
  countPages: () => 1,
  readLimit: { bytes: 160_000_000, advice: ARCHIVE_ADVICE },
};
