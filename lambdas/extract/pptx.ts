// PPTX: one page per slide in presentation order; each slide's title, text
// boxes and tables in shape order, then its speaker notes. Each slide is its
// own part, so a page selection (a chunk of a large presentation) reads only
// the selected slides' parts.

import { Blocks, type OutputMode } from './blocks.ts';
import { contentChildren, coreProperties, readXml, relationships } from './ooxml.ts';
import { child, descendants, elements, type XmlElement } from './xml.ts';
import { SafeZip, type InflateBudget } from './zip.ts';
import { ExtractionError, type FormatOutput, type Table } from './types.ts';

/** Larger presentations are refused before any slide is read (the PDF page limit). */
export const MAX_SLIDES = 5000;

/** `pages`: 1-based slide numbers to read (config.pages); null for every slide. */
export function extractPptx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const main = 'ppt/presentation.xml';
  const presentation = readXml(zip, main);
  if (!presentation) throw new ExtractionError('corrupt_file', 'The PPTX could not be read: ppt/presentation.xml is missing.');
  const rels = relationships(zip, main);
  const list = child(presentation, 'sldIdLst');
  const slideParts = (list ? elements(list, 'sldId') : []).map((s) => rels.get(s.attrs.id ?? '')?.target).filter((t): t is string => !!t);
  if (slideParts.length > MAX_SLIDES) {
    throw new ExtractionError('too_many_pages', `The presentation has ${slideParts.length.toLocaleString('en-US')} slides; the limit is ${MAX_SLIDES.toLocaleString('en-US')}.`);
  }
  const kept = pages ? pages.filter((n) => n >= 1 && n <= slideParts.length) : slideParts.map((_, i) => i + 1);
  const texts: string[] = [];
  const tables: Table[] = [];
  for (const number of kept) {
    const part = slideParts[number - 1]!;
    const slide = readXml(zip, part);
    const out = new Blocks(mode);
    const tree = slide && child(child(slide, 'cSld') ?? slide, 'spTree');
    if (tree) shapes(out, tree);
    const notesPart = [...relationships(zip, part).values()].find((r) => r.type === 'notesSlide')?.target;
    const notes = notesPart ? readXml(zip, notesPart) : null;
    const notesTree = notes && child(child(notes, 'cSld') ?? notes, 'spTree');
    if (notesTree) {
      const n = new Blocks(mode);
      shapes(n, notesTree, true);
      if (!n.isEmpty) out.paragraph((mode === 'markdown' ? '**Notes:**\n' : 'Notes:\n') + n.text());
    }
    for (const t of out.tables) tables.push({ page: number, rows: t.rows, markdown: t.markdown });
    texts.push(out.text());
  }
  return {
    pages: texts,
    pageSeparator: '\n\n',
    unit: 'slide',
    tables,
    ...(pages ? { pagesSelected: { total: slideParts.length, kept } } : {}),
    metadata: coreProperties(zip),
  };
}

function shapes(out: Blocks, tree: XmlElement, notes = false): void {
  for (const el of contentChildren(tree)) {
    if (el.name === 'grpSp') shapes(out, el, notes);
    else if (el.name === 'sp') {
      const ph = descendants(child(el, 'nvSpPr') ?? el, 'ph')[0];
      const type = ph?.attrs.type;
      // Notes pages repeat the slide image and number as placeholders.
      if (notes && (type === 'sldImg' || type === 'sldNum' || type === 'hdr' || type === 'ftr' || type === 'dt')) continue;
      const body = child(el, 'txBody');
      if (!body) continue;
      const paras = elements(body, 'p').map(paragraphText);
      if (type === 'title' || type === 'ctrTitle') out.heading(2, paras.join(' '));
      else for (const p of paras) out.paragraph(p);
    } else if (el.name === 'graphicFrame') {
      for (const tbl of descendants(el, 'tbl')) {
        out.table(
          elements(tbl, 'tr').map((tr) =>
            elements(tr, 'tc').map((tc) => (tc.attrs.hMerge || tc.attrs.vMerge ? '' : elements(child(tc, 'txBody') ?? tc, 'p').map(paragraphText).join(' '))),
          ),
        );
      }
    }
  }
}

function paragraphText(p: XmlElement): string {
  let s = '';
  for (const c of contentChildren(p)) {
    if (c.name === 'r' || c.name === 'fld') {
      const t = child(c, 't');
      if (t) s += t.children.filter((x) => typeof x === 'string').join('');
    } else if (c.name === 'br') s += '\n';
  }
  return s;
}
