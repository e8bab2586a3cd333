// The document's blocks as the result's `elements`: what every format module
// drafted (or, where it drafted nothing, the paragraphs of its text), with
// running headers and footers taken out of the text unless the client keeps
// them, offsets moved into the final `content`, and pages numbered.

import { TEXT_PAGE_CHARS } from './text-pages.ts';
import { splitByCodePoints } from './text-stats.ts';
import type { DraftElement, ElementType, FormatOutput } from './types.ts';

/** Running headers and footers: always elements, in `content` only when the client asks. */
const FURNITURE: ReadonlySet<ElementType> = new Set(['page_header', 'page_footer']);

/** A draft placed on a page: offsets into that page's text (a flow format's block may run on into the next pages). */
export type PlacedDraft = DraftElement & { page: number };

/**
 * The format's pages and their blocks, each block on the page it starts on.
 * Furniture is cut out of the text when `keepFurniture` is false; a flow
 * format (text pages) is paged again after the cut, so pages hold 3,000
 * characters of what the client reads.
 */
export function placeBlocks(out: FormatOutput, keepFurniture: boolean): { pages: string[]; drafts: PlacedDraft[]; sections?: number[] } {
  // A flow format's blocks are placed in its text as a whole (its pages are cut mid-text); a
  // format that selected its own pages (CSV's rows by text page) placed them page by page.
  if (out.unit === 'text_page' && !out.pagesSelected) {
    const text = out.pages.join(out.pageSeparator);
    const all = out.elements ?? paragraphDrafts(text);
    if (keepFurniture || !all.some((d) => FURNITURE.has(d.type))) return { pages: out.pages, drafts: onPages(all, out.pages), sections: out.sections };
    const cut = cutFurniture(text, all, out.sections);
    const pages = splitByCodePoints(cut.text, TEXT_PAGE_CHARS);
    return { pages, drafts: onPages(cut.drafts, pages), sections: cut.sections };
  }
  const drafts: PlacedDraft[] = out.elements
    ? out.elements.map((d) => ({ ...d, page: d.page ?? 0 }))
    : out.pages.flatMap((text, page) => paragraphDrafts(text).map((d) => ({ ...d, page })));
  if (keepFurniture || !drafts.some((d) => FURNITURE.has(d.type))) return { pages: out.pages, drafts, sections: out.sections };
  const byPage = new Map<number, PlacedDraft[]>();
  for (const d of drafts) {
    const own = byPage.get(d.page);
    if (own) own.push(d);
    else byPage.set(d.page, [d]);
  }
  const pages = out.pages.map((text, page) => {
    const own = byPage.get(page) ?? [];
    const cut = cutFurniture(text, own);
    cut.drafts.forEach((d, i) => Object.assign(own[i]!, d));
    return cut.text;
  });
  // Section offsets point into the uncut text of a paged format only when the format gave them; headings replace them below.
  return { pages, drafts, sections: undefined };
}

/** Runs of non-blank lines: the paragraphs of a text that came without blocks. */
export function paragraphDrafts(text: string): DraftElement[] {
  const drafts: DraftElement[] = [];
  const re = /[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*/g;
  for (const m of text.matchAll(re)) drafts.push({ type: 'paragraph', start: m.index, end: m.index + m[0].length });
  return drafts;
}

/**
 * Cuts the furniture's text out, with the blank space that set it apart, and
 * moves every offset; a cut block keeps its text and an empty range where it stood.
 */
function cutFurniture<T extends DraftElement>(text: string, drafts: T[], sections?: number[]): { text: string; drafts: T[]; sections?: number[] } {
  const cuts: Array<[number, number]> = [];
  for (const d of drafts) {
    if (!FURNITURE.has(d.type) || d.end <= d.start) continue;
    let [s, e] = [d.start, d.end];
    let after = e;
    while (after < text.length && /\s/.test(text[after]!)) after++;
    if (after < text.length || s === 0) e = after;
    else while (s > 0 && /\s/.test(text[s - 1]!)) s--;
    cuts.push([s, e]);
  }
  if (cuts.length === 0) return { text, drafts, sections };
  cuts.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const c of cuts) {
    const last = merged.at(-1);
    if (last && c[0] <= last[1]) last[1] = Math.max(last[1], c[1]);
    else merged.push([...c]);
  }
  // Furniture that ends the text (a page's footer lines) takes the blank space before it too.
  const tail = merged.at(-1)!;
  if (tail[1] === text.length) while (tail[0] > 0 && /\s/.test(text[tail[0] - 1]!)) tail[0]--;
  const move = (x: number) => {
    let shift = 0;
    for (const [s, e] of merged) {
      if (x >= e) shift += e - s;
      else if (x > s) return s - shift;
      else break;
    }
    return x - shift;
  };
  let kept = '';
  let at = 0;
  for (const [s, e] of merged) {
    kept += text.slice(at, s);
    at = e;
  }
  kept += text.slice(at);
  const moved = drafts.map((d) => {
    if (FURNITURE.has(d.type)) {
      const at = Math.min(move(d.start), kept.length);
      return { ...d, text: d.text ?? text.slice(d.start, d.end), start: at, end: at };
    }
    return { ...d, start: move(d.start), end: move(d.end) };
  });
  return { text: kept, drafts: moved, sections: sections?.map(move) };
}

/** Drafts with offsets into the joined text pages, put on the page each starts on. */
export function onPages<T extends DraftElement>(drafts: T[], pages: string[]): Array<T & { page: number }> {
  const starts: number[] = [];
  let at = 0;
  for (const p of pages) {
    starts.push(at);
    at += p.length;
  }
  let page = 0;
  return drafts.map((d) => {
    // Drafts come in reading order; the search starts over only if one goes back.
    if (starts[page]! > d.start) page = 0;
    while (page + 1 < starts.length && starts[page + 1]! <= d.start) page++;
    return { ...d, page, start: d.start - starts[page]!, end: d.end - starts[page]! };
  });
}
