// DOCX: the body in order (headings, lists, paragraphs, tables), then the
// headers, footers, footnotes and endnotes, and the document properties.

import { Blocks, type OutputMode } from './blocks.ts';
import { contentChildren, coreProperties, readXml, relationships } from './ooxml.ts';
import { child, descendants, elements, type XmlElement } from './xml.ts';
import { SafeZip, type InflateBudget } from './zip.ts';
import { ExtractionError, type FormatOutput } from './types.ts';

export function extractDocx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const main = mainPart(zip);
  const doc = readXml(zip, main);
  const body = doc && child(doc, 'body');
  if (!body) throw new ExtractionError('corrupt_file', `The DOCX could not be read: ${main} has no body.`);
  const rels = relationships(zip, main);
  const partOf = (type: string) => [...rels.values()].filter((r) => r.type === type).map((r) => r.target);
  const ctx: Ctx = {
    out: new Blocks(mode),
    headings: headingStyles(zip, partOf('styles')[0]),
    lists: listFormats(zip, partOf('numbering')[0]),
    counters: new Map(),
  };
  const extras = (types: string[], names: string[]) => {
    const seen = new Set<string>();
    for (const part of types.flatMap(partOf)) {
      const root = readXml(zip, part);
      if (!root) continue;
      const notes = names.flatMap((n) => elements(root, n));
      for (const container of notes.length > 0 ? notes : [root]) {
        // Separator notes (ids -1 and 0) hold no text worth keeping.
        if (Number(container.attrs.id) <= 0 && names.length > 0 && notes.length > 0) continue;
        const sub = new Blocks(mode);
        blocks({ ...ctx, out: sub }, container);
        const text = sub.text();
        // The same header is often referenced by every section: keep one copy.
        if (text && !seen.has(text)) {
          seen.add(text);
          ctx.out.paragraph(text);
        }
      }
    }
  };
  extras(['header'], []);
  blocks(ctx, body);
  extras(['footnotes', 'endnotes'], ['footnote', 'endnote']);
  extras(['footer'], []);
  return ctx.out.output(coreProperties(zip));
}

function mainPart(zip: SafeZip): string {
  const rels = relationships(zip, '');
  for (const { target, type } of rels.values()) if (type === 'officeDocument') return target;
  return 'word/document.xml';
}

interface Ctx {
  out: Blocks;
  headings: Map<string, number>;
  /** numId -> ilvl -> ordered? */
  lists: Map<string, Map<string, boolean>>;
  counters: Map<string, number>;
}

function blocks(ctx: Ctx, container: XmlElement): void {
  for (const el of contentChildren(container)) {
    if (el.name === 'p') paragraph(ctx, el);
    else if (el.name === 'tbl') ctx.out.table(tableRows(ctx, el));
    else if (el.name === 'sdt') {
      const content = child(el, 'sdtContent');
      if (content) blocks(ctx, content);
    } else if (el.name === 'customXml' || el.name === 'ins' || el.name === 'smartTag') blocks(ctx, el);
  }
}

function paragraph(ctx: Ctx, p: XmlElement): void {
  const props = child(p, 'pPr');
  const text = runText(p);
  // Text boxes are paragraphs anchored inside a run; they follow their anchor.
  const boxes = descendants(p, 'txbxContent');
  const style = props && child(props, 'pStyle')?.attrs.val;
  const outline = props && child(props, 'outlineLvl')?.attrs.val;
  const level = (style !== undefined ? ctx.headings.get(style) : undefined) ?? (outline !== undefined ? Number(outline) + 1 : undefined);
  const num = props && child(props, 'numPr');
  if (level !== undefined && level <= 9) ctx.out.heading(level, text);
  else if (num) {
    const numId = child(num, 'numId')?.attrs.val ?? '';
    const ilvl = child(num, 'ilvl')?.attrs.val ?? '0';
    if (numId === '0') ctx.out.paragraph(text);
    else {
      const ordered = ctx.lists.get(numId)?.get(ilvl) ?? false;
      const key = `${numId}/${ilvl}`;
      const n = (ctx.counters.get(key) ?? 0) + 1;
      ctx.counters.set(key, n);
      ctx.out.listItem(text, Number(ilvl) || 0, ordered ? n : null);
    }
  } else ctx.out.paragraph(text);
  for (const box of boxes) blocks(ctx, box);
}

/** The visible text of a paragraph: runs, tabs and breaks, not deleted text or field codes. */
function runText(p: XmlElement): string {
  let out = '';
  const walk = (el: XmlElement) => {
    for (const c of contentChildren(el)) {
      switch (c.name) {
        case 't':
          out += c.children.filter((x) => typeof x === 'string').join('');
          break;
        case 'tab':
          out += '\t';
          break;
        case 'br':
        case 'cr':
          out += '\n';
          break;
        case 'noBreakHyphen':
          out += '-';
          break;
        case 'pPr':
        case 'rPr':
        case 'del':
        case 'instrText':
        case 'txbxContent':
        case 'footnoteReference':
          break;
        default:
          walk(c);
      }
    }
  };
  walk(p);
  return out;
}

function tableRows(ctx: Ctx, tbl: XmlElement): string[][] {
  const rows: string[][] = [];
  for (const tr of contentChildren(tbl).filter((e) => e.name === 'tr')) {
    const row: string[] = [];
    for (const tc of cells(tr)) {
      const sub = new Blocks('text');
      blocks({ ...ctx, out: sub }, tc);
      const props = child(tc, 'tcPr');
      const merge = props && child(props, 'vMerge');
      // A vertically merged continuation repeats nothing; the text sits in the first cell.
      row.push(merge && merge.attrs.val !== 'restart' ? '' : sub.text().replace(/\s*\n\s*/g, ' '));
      const span = Number((props && child(props, 'gridSpan')?.attrs.val) ?? 1);
      for (let k = 1; k < Math.min(span, 64); k++) row.push('');
    }
    rows.push(row);
  }
  return rows;
}

function cells(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of contentChildren(tr)) {
    if (c.name === 'tc') out.push(c);
    else if (c.name === 'sdt' || c.name === 'customXml') {
      const content = child(c, 'sdtContent') ?? c;
      out.push(...cells(content));
    }
  }
  return out;
}

/** Style id to heading level, from the style's name ("heading 2", "Title") or its outline level. */
function headingStyles(zip: SafeZip, part: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const styles = part ? readXml(zip, part) : null;
  if (!styles) return out;
  for (const style of elements(styles, 'style')) {
    const id = style.attrs.styleId;
    if (!id) continue;
    const name = (child(style, 'name')?.attrs.val ?? '').toLowerCase();
    const heading = /^heading\s*(\d)$/.exec(name);
    const pPr = child(style, 'pPr');
    const outline = pPr && child(pPr, 'outlineLvl')?.attrs.val;
    if (name === 'title') out.set(id, 1);
    else if (heading) out.set(id, Number(heading[1]));
    else if (outline !== undefined && Number(outline) < 9) out.set(id, Number(outline) + 1);
  }
  return out;
}

function listFormats(zip: SafeZip, part: string | undefined): Map<string, Map<string, boolean>> {
  const out = new Map<string, Map<string, boolean>>();
  const numbering = part ? readXml(zip, part) : null;
  if (!numbering) return out;
  const abstract = new Map<string, Map<string, boolean>>();
  for (const a of elements(numbering, 'abstractNum')) {
    const levels = new Map<string, boolean>();
    for (const lvl of elements(a, 'lvl')) {
      const fmt = child(lvl, 'numFmt')?.attrs.val ?? 'bullet';
      levels.set(lvl.attrs.ilvl ?? '0', fmt !== 'bullet' && fmt !== 'none');
    }
    abstract.set(a.attrs.abstractNumId ?? '', levels);
  }
  for (const num of elements(numbering, 'num')) {
    const levels = abstract.get(child(num, 'abstractNumId')?.attrs.val ?? '');
    if (levels) out.set(num.attrs.numId ?? '', levels);
  }
  return out;
}
