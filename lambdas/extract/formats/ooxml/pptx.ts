// PPTX: one page per slide in presentation order. Each slide's title first
// (a heading), then its shapes in reading order (slide-order.ts), groups
// opened, a placeholder where its layout or master puts it: body text as list items where
// the paragraph is bulleted (its own properties, else the shape's, the
// layout's and master's placeholder, else the master's text styles),
// paragraphs otherwise, tables, charts (title, series and categories),
// SmartArt and picture descriptions; then its speaker notes and comments
// (slide-comments.ts), each with its author.
// Each slide is its own part, so a page selection (a chunk of a large
// presentation) reads only the selected slides' parts.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { chartBlocks, contentChildren, coreProperties, readDiagram, relationships } from './ooxml.ts';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { checkUnitLimit, SLIDE_LIMIT } from '../../engine/limits.ts';
import { missingPart, SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { readingOrder, type SlideBox } from '../../engine/slide-order.ts';
import { boxOf, ON_SLIDE, placedBox, within, xfrmOf, type Placement } from './shape-frames.ts';
import type { FormatOutput } from '../../engine/types.ts';
import { SlideDeck, speakerNotes } from '../../engine/slide-deck.ts';
import { commentAuthors, slideComments } from './slide-comments.ts';

/** `pages`: 1-based slide numbers to read (config.pages); null for every slide. */
export function extractPptx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const main = 'ppt/presentation.xml';
  const presentation = readXml(zip, main);
  const rels = relationships(zip, main);
  const list = presentation && child(presentation, 'sldIdLst');
  const listed = (list ? elements(list, 'sldId') : []).map((s) => rels.get(s.attrs.id ?? '')?.target).filter((t): t is string => !!t);
  const slideParts = listed.length > 0 ? listed : survivingSlides(zip);
  if (slideParts.length === 0 && !presentation) throw missingPart(zip, 'PPTX', main);
  checkUnitLimit(SLIDE_LIMIT, slideParts.length);
  const kept = pages ? pages.filter((n) => n >= 1 && n <= slideParts.length) : slideParts.map((_, i) => i + 1);
  const deck = new SlideDeck();
  const templates = new Map<string, Template>();
  const furniture = new Set<string>();
  const authors = commentAuthors(zip, main);
  for (const number of kept) {
    const part = slideParts[number - 1]!;
    const slide = readXml(zip, part);
    const out = new Blocks(mode);
    const slideRels = relationships(zip, part);
    const layoutPart = [...slideRels.values()].find((r) => r.type === 'slideLayout')?.target;
    const ctx: SlideCtx = { zip, out, rels: slideRels, template: layoutPart ? template(zip, layoutPart, templates) : null, furniture };
    const tree = slide && child(child(slide, 'cSld') ?? slide, 'spTree');
    if (tree) {
      const all = placedShapes(tree, ctx.template);
      // The title leads the slide, wherever it sits in the shape tree.
      const isTitle = (p: PlacedShape) => ['title', 'ctrTitle'].includes(placeholder(p.el)?.type ?? '');
      const rest = readingOrder(all.filter((p) => !isTitle(p)), (p) => p.box);
      for (const p of [...all.filter(isTitle), ...rest]) shape(ctx, p.el);
    }
    const notesPart = [...slideRels.values()].find((r) => r.type === 'notesSlide')?.target;
    const notes = notesPart ? readXml(zip, notesPart) : null;
    const notesTree = notes && child(child(notes, 'cSld') ?? notes, 'spTree');
    if (notesTree) {
      const paras = flatten(notesTree)
        .filter((el) => el.name === 'sp' && !NOTES_FURNITURE.has(placeholder(el)?.type ?? ''))
        .flatMap((el) => elements(child(el, 'txBody') ?? el, 'p').map(paragraphText))
        .filter((t) => t.trim() !== '');
      speakerNotes(out, paras, mode);
    }
    for (const c of slideComments(zip, slideRels, authors, paragraphText)) out.comment(c.text, c.author, '');
    deck.add(number, out);
  }
  return deck.output(slideParts.length, kept, pages !== null, coreProperties(zip));
}

/**
 * A package cut short before its slide list (or inside it, before its first
 * slide) keeps the slides stored ahead of it: read in the order of their part
 * names' numbers, as PowerPoint numbers them when it saves (a slide moved
 * since may stand out of place).
 */
function survivingSlides(zip: SafeZip): string[] {
  if (!zip.damage) return [];
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return zip.names().filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).sort((a, b) => number(a) - number(b));
}

const NOTES_FURNITURE = new Set(['sldImg', 'sldNum', 'hdr', 'ftr', 'dt']);

interface SlideCtx {
  zip: SafeZip;
  out: Blocks;
  rels: Map<string, { target: string; type: string }>;
  template: Template | null;
  /** Footer and header texts already written: a deck repeats them on every slide. */
  furniture: Set<string>;
}

/** Shapes in tree order, groups opened. */
function flatten(tree: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const el of contentChildren(tree)) {
    if (el.name === 'grpSp') out.push(...flatten(el));
    else out.push(el);
  }
  return out;
}

interface PlacedShape {
  el: XmlElement;
  /** Where the slide shows it; null where neither it nor its placeholder says. */
  box: SlideBox | null;
}

/** The shapes that can hold text, tables or pictures, in tree order, groups opened, each with its box on the slide. */
function placedShapes(tree: XmlElement, template: Template | null, at: Placement = ON_SLIDE): PlacedShape[] {
  const out: PlacedShape[] = [];
  for (const el of contentChildren(tree)) {
    const frame = xfrmOf(el);
    if (el.name === 'grpSp') {
      out.push(...placedShapes(el, template, frame ? within(at, frame) : at));
      continue;
    }
    // A shape that shows nothing read (a frame drawn round others, an undescribed picture) takes no part in the order.
    const body = el.name === 'sp' ? child(el, 'txBody') : undefined;
    const shows = el.name === 'graphicFrame' || (el.name === 'pic' && pictureDescription(el) !== null) || (body !== undefined && textContent(body).trim() !== '');
    if (!shows) continue;
    const own = frame && boxOf(frame);
    const ph = own ? null : placeholder(el);
    const box = own ?? (ph && template ? inheritedBox(template, ph) : null);
    out.push({ el, box: box && placedBox(at, box) });
  }
  return out;
}

function placeholder(el: XmlElement): { type: string; idx: string | undefined } | null {
  const nv = child(el, 'nvSpPr') ?? child(el, 'nvGraphicFramePr') ?? child(el, 'nvPicPr');
  const ph = nv && descendants(nv, 'ph')[0];
  return ph ? { type: ph.attrs.type ?? 'obj', idx: ph.attrs.idx } : null;
}

function shape(ctx: SlideCtx, el: XmlElement): void {
  const { out } = ctx;
  if (el.name === 'sp') {
    const ph = placeholder(el);
    const body = child(el, 'txBody');
    if (!body) return;
    const paras = elements(body, 'p');
    if (ph && (ph.type === 'title' || ph.type === 'ctrTitle')) {
      out.heading(ph.type === 'ctrTitle' ? 1 : 2, paras.map(paragraphText).join(' '));
      return;
    }
    if (ph && (ph.type === 'sldNum' || ph.type === 'dt')) return;
    if (ph && (ph.type === 'ftr' || ph.type === 'hdr')) {
      const text = paras.map(paragraphText).join('\n').trim();
      if (text && !ctx.furniture.has(text)) {
        ctx.furniture.add(text);
        if (ph.type === 'ftr') out.pageFooter(text);
        else out.pageHeader(text);
      }
      return;
    }
    const levels = styleChain(ctx, ph, body);
    const counters: number[] = [];
    for (const p of paras) {
      const text = paragraphText(p);
      if (!text.trim()) continue;
      const pPr = child(p, 'pPr');
      const lvl = Math.min(8, Math.max(0, Number(pPr?.attrs.lvl ?? 0) || 0));
      const bullet = bulletOf(pPr, levels, lvl);
      if (bullet.kind === 'none') {
        counters.length = 0;
        out.paragraph(text);
      } else {
        counters.length = lvl + 1;
        const n = bullet.kind === 'number' ? (counters[lvl] ?? bullet.start - 1) + 1 : 0;
        counters[lvl] = n;
        out.listItem(text, lvl, bullet.kind === 'number' ? n : null);
      }
    }
  } else if (el.name === 'graphicFrame') {
    for (const tbl of descendants(el, 'tbl')) out.table(tableGrid(tbl));
    for (const ref of descendants(el, 'chart')) {
      const target = ctx.rels.get(ref.attrs.id ?? '')?.target;
      if (target) chartBlocks(out, ctx.zip, target);
    }
    for (const ref of descendants(el, 'relIds')) {
      const target = ctx.rels.get(ref.attrs.dm ?? '')?.target;
      if (target) for (const t of readDiagram(ctx.zip, target)) out.paragraph(t);
    }
  } else if (el.name === 'pic') {
    const descr = pictureDescription(el);
    if (descr !== null) out.figure(descr);
  }
}

const merged = (flag: string | undefined) => flag === '1' || flag === 'true';

/**
 * A table's rows, a merged cell's text in every grid cell it covers: the
 * cells it spans (gridSpan, rowSpan) are stored after it as continuation
 * cells (hMerge, vMerge) with no text of their own, and each takes the text
 * of the cell before it in its row or above it in its column, so every row
 * reads whole (as HTML tables' spanning cells are read).
 */
function tableGrid(tbl: XmlElement): string[][] {
  const grid: string[][] = [];
  for (const tr of elements(tbl, 'tr')) {
    const row: string[] = [];
    for (const tc of elements(tr, 'tc')) {
      const col = row.length;
      if (merged(tc.attrs.hMerge) && col > 0) row.push(row[col - 1]!);
      else if (merged(tc.attrs.vMerge) && grid.length > 0) row.push(grid.at(-1)![col] ?? '');
      else row.push(elements(child(tc, 'txBody') ?? tc, 'p').map(paragraphText).join(' '));
    }
    grid.push(row);
  }
  return grid;
}

/** A picture's description, null where it has none; a file name is what tools write when nobody described it. */
function pictureDescription(pic: XmlElement): string | null {
  const nv = child(pic, 'nvPicPr');
  const descr = nv && child(nv, 'cNvPr')?.attrs.descr;
  return descr && !/^[^\s]+\.[a-z0-9]{2,4}$/i.test(descr.trim()) ? descr : null;
}

// ---- Bullets -----------------------------------------------------------------

type Bullet = { kind: 'none' } | { kind: 'char' } | { kind: 'number'; start: number };

/** Level properties (a:lvl1pPr ... a:lvl9pPr) from the most specific to the most general. */
type LevelStyles = Array<(XmlElement | undefined)[]>;

/** Whether paragraph properties say anything about the bullet, and what. */
function bulletIn(pPr: XmlElement | undefined): Bullet | null {
  if (!pPr) return null;
  for (const c of pPr.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'buNone') return { kind: 'none' };
    if (c.name === 'buChar' || c.name === 'buBlip') return { kind: 'char' };
    if (c.name === 'buAutoNum') return { kind: 'number', start: Math.max(1, Number(c.attrs.startAt ?? 1) || 1) };
  }
  return null;
}

function bulletOf(pPr: XmlElement | undefined, chain: LevelStyles, lvl: number): Bullet {
  const own = bulletIn(pPr);
  if (own) return own;
  for (const levels of chain) {
    const found = bulletIn(levels[lvl]);
    if (found) return found;
  }
  return { kind: 'none' };
}

function levelStyles(lstStyle: XmlElement | undefined): (XmlElement | undefined)[] {
  return Array.from({ length: 9 }, (_, i) => (lstStyle ? child(lstStyle, `lvl${i + 1}pPr`) : undefined));
}

interface TemplatePlaceholder {
  type: string;
  idx: string | undefined;
  levels: (XmlElement | undefined)[];
  box: SlideBox | null;
}

interface Template {
  /** Placeholders of the layout and then of its master, each with its list style and box. */
  layout: TemplatePlaceholder[];
  master: TemplatePlaceholder[];
  body: (XmlElement | undefined)[] | null;
  other: (XmlElement | undefined)[] | null;
}

function template(zip: SafeZip, layoutPart: string, cache: Map<string, Template>): Template {
  const cached = cache.get(layoutPart);
  if (cached) return cached;
  const placeholders = (root: XmlElement | null) => {
    const tree = root && child(child(root, 'cSld') ?? root, 'spTree');
    return (tree ? flatten(tree) : []).flatMap((el) => {
      const ph = el.name === 'sp' ? placeholder(el) : null;
      const body = child(el, 'txBody');
      const frame = xfrmOf(el);
      return ph ? [{ ...ph, levels: levelStyles(body ? child(body, 'lstStyle') : undefined), box: frame ? boxOf(frame) : null }] : [];
    });
  };
  const layout = readXml(zip, layoutPart);
  const masterPart = [...relationships(zip, layoutPart).values()].find((r) => r.type === 'slideMaster')?.target;
  const master = masterPart ? readXml(zip, masterPart) : null;
  const txStyles = master && child(master, 'txStyles');
  const t: Template = {
    layout: placeholders(layout),
    master: placeholders(master),
    body: txStyles ? levelStyles(child(txStyles, 'bodyStyle')) : null,
    other: txStyles ? levelStyles(child(txStyles, 'otherStyle')) : null,
  };
  cache.set(layoutPart, t);
  return t;
}

const BODY_TYPES = new Set(['body', 'obj']);

/**
 * Where a shape's paragraphs take their bullets from, after their own
 * properties: the shape's list style, then for a placeholder the matching
 * placeholder of the layout and of the master and the master's body style
 * (bulleted by default, as PowerPoint shows a content placeholder); for any
 * other shape the master's style for other text (not bulleted by default).
 */
function styleChain(ctx: SlideCtx, ph: { type: string; idx: string | undefined } | null, body: XmlElement): LevelStyles {
  const chain: LevelStyles = [levelStyles(child(body, 'lstStyle'))];
  const t = ctx.template;
  if (!ph) {
    if (t?.other) chain.push(t.other);
    return chain;
  }
  const bodyLike = BODY_TYPES.has(ph.type);
  if (t) {
    const { fromLayout, fromMaster } = templateMatches(t, ph);
    if (fromLayout) chain.push(fromLayout.levels);
    const type = fromLayout?.type ?? ph.type;
    if (fromMaster) chain.push(fromMaster.levels);
    if (!BODY_TYPES.has(type)) chain.push(NO_BULLETS);
    else if (t.body) chain.push(t.body);
  }
  // Without a master to ask, a content placeholder is bulleted as PowerPoint's default master has it.
  if (bodyLike) chain.push(DEFAULT_BULLETS);
  return chain;
}

/** The layout's placeholder a slide's placeholder takes after (by index, else by kind), and the master's the layout's takes after (by kind). */
function templateMatches(t: Template, ph: { type: string; idx: string | undefined }): { fromLayout?: TemplatePlaceholder; fromMaster?: TemplatePlaceholder } {
  const sameKind = (p: TemplatePlaceholder, type: string) => p.type === type || (BODY_TYPES.has(p.type) && BODY_TYPES.has(type));
  const fromLayout = (ph.idx !== undefined ? t.layout.find((p) => p.idx === ph.idx) : undefined) ?? t.layout.find((p) => sameKind(p, ph.type));
  const type = fromLayout?.type ?? ph.type;
  return { fromLayout, fromMaster: t.master.find((p) => sameKind(p, type)) };
}

/** Where a placeholder without a transform of its own is shown: as its layout's placeholder, else its master's. */
function inheritedBox(t: Template, ph: { type: string; idx: string | undefined }): SlideBox | null {
  const { fromLayout, fromMaster } = templateMatches(t, ph);
  return fromLayout?.box ?? fromMaster?.box ?? null;
}

const NO_BULLETS: (XmlElement | undefined)[] = Array.from({ length: 9 }, () => ({ name: 'lvlpPr', attrs: {}, children: [{ name: 'buNone', attrs: {}, children: [] }] }));
const DEFAULT_BULLETS: (XmlElement | undefined)[] = Array.from({ length: 9 }, () => ({ name: 'lvlpPr', attrs: {}, children: [{ name: 'buChar', attrs: { char: '•' }, children: [] }] }));

// ---- Text ------------------------------------------------------------------

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
