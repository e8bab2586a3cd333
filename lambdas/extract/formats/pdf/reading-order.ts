// Reading order for a page whose content stream does not draw its text in
// it. Most producers write text in reading order, and the stream's order is
// then the best guide there is (it already knows the columns, the sidebars,
// what a caption belongs to). Some write it as they please: a body paragraph
// after the figure below it, labels of a chart in between, a table's title
// last. Such a page goes back up the page within a column again and again;
// its lines are then put in the order a reader takes: columns found from the
// gutters no narrow line crosses, each column top to bottom, and a line or a
// table spanning the columns (a title, a wide figure's caption) between the
// column runs above and below it.

import type { Line } from './layout.ts';
import type { PageTable } from './structure.ts';

/** A gap between columns narrower than this (points) is a wide word space, not a gutter. */
const MIN_GUTTER = 6;
/** Lines (or tables) a stream must draw before a run it draws over them is read first: a page's body, not its title. */
const MIN_BODY = 3;
/** Lines wider than this share of the text's width span the columns (a title, a full-width paragraph). */
const SPANNING = 0.6;

/**
 * Whether the stream goes back up the page within a column more often than
 * running headers drawn last or a footnote drawn first explain: at least
 * three times, and for at least one line in twelve. Or whether it writes
 * columns a row at a time (a producer that draws across the page, OCR that
 * found no gutter): at least three times, and for one line in six, the next
 * line stands beside the last on its row, a gutter to its right (the layout
 * keeps such pieces apart when both read as running text).
 */
export function outOfOrder(lines: readonly Line[]): boolean {
  let back = 0;
  let across = 0;
  let n = 0;
  let prev: Line | undefined;
  for (const line of lines) {
    if (line.rotated) continue;
    n++;
    // Up the page and not to the right: moving on to the next column goes up and right.
    if (prev && line.y1 < prev.y0 - 2 && line.x0 <= prev.x0 + 2) back++;
    if (prev && line.x0 > prev.x1 + MIN_GUTTER && Math.min(line.y1, prev.y1) - Math.max(line.y0, prev.y0) > 0.5 * Math.min(line.y1 - line.y0, prev.y1 - prev.y0)) across++;
    prev = line;
  }
  return (back >= 3 && back >= n / 12) || (across >= 3 && across >= n / 6);
}

interface Item {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  line?: Line;
  table?: PageTable;
  /** How many gutters lie left of it. */
  column?: number;
  /** Its place in the content stream. */
  order: number;
}

/** The page's level lines and its tables, each with its box and its place in the stream. */
function itemsOf(lines: readonly Line[], tables: readonly PageTable[]): Item[] {
  return [
    ...lines.filter((l) => !l.rotated).map((line) => ({ x0: line.x0, y0: line.y0, x1: line.x1, y1: line.y1, line, order: line.order })),
    ...tables.map((table) => ({ x0: table.bbox[0], y0: table.bbox[1], x1: table.bbox[2], y1: table.bbox[3], table, order: table.order })),
  ];
}

/**
 * The page's lines in reading order; every line's and table's `order` is set
 * to its rank in it, so blocks and tables sort together. Rotated lines keep
 * their stream order after the rest (they are read after the flow anyway).
 */
export function inReadingOrder(lines: readonly Line[], tables: readonly PageTable[]): Line[] {
  const items = itemsOf(lines, tables);
  const cuts = gutters(items);
  for (const it of items) it.column = cuts.filter((c) => c <= it.x0).length;
  const spans = (it: Item) => cuts.some((c) => it.x0 < c && c < it.x1);
  items.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const ordered: Item[] = [];
  let run: Item[] = [];
  const flush = () => {
    run.sort((a, b) => a.column! - b.column! || a.y0 - b.y0 || a.x0 - b.x0);
    ordered.push(...run);
    run = [];
  };
  for (const it of items) {
    if (spans(it)) {
      flush();
      ordered.push(it);
    } else run.push(it);
  }
  flush();
  return ranked(ordered, lines);
}

/**
 * The page's lines in the stream's order, except that a run of lines the
 * stream draws after others, and which stands wholly above everything drawn
 * before it, is read before them: a producer that draws a page's body first
 * and its masthead, title block or top banner after (an office template's
 * fixed parts, a report cover laid over its page) leaves those last in the
 * stream, where no reader takes them. A run that only partly overlaps what
 * came before (the next column, a sidebar beside the text) keeps its place.
 * Returns null when nothing moves, so the stream's own order stays untouched;
 * else every line's and table's `order` is its rank, as inReadingOrder sets it.
 */
export function raisedAbove(lines: readonly Line[], tables: readonly PageTable[]): Line[] | null {
  const items = itemsOf(lines, tables).sort((a, b) => a.order - b.order);
  // Each run that stands above all before it goes ahead of them: runs raised later stand higher still, so they lead.
  let ordered: Item[] = [];
  let [top, left, right] = [Infinity, Infinity, -Infinity];
  let moved = false;
  const take = (it: Item) => {
    top = Math.min(top, it.y0);
    left = Math.min(left, it.x0);
    right = Math.max(right, it.x1);
  };
  for (let i = 0; i < items.length; ) {
    let end = i;
    while (ordered.length > 0 && end < items.length && items[end]!.y1 <= top + 0.5) end++;
    const run = items.slice(i, end);
    const x0 = Math.min(...run.map((it) => it.x0));
    const x1 = Math.max(...run.map((it) => it.x1));
    // Over what came before, not beside it: the top of a column that starts higher than the one before it stays after it.
    // And over a body, not a line or two: a slide's subtitle set over its title keeps the order the slide gives them.
    if (run.length > 0 && ordered.length >= MIN_BODY && Math.min(x1, right) - Math.max(x0, left) >= 0.5 * (x1 - x0)) {
      ordered = [...run, ...ordered];
      run.forEach(take);
      moved = true;
      i = end;
      continue;
    }
    ordered.push(items[i]!);
    take(items[i]!);
    i++;
  }
  return moved ? ranked(ordered, lines) : null;
}

/**
 * A run the stream draws after text that stands below it is read where it
 * stands: a table written after the page's text, the words of a diagram
 * (a pasted drawing, its boxes and callouts) written after the paragraphs
 * under it, which would otherwise be read after the page's last paragraph.
 * The run goes after the item nearest above its first one across its width
 * (a caption, or the paragraph that leads into a figure) when everything the
 * stream draws between that item and the run stands below the run, under
 * it: a next column, drawn beside what came before, never moves. Returns null when
 * nothing moves; else every line's and table's `order` is its rank.
 */
export function drawnLaterWhereTheyStand(lines: readonly Line[], tables: readonly PageTable[]): Line[] | null {
  const items = itemsOf(lines, tables).sort((a, b) => a.order - b.order);
  let moved = false;
  for (let i = 1; i < items.length; i++) {
    const first = items[i]!;
    // The item drawn just before such a run is among those below it.
    if (items[i - 1]!.y0 < first.y1 - 1) continue;
    let above = -1;
    for (let k = 0; k < i; k++) {
      const it = items[k]!;
      if (Math.min(it.x1, first.x1) > Math.max(it.x0, first.x0) && it.y1 <= first.y0 + 1 && (above < 0 || it.y1 > items[above]!.y1)) above = k;
    }
    if (above < 0 || above === i - 1) continue;
    const between = items.slice(above + 1, i);
    const floor = Math.min(...between.map((it) => it.y0));
    const ceiling = items[above]!.y1;
    let end = i;
    while (end < items.length && items[end]!.y1 <= floor + 1 && items[end]!.y0 >= ceiling - 1) end++;
    if (end === i) continue;
    const run = items.slice(i, end);
    // Under it, not beside it: a right column that starts higher than the left one stays after it.
    const [x0, x1] = [Math.min(...run.map((it) => it.x0)), Math.max(...run.map((it) => it.x1))];
    if (!between.every((it) => Math.min(it.x1, x1) > Math.max(it.x0, x0))) continue;
    items.splice(i, run.length);
    items.splice(above + 1, 0, ...run);
    moved = true;
    i = end - 1;
  }
  return moved ? ranked(items, lines) : null;
}

/** The lines of `ordered` in its order, each line's and table's `order` set to its rank; rotated lines after them. */
function ranked(ordered: readonly Item[], lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  ordered.forEach((it, rank) => {
    if (it.line) {
      it.line.order = rank;
      out.push(it.line);
    } else it.table!.order = rank;
  });
  for (const line of lines) {
    if (!line.rotated) continue;
    line.order = ordered.length + out.length;
    out.push(line);
  }
  return out;
}

/** x positions of the gutters: the middle of each gap between the spans of the page's narrow lines and tables. */
function gutters(items: readonly Item[]): number[] {
  if (items.length === 0) return [];
  const left = Math.min(...items.map((i) => i.x0));
  const right = Math.max(...items.map((i) => i.x1));
  const spans = items
    .filter((i) => i.x1 - i.x0 < SPANNING * (right - left))
    .map((i) => [i.x0, i.x1] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  const cuts: number[] = [];
  let end = -Infinity;
  for (const [x0, x1] of spans) {
    if (end !== -Infinity && x0 - end >= MIN_GUTTER) cuts.push((end + x0) / 2);
    end = Math.max(end, x1);
  }
  return cuts;
}
