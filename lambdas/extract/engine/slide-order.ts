// The order a reader takes a slide's shapes in. A deck stores them in the
// order they were added (their stacking order), which for a text box added
// last to sit over the content, or for cards laid out right to left, is not
// the order anyone reads them. Shapes are cut in two, recursively, at the
// widest gap that runs between them from top to bottom (the left part read
// first) or across (the upper part first), whichever is wider (an XY cut):
// a comparison slide's two headed columns, a gutter apart but each heading
// touching its body, are read column by column; a box spanning the slide's
// width above columns first. Boxes set in a grid read row by row where the
// rows stand further apart than the columns, else column by column. Shapes
// that overlap everywhere keep the stored order, as do all of a slide's
// where one shape's place cannot be found.

/** A shape's box on the slide, in EMU (914,400 an inch), top-left origin. */
export interface SlideBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * How far boxes may overlap and still be apart: a text box's frame is often
 * drawn wider than its text, into its neighbour's (0.05 inch).
 */
const SLACK = 45_720;

interface Placed<T> {
  item: T;
  box: SlideBox;
  index: number;
}

/** `items` in reading order; `boxOf` null for any item keeps them all as stored. */
export function readingOrder<T>(items: T[], boxOf: (item: T) => SlideBox | null): T[] {
  const placed: Placed<T>[] = [];
  for (const [index, item] of items.entries()) {
    const box = boxOf(item);
    if (!box) return items;
    placed.push({ item, box, index });
  }
  return order(placed).map((p) => p.item);
}

function order<T>(items: Placed<T>[]): Placed<T>[] {
  if (items.length <= 1) return items;
  const rows = widestGap(items, 'y0', 'y1');
  const columns = widestGap(items, 'x0', 'x1');
  // The wider gap says how the slide is laid out: cards side by side, or bands one under another.
  const split = columns && (!rows || columns.gap > rows.gap) ? columns : rows;
  if (!split) return [...items].sort((a, b) => a.index - b.index);
  return [...order(split.before), ...order(split.after)];
}

/**
 * The widest gap along an axis that nothing spans, and the items before and
 * after it; null where every item overlaps the next.
 */
function widestGap<T>(items: Placed<T>[], start: 'x0' | 'y0', end: 'x1' | 'y1'): { gap: number; before: Placed<T>[]; after: Placed<T>[] } | null {
  const sorted = [...items].sort((a, b) => a.box[start] - b.box[start] || a.index - b.index);
  let best: { gap: number; at: number } | null = null;
  let reach = sorted[0]!.box[end];
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]!.box[start] - reach;
    if (gap >= -SLACK && (!best || gap > best.gap)) best = { gap, at: i };
    reach = Math.max(reach, sorted[i]!.box[end]);
  }
  return best && { gap: best.gap, before: sorted.slice(0, best.at), after: sorted.slice(best.at) };
}
