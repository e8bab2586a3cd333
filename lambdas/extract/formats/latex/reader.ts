// This family's reader (engine/readers.ts imports this module when a LaTeX
// document is read): a source file, or a project zipped.

import type { FormatReaders } from '../../engine/readers.ts';
import { isZip } from '../../containers/zip.ts';

export const readers: FormatReaders = {
  latex: async (bytes, ctx) =>
    isZip(bytes) ? (await import('./project.ts')).extractProject(bytes, ctx) : (await import('./source.ts')).extractLatex(bytes, ctx.config.output),
};
