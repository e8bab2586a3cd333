// This family's reader (engine/readers.ts imports this module when a LaTeX
// document is read): a source file, or a project in an archive.

import type { FormatReaders } from '../../engine/readers.ts';
import { isZip } from '../../containers/zip.ts';
import { isTar } from '../../containers/tar.ts';

export const readers: FormatReaders = {
  latex: async (bytes, ctx) =>
    isZip(bytes) || isTar(bytes) ? (await import('./project.ts')).extractProject(bytes, ctx) : (await import('./source.ts')).extractLatex(bytes, ctx.config.output),
};
