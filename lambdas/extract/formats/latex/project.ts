// A LaTeX project sent as one archive (a paper's folder zipped, or the TAR
// arXiv serves a paper's sources in, gzipped or not): an archive holding
// LaTeX sources and no document of another kind (isProject). Its main
// file, the one declaring a document class, is read with the files it
// brings in by \input, \include and \subfile written in their place, and
// its compiled bibliography (the .bbl BibTeX wrote beside it) in place of
// \bibliography, as TeX reads them. A project without a main file has its
// sources read one after the other, in name order.

import { Blocks } from '../../engine/blocks.ts';
import type { FormatContext } from '../../engine/extract.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import { isArchiveJunk, openArchive } from '../../containers/archive-members.ts';
import { readLatex } from './source.ts';

/** Deeper than any project nests its inputs: a file that includes itself stops here. */
const MAX_DEPTH = 16;

const SOURCE = /\.(tex|ltx|latex)$/i;

/**
 * Members that are documents of another kind (office files, web pages, mail,
 * archives): an archive holding one is an archive of documents, read member by
 * member, not a LaTeX project. Everything else a paper's folder holds
 * (styles, bibliographies, pictures, PDFs of figures or of the compiled
 * paper, plot data, scripts, notes) is the project's.
 */
const OTHER_DOCUMENT = /\.(docx?|docm|dotx|xlsx?|xlsm|xlsb|pptx?|pptm|od[tspg]|epub|html?|xhtml|eml|msg|mbox|rtf|zip|7z|rar|tar|gz|tgz)$/i;

/** A member that is no file of the project: the archiver's junk, or a folder's own entry. */
const isJunk = (name: string) => isArchiveJunk(name) || name.endsWith('/');

/** The LaTeX sources among an archive's members. */
export const sourceNames = (names: string[]) => names.filter((n) => SOURCE.test(n) && !isJunk(n));

/** Whether an archive's members are a LaTeX project's: sources, and no document of another kind. */
export function isProject(names: string[]): boolean {
  const members = names.filter((n) => !isJunk(n));
  return members.some((n) => SOURCE.test(n)) && !members.some((n) => OTHER_DOCUMENT.test(n) && !/\.synctex\.gz$/i.test(n));
}

/** The project's document: each main file read with its inputs in place, or, without one, each source in turn. */
export function extractProject(bytes: Uint8Array, ctx: Pick<FormatContext, 'budget' | 'config'>): FormatOutput {
  const archive = openArchive(bytes, ctx.budget);
  const { names } = archive;
  const texts = new Map<string, string | undefined>();
  const read = (name: string): string | undefined => {
    if (!texts.has(name)) {
      let text: string | undefined;
      try {
        const data = archive.read(name);
        text = data ? decodeText(data).text : undefined;
      } catch (err) {
        // A member that is not text brings nothing in: \input of it is left as it stands.
        if (!(err instanceof ExtractionError)) throw err;
      }
      texts.set(name, text);
    }
    return texts.get(name);
  };
  const sources = sourceNames(names);
  const mains = sources.filter((n) => isLatexMain(n, read(n) ?? ''));
  const blocks = new Blocks(ctx.config.output);
  const metadata: FormatOutput['metadata'] = {};
  for (const name of mains.length > 0 ? mains : sources) {
    const source = mains.length > 0 ? latexProject(name, names, read) : (read(name) ?? '');
    const found = readLatex(source, blocks);
    if (found.title && !metadata.title) metadata.title = found.title;
    if (found.author && !metadata.author) metadata.author = found.author;
  }
  return blocks.output(metadata);
}

/** Whether a file's text is a LaTeX document's main file. */
export const isLatexMain = (name: string, text: string) => SOURCE.test(name) && /\\documentclass\s*[[{]/.test(text.replace(/(^|[^\\])%[^\n]*/g, '$1'));

/**
 * The source of the main file `main` among `names` with its inputs in place,
 * reading members with `read` (undefined for one it cannot read). Paths in
 * \input are relative to the main file's folder, as TeX resolves them when
 * run there.
 */
export function latexProject(main: string, names: string[], read: (name: string) => string | undefined): string {
  const folder = main.includes('/') ? main.slice(0, main.lastIndexOf('/') + 1) : '';
  const members = new Set(names);
  const resolve = (path: string, extensions: string[]): string | undefined => {
    const clean = normalise(folder + path.trim().replace(/^\.\//, ''));
    return [clean, ...extensions.map((e) => clean + e)].find((n) => members.has(n));
  };
  const inline = (text: string, depth: number): string =>
    text.replace(/(^|[^\\])(%[^\n]*)|\\(input|include|subfile|subfileinclude|bibliography)\s*(\[[^\]]*\])?\s*\{([^}]*)\}/g, (whole, _before: string | undefined, comment: string | undefined, command: string, _options: string, arg: string) => {
      if (comment !== undefined) return whole;
      if (command === 'bibliography') {
        const bbl = resolve(main.replace(/\.[^./]+$/, '').slice(folder.length), ['.bbl']);
        return (bbl ? read(bbl) : undefined) ?? whole;
      }
      const file = resolve(arg, ['.tex']);
      if (!file || depth >= MAX_DEPTH) return whole;
      const included = read(file);
      if (included === undefined) return whole;
      // \include starts its file on a new page: a paragraph break at least.
      return `\n\n${inline(included, depth + 1)}\n\n`;
    });
  return inline(read(main) ?? '', 0);
}

/** `a/./b/../c` as `a/c`. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}
