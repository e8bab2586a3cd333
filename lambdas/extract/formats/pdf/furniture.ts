// Running headers, footers and page numbers of a PDF: blocks in a page's top
// or bottom band that repeat from page to page (through the document, or
// through a chapter that names itself in them), page numbers by their form,
// and in a tagged PDF the text its structure tree leaves out (artifacts).

import { blockOf, joinLines, type Line, type TextBlock } from './layout.ts';
import type { PageLayout } from './structure.ts';

export type Zone = 'page_header' | 'page_footer';

/** Top and bottom bands of a page where running headers and footers sit. */
const FURNITURE_BAND = 0.14;
const PAGE_NUMBER = /^(?:(?:page|seite|página|pagina|p\.)\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,7}|[A-Z]?\d{1,3}[-–]\d{1,4})\s*[-–—)\]]?(?:\s*(?:of|\/|de|von|sur)\s*\d{1,4})?$/i;

/**
 * Per page, the blocks that are running headers (top band) or footers (bottom
 * band). A footer set as close under a page's last paragraph as its lines are
 * to each other reads as that paragraph's last lines: those are cut off into a
 * block of their own first, so `layouts`' blocks may change.
 */
export function findFurniture(layouts: PageLayout[], body: Style): Array<Map<TextBlock, Zone>> {
  const pages = layouts.filter((l) => l.blocks.length > 0).length;
  cutRunningLines(layouts, pages);
  const candidates = layouts.map((layout, p) =>
    layout.blocks
      .map((block) => {
        const zone = zoneOf(block, layout.height);
        if (!zone || block.lines.length > 3) return null;
        // Only repetition says a block reaching above the bottom band is a footer (not a figure's label, not a last line).
        const inBand = zone === 'page_header' || block.y0 >= layout.height * (1 - FURNITURE_BAND);
        const text = joinLines(block.lines);
        if (text.length > 200) return null;
        // A page whose footer lines stand a little further apart reads them as blocks of their own: each line is counted too.
        const lineKeys = block.lines.length > 1 ? block.lines.map((line) => furnitureKey(zone, line.text)) : [];
        return { block, zone, inBand, key: furnitureKey(zone, text), lineKeys, text, page: p };
      })
      .filter((c) => c !== null),
  );
  // A page that repeats an earlier one word for word (a letter printed or scanned twice) repeats its first and last
  // lines because it repeats everything: it is not counted as another page they run through.
  const seen = new Set<string>();
  const copies = layouts.map((l) => {
    const text = l.blocks.map((b) => joinLines(b.lines)).join('\n');
    const copy = text !== '' && seen.has(text);
    seen.add(text);
    return copy;
  });
  const repetition = repeatedKeys(
    candidates.map((page, p) => (copies[p] ? [] : page.flatMap((c) => [c.key, ...c.lineKeys]))),
    pages - copies.filter(Boolean).length,
  );
  const titles = exactTexts(candidates.flat());
  // Keys seen on a page that has text of its own beside them, away from the bands.
  const besideText = new Set(candidates.flatMap((page, p) => (layouts[p]!.blocks.length > page.length ? page.map((c) => c.key) : [])));
  return candidates.map((page, p) => {
    const found = new Map<TextBlock, Zone>();
    // A tagged PDF leaves its running headers and footers out of the structure tree (they are artifacts).
    const artifact = (c: (typeof page)[number]) => layouts[p]!.tagged === true && c.block.lines[0]!.tag === undefined;
    const blocks = layouts[p]!.blocks;
    // The page's first or last line, where running heads sit (a table of contents' lines sit between others).
    const outermost = (c: (typeof page)[number]) =>
      c.zone === 'page_header' ? blocks.every((b) => b.y0 >= c.block.y0) : blocks.every((b) => b.y1 <= c.block.y1);
    const keys = (c: (typeof page)[number]) => [c.key, ...(c.lineKeys.length > 0 ? [c.lineKeys] : [])];
    // Through the document, or by its shape.
    const everywhere = (key: string | string[]) => (Array.isArray(key) ? key.every(repetition.throughout) : repetition.throughout(key));
    // A title set as a heading and repeated word for word on the next or last page, where others differ from
    // it only in their numbers, is an exhibit's or a table's title over each of its pages ("Return Form 941
    // Display", "Return Form 1120 Display"); a running head's number changes from page to page.
    const continuedTitle = (c: (typeof page)[number]) =>
      styled(c.block, body) && (titles.variants.get(c.key)?.size ?? 0) > 1 && [p - 1, p + 1].some((q) => titles.pages[q]?.has(c.text));
    // A number set a line under text at the top of a page ends that text: a title's year wrapped onto a line of its own
    // ("... EXCHANGE ACT OF" over "1934"). A running head's number under its title is found by repetition instead.
    const wrappedUnder = (c: (typeof page)[number]) =>
      c.zone === 'page_header' &&
      blocks.some(
        (b) => b !== c.block && b.y0 < c.block.y0 && c.block.y0 - b.y1 < c.block.size && Math.min(b.x1, c.block.x1) > Math.max(b.x0, c.block.x0),
      );
    const numbered = (c: (typeof page)[number]) => PAGE_NUMBER.test(c.text) && !wrappedUnder(c);
    for (const c of page) {
      if ((keys(c).some(everywhere) && !continuedTitle(c)) || (c.inBand && (numbered(c) || (numberSetApart(c.block) && outermost(c)) || artifact(c)))) found.set(c.block, c.zone);
    }
    // Through a chapter: only outside the page's own text (a figure's labels may repeat on the pages of a
    // sequence) and set no larger or bolder than the body (an exhibit's title repeats on each of its pages).
    const outside = (c: (typeof page)[number]) =>
      blocks.every((b) => b === c.block || found.has(b) || (c.zone === 'page_header' ? b.y0 >= c.block.y0 : b.y1 <= c.block.y1));
    const nearby = (key: string | string[]) => (Array.isArray(key) ? key : [key]).every((k) => repetition.nearby(k, p));
    for (const c of page) if (!found.has(c.block) && !styled(c.block, body) && keys(c).some(nearby) && outside(c)) found.set(c.block, c.zone);
    takeNeighbours(page, found);
    // Headers and footers run beside a page's own text, tables or figures: a page holding nothing else keeps
    // its lines, unless they run on most pages and beside text on some (a page left blank but for its head
    // and footer).
    const running = (block: TextBlock) => {
      const c = page.find((candidate) => candidate.block === block);
      return c !== undefined && repetition.onMost(c.key) && besideText.has(c.key);
    };
    if (found.size === blocks.length && layouts[p]!.tables.length === 0 && layouts[p]!.figures.length === 0) for (const block of [...found.keys()]) if (!running(block)) found.delete(block);
    return found;
  });
}

/**
 * Adds to `found` what runs with a block it holds: what shares its line ("2    Z. Shen et al." beside
 * a page number) and, in the footer, a line no larger stacked on it with no gap (a report's name over
 * its page number; a section's heading set close under a running head is not one).
 */
function takeNeighbours(page: Array<{ block: TextBlock; zone: Zone; inBand: boolean }>, found: Map<TextBlock, Zone>): void {
  const sameLine = (a: TextBlock, b: TextBlock) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0);
  const stacked = (footer: TextBlock, b: TextBlock) =>
    b.lines.length === 1 &&
    b.size <= footer.size * 1.1 &&
    Math.min(footer.x1, b.x1) > Math.max(footer.x0, b.x0) &&
    Math.max(footer.y0, b.y0) - Math.min(footer.y1, b.y1) < 0.25 * Math.min(footer.size, b.size);
  for (let more = true; more; ) {
    more = false;
    for (const c of page) {
      if (!c.inBand || found.has(c.block)) continue;
      const runsWith = [...found.keys()].some((f) => found.get(f) === c.zone && (sameLine(f, c.block) || (c.zone === 'page_footer' && stacked(f, c.block))));
      if (runsWith) {
        found.set(c.block, c.zone);
        more = true;
      }
    }
  }
}

/**
 * The band a block stands in, if any. A header stands wholly in the top band (a first page's title,
 * larger, reaches below it, although it may repeat as the running head); a footer by its middle,
 * since a three-line footer may reach a little above the bottom band.
 */
function zoneOf(placed: { y0: number; y1: number }, height: number): Zone | null {
  if (placed.y1 <= height * FURNITURE_BAND) return 'page_header';
  return (placed.y0 + placed.y1) / 2 >= height * (1 - FURNITURE_BAND) ? 'page_footer' : null;
}

/**
 * Which keys repeat, given the keys each page holds: on a quarter of the pages
 * (at least two), or on three of five neighbouring pages, since a running head
 * that names its chapter repeats through the chapter, not the document (and
 * odd and even pages may alternate two heads).
 */
function repeatedKeys(pageKeys: string[][], pages: number) {
  const sets = pageKeys.map((keys) => new Set(keys));
  const seen = new Map<string, number>();
  for (const keys of sets) for (const key of keys) seen.set(key, (seen.get(key) ?? 0) + 1);
  const repeatedOn = Math.max(2, Math.ceil(pages * 0.25));
  const nearby = (key: string, p: number) => sets.slice(Math.max(0, p - 2), p + 3).filter((keys) => keys.has(key)).length >= 3;
  return {
    throughout: (key: string) => pages >= 2 && (seen.get(key) ?? 0) >= repeatedOn,
    nearby,
    onMost: (key: string) => pages >= 2 && (seen.get(key) ?? 0) >= Math.max(repeatedOn, pages / 2),
    /** On three pages at least, however long the document: enough to cut a line off a paragraph. */
    often: (key: string, p: number) => (seen.get(key) ?? 0) >= 3 && ((seen.get(key) ?? 0) >= repeatedOn || nearby(key, p)),
  };
}

/** Which texts each page holds word for word, and the texts that share each key. */
function exactTexts(candidates: Array<{ key: string; text: string; page: number }>) {
  const pages: Array<Set<string>> = [];
  const variants = new Map<string, Set<string>>();
  for (const c of candidates) {
    (pages[c.page] ??= new Set()).add(c.text);
    if (!variants.has(c.key)) variants.set(c.key, new Set());
    variants.get(c.key)!.add(c.text);
  }
  return { pages, variants };
}

/**
 * Cuts off a block's last lines where they stand in the bottom band and repeat
 * from page to page as lines of that band (its first lines in the top band
 * likewise), so that a footer read as the end of a page's last paragraph
 * becomes a block of its own.
 */
function cutRunningLines(layouts: PageLayout[], pages: number): void {
  // Each line in a band, with its zone and key, read once.
  const band = new Map<Line, { zone: Zone; key: string }>();
  const keys = layouts.map((layout) =>
    layout.blocks.flatMap((block) =>
      block.lines.flatMap((line) => {
        const zone = zoneOf(line, layout.height);
        if (!zone) return [];
        const key = furnitureKey(zone, line.text);
        band.set(line, { zone, key });
        return [key];
      }),
    ),
  );
  const repetition = repeatedKeys(keys, pages);
  layouts.forEach((layout, p) => {
    const running = (line: Line, zone: Zone) => {
      const found = band.get(line);
      return found?.zone === zone && repetition.often(found.key, p);
    };
    layout.blocks = layout.blocks.flatMap((block) => {
      const lines = block.lines;
      let start = 0;
      while (start < lines.length - 1 && running(lines[start]!, 'page_header')) start++;
      let end = lines.length;
      while (end - 1 > start && running(lines[end - 1]!, 'page_footer')) end--;
      if (start === 0 && end === lines.length) return [block];
      return [lines.slice(0, start), lines.slice(start, end), lines.slice(end)].filter((part) => part.length > 0).map(blockOf);
    });
  });
}

interface Style {
  size: number;
  bold: boolean;
}

/** Set larger or bolder than the body, as headings are. */
const styled = (placed: Style, body: Style) => placed.size > body.size * 1.05 || (placed.bold && !body.bold);

/**
 * What a running header or footer is recognised by from page to page: its zone and its letters. Numbers
 * change ("IRM 2.3.5" beside "IRM 2.3.5.1": # for a run of them), and spacing and punctuation do too: a
 * rule of underscores two characters shorter in one chapter, "Page 1- 5" beside "Page 3-2".
 */
function furnitureKey(zone: Zone, text: string): string {
  // A page number in roman figures opening or closing the line ("xiv PREFACE", "PREFACE xv") is a number too.
  const numbered = text.toLowerCase().replace(/^[ivxlc]{1,7}(?=\s)|(?<=\s)[ivxlc]{1,7}$/g, '#');
  const letters = numbered.replace(/\d+/g, '#').replace(/[^\p{L}\p{M}#]+/gu, '').replace(/#+/g, '#');
  return `${zone}|${letters || text.replace(/\s+/g, ' ')}`;
}

/** One line opening or closing with a number a tab's width from the rest: a page number beside a running title ("454    O. Sanni et al."). */
function numberSetApart(block: TextBlock): boolean {
  const words = block.lines.length === 1 ? block.lines[0]!.words : [];
  if (words.length < 2 || block.lines[0]!.rtl) return false;
  const [first, second, last, before] = [words[0]!, words[1]!, words.at(-1)!, words.at(-2)!];
  const apart = (a: { x1: number; size: number }, b: { x0: number }) => b.x0 - a.x1 > 1.6 * a.size;
  // A table of contents' entry leads the eye to its page number with dots.
  const leader = /[.…·_]{3,}$/.test(before.text);
  return (/^\d{1,4}$/.test(first.text) && apart(first, second)) || (/^\d{1,4}$/.test(last.text) && !leader && apart(before, last));
}
