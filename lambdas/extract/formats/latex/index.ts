// LaTeX: a source file (.tex), told by its name or its opening
// \documentclass, or a project's folder in a ZIP or a TAR (its .tex files
// with their styles, bibliography and pictures), told by its members. Both flow, so
// their pages are estimated from their LaTeX source's text.

import type { CountSource, FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE } from '../../engine/limits.ts';
import { textPages } from '../../engine/text-pages.ts';
import { isZip } from '../../containers/zip.ts';
import { isTar, SafeTar } from '../../containers/tar.ts';
import { isProject, sourceNames } from './project.ts';

export const latex: FormatDescriptor<'latex'> = {
  name: 'latex',
  family: 'latex',
  extensions: ['tex', 'ltx', 'latex'],
  mime_type: 'application/x-tex',
  unit: 'text_page',
  signature: {
    names: { extensions: ['tex', 'ltx', 'latex'], contentTypes: ['application/x-tex', 'text/x-tex', 'application/x-latex', 'text/x-latex'], decides: true },
    // Without a name: a document class (or a LaTeX 2.09 style) declared before any text, after comments only.
    sniff: (head) => /^\uFEFF?(?:\s*%[^\n]*\n)*\s*\\(?:documentclass|documentstyle)\s*[[{]/.test(head),
    archiveMembers: isProject,
  },
  countPages: (doc: CountSource) => {
    const archive = isZip(doc.bytes) ? doc.zip() : isTar(doc.bytes) ? new SafeTar(doc.bytes) : null;
    if (!archive) return textPages(doc.codePoints());
    return textPages(
      sourceNames(archive.names()).reduce((sum, name) => {
        doc.meter.checkTime();
        return sum + (archive.read(name)?.length ?? 0);
      }, 0),
    );
  },
  // Measured on a paper's sections repeated (one extraction, the engine's whole path): 8 MB peaks at 162 MB, 48 MB at
  // 404 MB, about 6 MB a MB over a base of 113 MB, so 80% of the worker's 2,048 MB holds some 250 MB: the largest RTF's limit.
  readLimit: { bytes: 130_000_000, advice: DOCUMENT_ADVICE },
};
