// OpenDocument presentations (ODP, LibreOffice Impress): one page per slide
// (draw:page) in order, as PPTX's. Each slide's title first (a heading), then
// its shapes in reading order (engine/slide-order.ts, from their svg:x and
// svg:y; a group's shapes stand where they are drawn): text boxes and shapes
// with text through the ODT reader's flow (paragraphs, lists with their
// levels, headings), tables, image descriptions; then the slide's speaker
// notes. The footer, date and page-number frames are the deck's furniture
// and are not read as slide text.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { readXml, child, descendants, elements, type XmlElement } from '../../containers/xml.ts';
import type { InflateBudget } from '../../containers/zip.ts';
import { checkUnitLimit, MAX_CELLS, SLIDE_LIMIT } from '../../engine/limits.ts';
import { readingOrder, type SlideBox } from '../../engine/slide-order.ts';
import { selectedNumbers } from '../../engine/sheets.ts';
import type { FormatOutput } from '../../engine/types.ts';
import { SlideDeck, speakerNotes } from '../../engine/slide-deck.ts';
import { flow, inline, odfMeta, officeBody, odtStyles, openPackage, tableRows, type OdtCtx } from './odf.ts';

/** Placeholder classes of the slide's furniture. */
const FURNITURE = new Set(['footer', 'header', 'date-time', 'page-number']);
/** Shapes that may hold text. */
const SHAPES = new Set(['frame', 'custom-shape', 'rect', 'ellipse', 'polygon', 'polyline', 'path', 'line', 'connector', 'caption', 'circle', 'regular-polygon']);

/** `pages`: 1-based slide numbers to read (config.pages); null for every slide. */
export function extractOdp(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const zip = openPackage(bytes, budget);
  const content = readXml(zip, 'content.xml');
  const presentation = officeBody(zip, 'presentation');
  const styles = odtStyles([content, readXml(zip, 'styles.xml')]);
  const slides = elements(presentation, 'page');
  checkUnitLimit(SLIDE_LIMIT, slides.length);
  const kept = selectedNumbers(slides.length, pages);
  const deck = new SlideDeck();
  for (const number of kept) {
    const out = new Blocks(mode);
    const ctx: OdtCtx = { out, styles, notes: [], counters: [], comments: null };
    const shapes = placed(slides[number - 1]!).filter((s) => !FURNITURE.has(s.kind));
    const isTitle = (s: Placed) => s.kind === 'title';
    for (const s of shapes.filter(isTitle)) {
      const text = descendants(child(s.el, 'text-box') ?? s.el, 'p').map((p) => inline(ctx, p)).join(' ').trim();
      if (text) out.heading(2, text);
    }
    for (const s of readingOrder(shapes.filter((s) => !isTitle(s)), (s) => s.box)) shape(ctx, s.el);
    notes(slides[number - 1]!, ctx, mode);
    deck.add(number, out);
  }
  return deck.output(slides.length, kept, pages !== null, odfMeta(zip));
}

interface Placed {
  el: XmlElement;
  /** Its presentation:class (title, outline, subtitle, notes, ...), or the element's name for a plain shape. */
  kind: string;
  box: SlideBox | null;
}

/** The page's shapes in document order, groups opened (their shapes' coordinates are the page's). */
function placed(page: XmlElement): Placed[] {
  const out: Placed[] = [];
  for (const c of page.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'g') out.push(...placed(c));
    // Attribute names lose their prefix as element names do: presentation:class is "class", svg:x "x".
    else if (SHAPES.has(c.name)) out.push({ el: c, kind: c.attrs.class ?? c.name, box: boxOf(c) });
  }
  return out;
}

function shape(ctx: OdtCtx, el: XmlElement): void {
  const table = child(el, 'table');
  if (table) {
    ctx.out.table(tableRows(table, { cells: MAX_CELLS }, (p) => inline(ctx, p)));
    return;
  }
  const box = child(el, 'text-box');
  if (box || el.name !== 'frame') {
    flow(ctx, box ?? el, 0);
    return;
  }
  const described = child(el, 'desc') ?? child(el, 'title');
  const text = described ? inline(null, described).trim() : '';
  if (text) ctx.out.figure(text);
}

/** The slide's speaker notes, as PPTX's: their first paragraph labelled. */
function notes(page: XmlElement, ctx: OdtCtx, mode: OutputMode): void {
  const notesPage = child(page, 'notes');
  if (!notesPage) return;
  const sub = new Blocks('text');
  for (const s of placed(notesPage)) if (s.kind === 'notes') shape({ ...ctx, out: sub }, s.el);
  speakerNotes(ctx.out, sub.text().split(/\n{2,}/).map((t) => t.trim()).filter(Boolean), mode);
}

/** EMU per unit of an ODF length (slide-order.ts measures in EMU). */
const EMU: Record<string, number> = { cm: 360_000, mm: 36_000, in: 914_400, pt: 12_700, pc: 152_400, px: 9_525 };

function length(value: string | undefined): number | null {
  const m = /^(-?[\d.]+)(cm|mm|in|pt|pc|px)$/.exec(value?.trim() ?? '');
  return m ? Number(m[1]) * EMU[m[2]!]! : null;
}

function boxOf(el: XmlElement): SlideBox | null {
  const [x, y, w, h] = [length(el.attrs.x), length(el.attrs.y), length(el.attrs.width), length(el.attrs.height)];
  return x === null || y === null || w === null || h === null ? null : { x0: x, y0: y, x1: x + w, y1: y + h };
}
