// What each block of a PDF is, read across the whole document: the body
// text's style (the size most characters are set in), headings (larger or
// bolder than the body, or numbered like "5.1"), their levels from the
// ranking of heading styles or their numbering, the title, list items and
// their nesting, captions, code, footnotes, and running headers and footers
// (text repeated at the top or bottom of the pages, and page numbers). Then
// each page is written out as text or Markdown with its element drafts.

import { markdownProse, tableText } from '../../engine/blocks.ts';
import { CAPTION } from './captions.ts';
import { chartsAmong, isChartLabel, isLegendKey, type Label } from './charts.ts';
import { SWATCH } from './drawn-bullets.ts';
import { demoteContentsEntries } from './contents.ts';
import { findFurniture, type Zone } from './furniture.ts';
import { joinLines, SENTENCE_END, type TextBlock } from './layout.ts';
import { LETTER, STARTS_LOWER, STARTS_UPPER } from '../../engine/letters.ts';
import { listingLines } from './listing.ts';
import { outlineKey, type OutlineEntry } from './outline.ts';
import type { BBox, DraftElement, ElementType } from '../../engine/types.ts';

export interface PageTable {
  /** Index into the document's tables. */
  index: number;
  bbox: BBox;
  order: number;
  rows: string[][];
  markdown: string;
  /** The size most of its characters are set in, and how many characters it holds. */
  setIn?: { size: number; chars: number };
}

export interface PageLayout {
  /** The frame the page is read in (page-box.ts): the page as shown, or its own space when its text is set level there. */
  width: number;
  height: number;
  /** Quarter turns clockwise from the frame read in to the page as shown: its elements' boxes are turned by them. */
  turn?: number;
  blocks: TextBlock[];
  tables: PageTable[];
  figures: BBox[];
  /** Drawings made with paths (charts.ts): those with tick labels beside them are charts, figures whose short text is their labels. */
  drawings?: BBox[];
  /** Ruled frames around a drawing's arrows and boxes (charts.ts): those a figure's caption names are figures too. */
  framed?: BBox[];
  /** The page has a structure tree (a tagged PDF): its text is tagged, and untagged text is an artifact. */
  tagged?: boolean;
  /** Its text layer is mostly neither letters nor figures (legibility.ts): read from its picture where OCR is "auto". */
  illegible?: boolean;
  /** The outline entries that point at this page. */
  outline?: OutlineEntry[];
}

interface Classified {
  type: ElementType;
  text: string;
  bbox: BBox;
  order: number;
  /** 0-based index of its page. */
  page: number;
  size: number;
  bold: boolean;
  italic?: boolean;
  /** Free space after its last line, to the block's far edge: less than the next word needs says the paragraph goes on. Infinity for one line. */
  room?: number;
  /** Width of its first word, with the space before it: what a line above needed free to take it. */
  firstWord?: number;
  /** Its first line starts further in than its others: it opens a paragraph, whatever came before. */
  indented?: boolean;
  /** Read after the page's main flow (rotated text). */
  aside?: boolean;
  /** Its level came from a tagged PDF's structure, not from the layout. */
  tagLevel?: boolean;
  /** Its level came from the outline (bookmarks), which counts from its own top entries. */
  outlined?: boolean;
  /** Written right to left: its lines start at the right, where a list item's indent is measured. */
  rtl?: boolean;
  /** Where its first line starts, in its reading direction (negated from the right in right-to-left text): a list item's marker, whose indent says how deep it is nested. */
  start?: number;
  level?: number;
  ordered?: boolean;
  marker?: string;
  table?: PageTable;
}

const NUMBERED = /^((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,5})\.?\s+\S/;
/** A number in brackets, or closed by one, opening a line: "(2) Scope", "2) Scope". Its rank comes from its style. */
const BRACKETED_NUMBER = /^\(?\d{1,2}\)\s*\S/;
/** A sentence's end and the next one's capital inside a text: prose, not a heading. */
const SENTENCES = /\p{L}{2}[.!?]\s+\p{Lu}/u;

/** A bullet alone: the round ones, and the Symbol and Wingdings fonts' (private-use code points). */
const LONE_BULLET = /^[•◦▪‣∙\uf0a7\uf0b7\uf076\uf0d8\uf0fc]$/u;

/** `numbers`: the page number of each layout, so only pages that follow each other are joined. */
export function renderPdfPages(layouts: PageLayout[], numbers: number[], mode: 'text' | 'markdown'): { pages: string[]; elements: DraftElement[] } {
  const body = bodyStyle(layouts);
  const furniture = findFurniture(layouts, body);
  const classified = layouts.map((layout, p) => classifyPage(layout, p, body, furniture[p]!));
  demoteContentsEntries(classified, inFlow);
  assignHeadingLevels(classified.flat(), body.size);
  for (let p = 1; p < classified.length; p++) {
    if (numbers[p] === numbers[p - 1]! + 1) joinAcrossPages(classified[p - 1]!, classified[p]!);
  }
  const pages: string[] = [];
  const elements: DraftElement[] = [];
  classified.forEach((blocks, p) => {
    const written = writePage(blocks, mode);
    pages.push(written.text);
    for (const d of written.drafts) elements.push({ ...d, page: p });
  });
  return { pages, elements };
}

/** Blocks read after a page's flow, or beside it. */
const OUTSIDE_FLOW: ReadonlySet<ElementType> = new Set(['page_header', 'page_footer', 'footnote', 'figure']);

/**
 * A paragraph that runs over a page break is one paragraph: the last of a
 * page's flow, unfinished (its last line full, no closing punctuation), and
 * the first of the next page's, starting in lower case or after a hyphen or
 * comma, in the same size. It is kept whole on the page where it starts.
 */
function joinAcrossPages(before: Classified[], after: Classified[]): void {
  const last = before.filter(inFlow).at(-1);
  const first = after.find(inFlow);
  if (!last || !first) return;
  const lead = leadRunsOn(last, first);
  if (lead || runsOn(last, first)) {
    join(last, first);
    after.splice(after.indexOf(first), 1);
  }
  if (lead) {
    last.type = 'paragraph';
    delete last.level;
  }
}

/**
 * A paragraph's bold lead cut off by a page break stands alone at the page's
 * foot, one bold line that passes for a heading: it runs on into the next
 * page's plain paragraph when it stops mid-sentence, the paragraph carries the
 * sentence on in lower case at its margin, and the line is as wide as the
 * paragraph's lines less its first word (a heading would leave room).
 */
function leadRunsOn(last: Classified, next: Classified): boolean {
  if (last.type !== 'heading' || last.tagLevel || !last.bold || next.type !== 'paragraph' || next.bold) return false;
  if (Number.isFinite(last.room) || !Number.isFinite(next.room) || Math.abs(last.size - next.size) > 0.5) return false;
  if (STOPPED.test(last.text) || !OPENS_LOWER.test(next.text)) return false;
  return sameMargin(last, next) && asWideAs(last, next);
}

const inFlow = (c: Classified) => !OUTSIDE_FLOW.has(c.type) && !c.aside;

/** Ends a sentence or a clause: a stop, perhaps inside quotes or brackets. */
const STOPPED = /[.!?:;。！？]["'”’)\]]?$/;

/** Opens in lower case, past any bracket or quote: a sentence carried on. */
const OPENS_LOWER = /^[\p{Ps}\p{Pi}"']*\p{Ll}/u;

/** The room a line must lack for `next`'s first word to have been carried to the next line: a ragged edge still ends full lines. */
const wordRoom = (last: Classified, next: Classified) => Math.max(1.5 * last.size, next.firstWord ?? 0);

/** Set at one margin (the right one in right-to-left text), within an em. */
const sameMargin = (last: Classified, next: Classified) => {
  const edge = last.rtl ? 2 : 0;
  return Math.abs(last.bbox[edge] - next.bbox[edge]) <= last.size;
};

/** `last`, one line, as wide as the lines of `next` less its first word: a full line, as far as one line can show. */
const asWideAs = (last: Classified, next: Classified) => last.bbox[2] - last.bbox[0] + wordRoom(last, next) >= next.bbox[2] - next.bbox[0];

/** Whether `next` carries on the paragraph `last` leaves unfinished. */
function runsOn(last: Classified, next: Classified): boolean {
  // A line ends short of its edge when the next word would not fit: a ragged right edge still ends full lines.
  const full = (last.room ?? Infinity) < wordRoom(last, next);
  // A heading is told from text by its style: a block set as the unfinished paragraph above it is that paragraph's
  // tail (a paragraph set large, broken over a page), unless the outline or the tags name it a heading.
  const tail = next.type === 'paragraph' || (next.type === 'heading' && !next.tagLevel && next.bold === last.bold);
  // A paragraph's line ended short by hand (a document converted line by line) still runs on into a next page that
  // opens in lower case at the same margin. A block of one line shows no edge of its own: it runs on when it is as
  // wide as the lines of the next block, less its first word (an orphaned first line, not an index entry or a verse).
  const lower =
    OPENS_LOWER.test(next.text) && !next.indented && sameMargin(last, next) && (Number.isFinite(last.room) || (Number.isFinite(next.room) && asWideAs(last, next)));
  if (last.type !== 'paragraph' || !tail || !(full || lower) || Math.abs(last.size - next.size) > 0.5) return false;
  if (STOPPED.test(last.text)) return false;
  if (lower || /^[a-z\u00df-\u00ff]/.test(next.text) || /[a-z\u00df-\u00ff]-$/.test(last.text) || /,$/.test(last.text)) return true;
  // A sentence cut before a capital ("open-domain | QA datasets", "in | 2020"): prose (a table of
  // contents' entries and labels are short, or run on with leader dots) whose full last line has no
  // stop after its last word, and a next block that does not open with an indent.
  return last.text.length >= 150 && !/\.{4}|…{2}/.test(last.text) && /[\p{L}\p{N})\]]$/u.test(last.text) && !next.indented;
}

function join(last: Classified, next: Classified): void {
  const hyphen = /[a-z\u00df-\u00ff]-$/.test(last.text) && /^[a-z\u00df-\u00ff]/.test(next.text);
  last.text = hyphen ? last.text.slice(0, -1) + next.text : `${last.text} ${next.text}`;
}

/** A paragraph cut by a column break (the next block starts higher up, in the next column) is one paragraph. */
function joinAcrossColumns(blocks: Classified[]): Classified[] {
  const out: Classified[] = [];
  let last: Classified | undefined;
  for (const c of blocks) {
    // The next column stands to the right, or in a right-to-left text to either side (as its producer set the columns).
    const nextColumn = last && (c.bbox[0] > last.bbox[0] || (last.rtl && c.rtl && c.bbox[2] < last.bbox[2]));
    if (last && inFlow(c) && c.bbox[1] < last.bbox[1] && nextColumn && runsOn(last, c)) {
      join(last, c);
      continue;
    }
    out.push(c);
    if (inFlow(c)) last = c;
  }
  return out;
}

/** Whether a block's first line starts an em or more further in (in its reading direction) than the lines under it. */
function indentedFirstLine(block: TextBlock): boolean {
  const [first, ...rest] = block.lines;
  if (!first || rest.length === 0) return false;
  const start = (l: { x0: number; x1: number }) => (first.rtl ? -l.x1 : l.x0);
  return start(first) - Math.min(...rest.map(start)) > 0.9 * block.size;
}

/** The size and weight most of the document's characters are set in. */
function bodyStyle(layouts: PageLayout[]): Body {
  const bySize = new Map<number, number>();
  // Per size, the characters of blocks that read as headings: one short line that ends no sentence.
  const lone = new Map<number, number>();
  let bold = 0;
  let italic = 0;
  let all = 0;
  for (const layout of layouts) {
    for (const block of layout.blocks) {
      if (block.mono) continue;
      const short = block.lines.length === 1 && block.lines[0]!.text.split(/\s+/).length <= 12 && !SENTENCE_END.test(block.lines[0]!.text);
      for (const line of block.lines) {
        bySize.set(line.size, (bySize.get(line.size) ?? 0) + line.text.length);
        if (short) lone.set(line.size, (lone.get(line.size) ?? 0) + line.text.length);
        all += line.text.length;
        if (line.bold) bold += line.text.length;
        if (line.italic) italic += line.text.length;
      }
    }
  }
  const ranked = (sizes: Map<number, number>) => [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  let size = ranked(bySize)[0]?.[0] ?? 10;
  // A size set in short lone lines only is a heading style, not the body's, where smaller text (its tables' cells
  // counted, in a document whose text stands mostly in tables: a form, a specification) holds as much: the
  // body is that.
  if ((lone.get(size) ?? 0) >= 0.8 * (bySize.get(size) ?? 0)) {
    const smaller = new Map([...bySize].filter(([s]) => s < size));
    for (const t of layouts.flatMap((l) => l.tables)) if (t.setIn && t.setIn.size < size) smaller.set(t.setIn.size, (smaller.get(t.setIn.size) ?? 0) + t.setIn.chars);
    const [next, chars] = ranked(smaller)[0] ?? [0, 0];
    if (chars >= (bySize.get(size) ?? 0)) size = next;
  }
  const families = new Map<string | undefined, number>();
  for (const layout of layouts) {
    for (const block of layout.blocks) for (const line of block.lines) if (line.size === size && !line.mono) families.set(line.family, (families.get(line.family) ?? 0) + line.text.length);
  }
  const family = [...families].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { size, bold: bold > all * 0.5, italic: italic > all * 0.5, family };
}

/** The style most of a document's text is set in. */
interface Body {
  size: number;
  bold: boolean;
  italic: boolean;
  family?: string;
}

/** Set a step larger than the body and in another typeface (a sans heading over serif text), however light its weight. */
function otherFace(block: TextBlock, body: Body): boolean {
  return block.family !== undefined && body.family !== undefined && block.family !== body.family && block.size >= 1.03 * body.size;
}

function classifyPage(layout: PageLayout, page: number, body: Body, furniture: Map<TextBlock, Zone>): Classified[] {
  const out: Classified[] = [];
  const title = slideTitleSize(layout, body, furniture);
  const labels = layout.blocks.map((b): Label => ({ bbox: [round(b.x0), round(b.y0), round(b.x1), round(b.y1)], text: joinLines(b.lines), lines: b.lines.length, size: b.size }));
  const charts = chartsAmong(layout.drawings ?? [], labels, layout.framed);
  for (const [i, block] of layout.blocks.entries()) {
    const label = labels[i]!;
    const { bbox, text } = label;
    // A bullet with nothing after it is an empty list item: it says nothing (a Symbol font's bullet is not even a character).
    if (LONE_BULLET.test(text)) continue;
    const last = block.lines.at(-1)!;
    const room = block.lines.length < 2 ? Infinity : last.rtl ? last.x0 - block.x0 : block.x1 - last.x1;
    const first = block.lines[0]!.words[0]!;
    const indented = indentedFirstLine(block);
    const base = { bbox, order: block.order, text, page, size: block.size, bold: block.bold, italic: block.italic, room, firstWord: first.x1 - first.x0 + 0.3 * block.size, rtl: block.lines[0]!.rtl, indented, start: block.lines[0]!.rtl ? -block.lines[0]!.x1 : block.lines[0]!.x0 };
    const zone = furniture.get(block);
    const tagged = layout.tagged ? byTag(block, text, base) : null;
    const key = layout.outline && block.lines.length <= 3 && text.length <= 300 ? outlineKey(text) : null;
    const listed = key ? layout.outline!.find((e) => e.key === key) : undefined;
    if (zone) out.push({ ...base, type: zone });
    else if (tagged) out.push(tagged);
    // The outline lists it: a heading at the outline's depth.
    else if (listed) out.push({ ...base, type: 'heading', level: listed.level, tagLevel: true, outlined: true });
    // One line in a fixed-pitch font is an address or a name more often than code.
    else if (block.mono && (block.lines.length > 1 || /[{}();=<>]/.test(text)) && !block.marker) out.push({ ...base, type: 'code', text: listingLines(block).join('\n') });
    // Rotated text (a margin stamp, a label along an axis) is kept as a paragraph, after the page's flow.
    else if (block.lines[0]!.rotated) out.push({ ...base, type: 'paragraph', aside: true });
    else if (CAPTION.test(text) && text.length < 600) out.push({ ...base, type: 'caption' });
    // A chart's tick labels, axis titles and legend keys (a small square drawn before each) are kept with the page's
    // asides, never headings or list items.
    else if (charts.length > 0 && isChartLabel(label, charts)) out.push({ ...base, type: 'paragraph', aside: true });
    else if (charts.length > 0 && block.marker?.text === SWATCH && isLegendKey(label, charts)) out.push({ ...base, type: 'paragraph', aside: true, text: markerless(block, text) });
    // "1. Introduction" set bold or large on a line of its own is a numbered heading, not a list item.
    else if (block.marker?.ordered && numberedHeadingLines(block, text) && (block.bold || block.size >= body.size * 1.15 || otherFace(block, body)) && !body.bold && (title === null || block.size >= 0.95 * title) && isHeading(block, text, body)) out.push({ ...base, type: 'heading' });
    else if (block.marker) out.push({ ...base, type: 'list_item', text: markerless(block, text), ordered: block.marker.ordered, marker: block.marker.text, level: 0 });
    else if ((title === null || block.size >= 0.95 * title) && isHeading(block, text, body, () => leadsInto(layout.blocks, i))) out.push({ ...base, type: 'heading' });
    else if (isFootnote(block, text, body, layout.height)) out.push({ ...base, type: 'footnote' });
    // Small print at a column's foot (a paper's copyright and permission notice) is read after the page's flow, so
    // the paragraph it stands under runs on into the next column or page past it.
    else if (isSmallPrint(block, body, layout, furniture)) out.push({ ...base, type: 'paragraph', aside: true });
    else out.push({ ...base, type: 'paragraph' });
  }
  for (const table of layout.tables) out.push({ type: 'table', text: tableText(table.rows), bbox: table.bbox, order: table.order, page, size: body.size, bold: false, table });
  out.sort((a, b) => a.order - b.order);
  notHeadingsSideBySide(out);
  placeFigures(out, [...layout.figures, ...charts.map((c) => c.box)], page);
  nestListItems(out);
  // Footnotes after the page's main flow; headers first and footers last, wherever the content stream drew them.
  const rank = (c: Classified) => (c.type === 'page_header' ? 0 : c.type === 'footnote' || c.aside ? 2 : c.type === 'page_footer' ? 3 : 1);
  const ordered = out.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map(({ c }) => c);
  return joinAcrossColumns(ordered);
}

/** A block's text after its list marker. */
function markerless(block: TextBlock, text: string): string {
  return block.marker && text.startsWith(block.marker.text) ? text.slice(block.marker.text.length).trim() : text;
}

/**
 * Short bold blocks side by side on one baseline are a table's header row or
 * column labels, not headings: a heading has its line to itself, or its
 * column (each of two blocks side by side heads prose of its own below it).
 */
function notHeadingsSideBySide(out: Classified[]): void {
  const headings = out.filter((c) => c.type === 'heading');
  const headsProse = (h: Classified) =>
    out.some((c) => c.type === 'paragraph' && c.text.length >= 120 && overlapsX(c.bbox, h.bbox) && c.bbox[1] >= h.bbox[3] - 1 && c.bbox[1] - h.bbox[3] < 3 * h.size);
  for (const h of headings) {
    const beside = headings.some(
      (o) => o !== h && Math.abs(o.bbox[3] - h.bbox[3]) < 2 && Math.abs(o.size - h.size) < 0.5 && (o.bbox[0] > h.bbox[2] || o.bbox[2] < h.bbox[0]) && !(headsProse(h) && headsProse(o)),
    );
    if (beside) h.type = 'paragraph';
  }
}

/**
 * A tagged block as its tag names it. Paragraph-like roles (P, BlockQuote,
 * table cells) are left to the layout rules, which still find a title or a
 * heading a tool tagged as P, and running headers a tool left untagged.
 */
function byTag(block: TextBlock, text: string, base: Omit<Classified, 'type'>): Classified | null {
  const role = block.lines[0]!.tag?.role;
  if (!role) return null;
  const level = /^H([1-6])$/.exec(role);
  if (level) return { ...base, type: 'heading', level: Number(level[1]), tagLevel: true };
  switch (role) {
    case 'H':
      return { ...base, type: 'heading' };
    case 'Title':
      return { ...base, type: 'title', level: 1, tagLevel: true };
    case 'LI': {
      const marker = block.marker;
      const own = marker && text.startsWith(marker.text) ? text.slice(marker.text.length).trim() : text;
      return { ...base, type: 'list_item', text: own, ordered: marker?.ordered ?? false, marker: marker?.text ?? '', level: block.lines[0]!.tag!.depth, tagLevel: true };
    }
    case 'Caption':
      return { ...base, type: 'caption' };
    case 'Code':
      return { ...base, type: 'code', text: listingLines(block).join('\n') };
    case 'Note':
      return { ...base, type: 'footnote' };
    case 'Formula':
      return { ...base, type: 'formula' };
    default:
      return null;
  }
}

/**
 * On a slide (a landscape page whose text is set large for its height, as a deck exported to PDF is),
 * the size of its title: the largest text on it, when that is larger than the deck's body text. Only
 * its title is a heading there; the rest is the slide's content, however large (a subtitle, a lead-in
 * line over bullets, text a placeholder shrank or grew to fit). Null on any other page.
 */
function slideTitleSize(layout: PageLayout, body: { size: number }, furniture: Map<TextBlock, Zone>): number | null {
  // A slide's body text is a fiftieth of its height or more, its title a twentieth (a landscape report's 10-point text and 16-point headings are far less).
  if (layout.width <= layout.height || body.size < 0.02 * layout.height) return null;
  const sizes = layout.blocks.filter((b) => !furniture.has(b) && !b.lines[0]!.rotated).map((b) => b.size);
  const largest = Math.max(...sizes, 0);
  if (largest < 0.05 * layout.height) return null;
  return largest >= 1.15 * body.size ? largest : Infinity;
}

/**
 * Whether the block stands closer to the block under it than to the one over it, as a heading binds to the text
 * it heads (a letter's signature line sits as close to the letter as to what follows).
 */
function leadsInto(blocks: readonly TextBlock[], i: number): boolean {
  const [block, above, below] = [blocks[i]!, blocks[i - 1], blocks[i + 1]];
  if (!below || below.y0 < block.y1) return false;
  const over = above && above.y1 <= block.y0 ? block.y0 - above.y1 : Infinity;
  return over - (below.y0 - block.y1) > 0.5 * block.size;
}

/** `leads`: asked only of the weakest heading style, whether the block stands closer to the text it would head. */
function isHeading(block: TextBlock, text: string, body: Body, leads: () => boolean = () => true): boolean {
  if (block.lines.length > 3 || text.length > 200 || !LETTER.test(text)) return false;
  if (/[,;]$/.test(text)) return false;
  // Fixed-pitch text (plain text printed, a web page's <pre>) is set in the size its font was given, whatever the
  // size of the text around it, not larger for emphasis: only bold makes a line of it a heading.
  if (block.mono && !block.bold) return false;
  // Words set columns apart on a line (two gaps of two ems or more) are a table's labels, not a heading: a
  // heading's words run as a sentence's do, a tab at most parting its number from its title.
  if (block.lines.some((l) => wideGaps(l.words, block.size) >= 2)) return false;
  const ratio = block.size / body.size;
  // A block that opens in lower case carries on a sentence (a line OCR measured tall, a paragraph's tail),
  // unless it is a few words of display type (a title set in lower case by design).
  if (STARTS_LOWER.test(text) && !(ratio >= 1.5 && text.split(/\s+/).length <= 6)) return false;
  const numbered = (NUMBERED.test(text) || BRACKETED_NUMBER.test(text)) && text.length <= 120;
  // Prose set large (a lead paragraph, a pull quote) runs longer than a heading and holds a sentence break.
  const words = text.split(/\s+/).length;
  // (A stop after a number is a label's: "Chapter 1. Securing ...".)
  if (!numbered && (words > 14 || SENTENCES.test(text))) return false;
  // A full sentence in a larger font is a pull quote or a lead paragraph more often than a heading.
  if (/[.!?]$/.test(text) && !numbered && (ratio < 1.3 || text.split(' ').length > 12)) return false;
  if (ratio >= 1.15) return true;
  if (ratio < 0.9) return false;
  const bolder = block.bold && !body.bold;
  // A bold line in the body's size that ends in a colon is a label over what follows ("Practice Tips:"), not a heading.
  if (bolder && block.lines.length <= 2 && text.length <= 120 && !text.endsWith(':')) return true;
  // An italic line of a few words on its own where the body is upright, opening with a capital and ending without a
  // stop, nearer the text under it than the text over it (a handbook's lowest headings): an italic sentence, a
  // quotation or a label ends with its punctuation, and a signature line closes the text over it.
  if (block.italic && !body.italic && block.lines.length === 1 && words <= 8 && STARTS_UPPER.test(text) && /[\p{L}\p{N})]$/u.test(text) && leads()) return true;
  return numbered && (block.bold || ratio >= 1.08 || otherFace(block, body));
}

/**
 * Whether a numbered block is short enough to be a heading: one line, or a bold title wrapped onto a second
 * (a numbered question in bold, "23. If your country has ...?", is an item of a questionnaire's list).
 */
function numberedHeadingLines(block: TextBlock, text: string): boolean {
  return block.lines.length === 1 || (block.lines.length === 2 && block.bold && block.lines.every((l) => l.bold) && !text.endsWith('?'));
}

/** How many gaps between a line's words are two ems wide or wider. */
function wideGaps(words: readonly { x0: number; x1: number }[], size: number): number {
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  let n = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.x0 - sorted[i - 1]!.x1 >= 2 * size) n++;
  return n;
}

function isFootnote(block: TextBlock, text: string, body: { size: number }, height: number): boolean {
  if (block.size > body.size * 0.9 || block.y0 < height * 0.6) return false;
  const first = block.lines[0]!.words[0]!;
  const raised = first.size < block.size * 0.85 || first.bottom > block.lines[0]!.words.at(-1)!.bottom + 1;
  return /^(?:\d{1,3}|[*†‡§¶])\s?\S/.test(text) || raised;
}

/**
 * A block in small type (a tenth under the body's size or smaller) in the lower part of the page, under body text
 * in its column (perhaps past more small print), with nothing under it in its column but more small print and the
 * page's running footer.
 */
function isSmallPrint(block: TextBlock, body: { size: number }, layout: PageLayout, furniture: Map<TextBlock, Zone>): boolean {
  const small = (b: TextBlock) => b.size <= body.size * 0.9;
  if (!small(block) || block.y0 < layout.height * 0.6) return false;
  const column = layout.blocks.filter((b) => b !== block && !furniture.has(b) && b.x0 < block.x1 && b.x1 > block.x0);
  if (column.some((b) => !small(b) && b.y0 > block.y1)) return false;
  // Nor a table or a picture under it: a table's header labels set small, a figure's labels.
  if ([...layout.tables.map((t) => t.bbox), ...layout.figures].some((box) => box[1] > block.y1 && box[0] < block.x1 && box[2] > block.x0)) return false;
  // The nearest block above that is not small print is the column's running text, and the small print from it down
  // starts in the page's lower part, without a heading of its own: a reference list set small starts higher up,
  // under its heading.
  const above = column.filter((b) => !small(b) && b.y1 <= block.y0).sort((a, b) => b.y1 - a.y1)[0];
  if (above === undefined || above.bold || above.size > body.size * 1.1) return false;
  return column.every((b) => b.y0 < above.y1 || b.y0 > block.y1 || (b.y0 >= layout.height * 0.6 && !b.bold));
}

/**
 * Figures go before the first block that starts below their top edge, or last; but after every block that stands
 * above them across their width, which a footer or a margin line the stream draws first would otherwise precede.
 */
function placeFigures(out: Classified[], figures: BBox[], page: number): void {
  const flow = (c: Classified) => c.type !== 'page_header' && c.type !== 'page_footer' && !c.aside;
  for (const bbox of figures) {
    let from = 0;
    out.forEach((c, i) => {
      if (flow(c) && c.bbox[3] <= bbox[1] + 1 && overlapsX(c.bbox, bbox)) from = i + 1;
    });
    const at = out.findIndex((c, i) => i >= from && c.type !== 'page_header' && c.bbox[1] >= bbox[1] - 1 && overlapsX(c.bbox, bbox));
    const figure: Classified = { type: 'figure', text: '', bbox, order: at >= 0 ? out[at]!.order : Number.MAX_SAFE_INTEGER, page, size: 0, bold: false };
    if (at >= 0) out.splice(at, 0, figure);
    else out.push(figure);
  }
}

function overlapsX(a: BBox, b: BBox): boolean {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0;
}

/** Consecutive list items nest by how far their markers are indented: each new indent is one level deeper. */
function nestListItems(out: Classified[]): void {
  let indents: number[] = [];
  let last: Classified | undefined;
  for (const c of out) {
    if (c.tagLevel && c.type === 'list_item') continue;
    if (c.type !== 'list_item') {
      if (c.type !== 'figure' && c.type !== 'page_header' && c.type !== 'page_footer') indents = [];
      continue;
    }
    // An item standing higher than the one before it opens the next column: its indent is measured afresh.
    if (last && c.bbox[1] < last.bbox[1]) indents = [];
    last = c;
    // Where its marker stands, not its box's edge: an item's lines may wrap back to the margin, left of its marker.
    const x = c.start ?? (c.rtl ? -c.bbox[2] : c.bbox[0]);
    while (indents.length > 0 && x < indents.at(-1)! - 3) indents.pop();
    if (indents.length === 0 || x > indents.at(-1)! + 3) indents.push(x);
    c.level = indents.length - 1;
  }
}

/**
 * Heading levels: by numbering depth where a heading is numbered ("2.3" is
 * level 2; "(1)" one under the numbered heading before it), else by the rank
 * of its style (larger first, bold before regular at one size). A first-page
 * block set larger than every heading is the title.
 */
function assignHeadingLevels(all: Classified[], bodySize: number): void {
  const headings = all.filter((c) => c.type === 'heading');
  if (headings.length === 0) return;
  // Larger first; at one size bold, then upright, then italic.
  const style = (c: Classified) => Math.round(c.size * 2) * 4 + (c.bold ? 2 : 0) + (c.italic ? 0 : 1);
  let styles = [...new Set(headings.map(style))].sort((a, b) => b - a);
  // Under a title, the document's headings start at level 2.
  let under = 0;
  // The title: the first heading of the document, alone in its style, set larger than any other and well above the body.
  const first = headings[0]!;
  if (style(first) === styles[0] && first.size >= bodySize * 1.3 && headings.filter((h) => style(h) === styles[0]).length === 1 && first.page === 0) {
    first.type = 'title';
    first.level = 1;
    styles = styles.slice(1);
    under = 1;
  }
  // A title the outline leaves out (a Title style is not a bookmark) sits above the outline's top entries.
  const title = all.find((c) => c.type === 'title');
  const outlineUnder = title && !title.outlined ? 1 : 0;
  for (const h of headings) if (h.outlined && h.type === 'heading') h.level = Math.min(6, h.level! + outlineUnder);
  // A heading the outline or the tags leave out, set in the style of headings they give a level, is at that level
  // (a manual's "1. Equal Opportunity Laws" in the bold its bookmarked "1. BANKS" has), whatever its numbering says.
  const levelOfStyle = styleLevels(headings.filter((h) => h.tagLevel && h.type === 'heading'), style);
  // The depth of the last heading numbered "2" or "2.3": a "(1)" heading after it is one level under it.
  let numberedDepth = 0;
  for (const h of headings) {
    if (h.type === 'title' || h.tagLevel) continue;
    const numbered = NUMBERED.exec(h.text);
    const depth = numbered && /^\d/.test(numbered[1]!) ? numbered[1]!.split('.').length : 0;
    if (depth > 0) numberedDepth = depth;
    const known = levelOfStyle.get(style(h));
    if (known !== undefined) {
      h.level = known;
      continue;
    }
    const bracketed = depth === 0 && numberedDepth > 0 && BRACKETED_NUMBER.test(h.text) ? numberedDepth + 1 : 0;
    h.level = Math.min(6, under + (depth || bracketed || styles.indexOf(style(h)) + 1));
  }
}

/** Per style, the level most of the given headings in it have. */
function styleLevels(headings: Classified[], style: (c: Classified) => number): Map<number, number> {
  const counts = new Map<number, Map<number, number>>();
  for (const h of headings) {
    const levels = counts.get(style(h)) ?? new Map<number, number>();
    levels.set(h.level!, (levels.get(h.level!) ?? 0) + 1);
    counts.set(style(h), levels);
  }
  return new Map([...counts].map(([key, levels]) => [key, [...levels].reduce((a, b) => (b[1] > a[1] ? b : a))[0]]));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The page's blocks written out: a blank line between blocks, a line break between list items. */
function writePage(blocks: Classified[], mode: 'text' | 'markdown'): { text: string; drafts: DraftElement[] } {
  let text = '';
  const drafts: DraftElement[] = [];
  let lastWasItem = false;
  for (const c of blocks) {
    const rendered = render(c, mode);
    const base: DraftElement = {
      type: c.type,
      start: text.length,
      end: text.length,
      bbox: c.bbox,
      ...(c.level !== undefined && (c.type === 'heading' || c.type === 'title' || c.type === 'list_item') ? { level: c.level } : {}),
      ...(c.ordered !== undefined ? { ordered: c.ordered } : {}),
      ...(c.table ? { table: c.table.index } : {}),
    };
    if (rendered === '') {
      drafts.push({ ...base, text: c.text });
      continue;
    }
    if (text !== '') text += c.type === 'list_item' && lastWasItem ? '\n' : '\n\n';
    drafts.push({ ...base, start: text.length, end: text.length + rendered.length, ...(rendered !== c.text ? { text: c.text } : {}) });
    text += rendered;
    lastWasItem = c.type === 'list_item';
  }
  return { text, drafts };
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** The position a letter or roman-numeral label stands for: "b" 2, "iv" 4; a lone "i" is read as roman, as lists mostly mean it. */
function ordinal(marker: string): number {
  const label = marker.replace(/[().]/g, '').toLowerCase();
  if (/^[ivxlc]+$/.test(label) && (label.length > 1 || 'ivx'.includes(label))) {
    let n = 0;
    for (let k = 0; k < label.length; k++) {
      const [v, next] = [ROMAN[label[k]!]!, ROMAN[label[k + 1] ?? ''] ?? 0];
      n += v < next ? -v : v;
    }
    return n;
  }
  return /^[a-z]$/.test(label) ? label.charCodeAt(0) - 96 : 1;
}

function render(c: Classified, mode: 'text' | 'markdown'): string {
  const md = mode === 'markdown';
  switch (c.type) {
    case 'title':
      return md ? `# ${c.text}` : c.text;
    case 'heading':
      return md ? `${'#'.repeat(c.level ?? 1)} ${c.text}` : c.text;
    case 'list_item': {
      // "3.", "3)", "(3)", and ".3" as a right-to-left line may give it.
      const number = /^[(.]?(\d{1,3})[.)]?$/.exec(c.marker ?? '');
      const indent = md ? '  '.repeat(c.level ?? 0) : '';
      if (number) return `${indent}${number[1]}. ${c.text}`;
      // Markdown numbers its ordered items only: "(b)" and "ii." become 2., as a DOCX's lettered list does; text keeps the label.
      if (c.ordered) return md ? `${indent}${ordinal(c.marker ?? '')}. ${c.text}` : `${c.marker} ${c.text}`;
      // Text output keeps the bullet the document shows.
      return md ? `${indent}- ${c.text}` : c.marker ? `${c.marker} ${c.text}` : c.text;
    }
    case 'code':
      return md ? '```\n' + c.text + '\n```' : c.text;
    case 'table':
      return md ? c.table!.markdown : c.text;
    case 'figure':
      return '';
    default:
      return md ? markdownProse(c.text) : c.text;
  }
}
