// A chart or a diagram drawn with paths sets its text (tick labels, axis
// titles, a legend, the words in a diagram's boxes) among its lines, in
// whatever size the plotting program chose: read as the page's flow, an axis
// title comes out as a heading and tick labels as short paragraphs. The paths
// with slanted lines or curves (a chart's data lines, a pie's slices, a
// diagram's arrows) that lie together are one drawing; with enough of those
// segments over a large enough area, and numbers beside it (tick labels) or a
// figure's caption right under or over it (a diagram's), it is a chart: a
// figure, and the short text in and around it its labels.

import type { BBox } from '../../engine/types.ts';
import { FIGURE_CAPTION } from './captions.ts';
import type { Box } from './rulings.ts';

/** Points between two shapes that still belong to one drawing. */
const NEAR = 6;
/**
 * Segments a drawing needs: four slanted lines (a line chart's few data lines), or eight slanted or curved
 * (a pie's slices): a rounded box's four curved corners, or two arrows, make none.
 */
const MIN_SLANTED = 4;
const MIN_FREE = 8;
/** Its smallest width and height, in points: an inch by two thirds. */
const MIN_WIDTH = 72;
const MIN_HEIGHT = 48;
/** More shapes than this are one drawing, not sorted out pair by pair (a scatter plot's markers). */
const MAX_SHAPES = 1_500;

/** The drawings among `shapes` on a page of `pageArea` (page space, y up): the charts' candidates. */
export function drawingsOf(shapes: readonly Box[], pageArea: number): Box[] {
  const groups = shapes.length > MAX_SHAPES ? [shapes.reduce(merge)] : cluster(shapes);
  return groups.filter((g) => (g.slanted >= MIN_SLANTED || g.free >= MIN_FREE) && g.x1 - g.x0 >= MIN_WIDTH && g.y1 - g.y0 >= MIN_HEIGHT && (g.x1 - g.x0) * (g.y1 - g.y0) < 0.6 * pageArea);
}

/**
 * The frames among `frames` (rectangles drawn as one path) around a drawing: a diagram's boxes and arrows, each
 * too small to count, drawn inside a ruled box, which holds enough of their segments together. Such a frame is a
 * chart's candidate only where a figure's caption names it (chartsAmong): a boxed note has no caption.
 */
export function framedDrawings(frames: readonly Box[], shapes: readonly Box[], pageArea: number): Box[] {
  const out: Box[] = [];
  for (const f of frames) {
    if (f.x1 - f.x0 < MIN_WIDTH || f.y1 - f.y0 < MIN_HEIGHT || (f.x1 - f.x0) * (f.y1 - f.y0) >= 0.6 * pageArea) continue;
    let [free, slanted] = [0, 0];
    for (const s of shapes) {
      if (s.x0 < f.x0 - NEAR || s.x1 > f.x1 + NEAR || s.y0 < f.y0 - NEAR || s.y1 > f.y1 + NEAR) continue;
      free += s.free;
      slanted += s.slanted;
    }
    if (slanted >= MIN_SLANTED || free >= MIN_FREE) out.push({ ...f, free, slanted });
  }
  return out;
}

/** Bars a bar chart has at least. */
const MIN_BARS = 3;

/**
 * Bar charts among `frames`: filled rectangles standing side by side on one
 * baseline, of one width and not all of one height (or, for bars that run
 * across, set on one left edge, of one height and not all of one length).
 * Drawn with straight sides only, they are no drawing to `drawingsOf`; a
 * table's shaded cells share both edges, a row's cells one height. Each is a
 * chart's candidate, a chart where numbers stand beside it (chartsAmong).
 */
export function barCharts(frames: readonly Box[]): Box[] {
  const bars = frames.filter((f) => f.filled);
  const out: Box[] = [];
  for (const upright of [true, false]) {
    const base = (b: Box) => (upright ? b.y0 : b.x0);
    const end = (b: Box) => (upright ? b.y1 : b.x1);
    const [from, to] = upright ? [(b: Box) => b.x0, (b: Box) => b.x1] : [(b: Box) => b.y0, (b: Box) => b.y1];
    const sorted = [...bars].sort((a, b) => base(a) - base(b));
    for (let i = 0; i < sorted.length; ) {
      let j = i + 1;
      while (j < sorted.length && base(sorted[j]!) - base(sorted[i]!) <= 1) j++;
      const group = sorted.slice(i, j).sort((a, b) => from(a) - from(b));
      i = j;
      if (group.length < MIN_BARS) continue;
      const widths = group.map((b) => to(b) - from(b));
      const ends = group.map(end);
      const apart = group.every((b, k) => k === 0 || from(b) >= to(group[k - 1]!) - 1);
      if (!apart || Math.max(...widths) > 1.5 * Math.min(...widths) || Math.max(...ends) - Math.min(...ends) <= 1) continue;
      out.push(group.reduce(merge));
    }
  }
  return out;
}

/** Shapes that overlap or stand within NEAR of each other, transitively, as one box each. */
function cluster(shapes: readonly Box[]): Box[] {
  const parent = shapes.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      const [a, b] = [shapes[i]!, shapes[j]!];
      if (a.x0 - NEAR <= b.x1 && b.x0 - NEAR <= a.x1 && a.y0 - NEAR <= b.y1 && b.y0 - NEAR <= a.y1) parent[root(j)] = root(i);
    }
  }
  const boxes = new Map<number, Box>();
  shapes.forEach((s, i) => {
    const r = root(i);
    const box = boxes.get(r);
    boxes.set(r, box ? merge(box, s) : { ...s });
  });
  return [...boxes.values()];
}

const merge = (a: Box, b: Box): Box => ({
  x0: Math.min(a.x0, b.x0),
  y0: Math.min(a.y0, b.y0),
  x1: Math.max(a.x1, b.x1),
  y1: Math.max(a.y1, b.y1),
  free: a.free + b.free,
  slanted: a.slanted + b.slanted,
});

/** A block of text on a page: top-left box, its text, how many lines, its size. */
export interface Label {
  bbox: BBox;
  text: string;
  lines: number;
  size: number;
}

/** Numbers alone: tick labels ("0", "2.5", "40%", "10 20 30"). */
const TICKS = /^[-+−]?\d[\d.,]*%?(?:\s+[-+−]?\d[\d.,]*%?)*$/u;
/** Tick labels a chart's axes carry at least: a brochure's curves and a diagram's arrows have none. */
const MIN_TICKS = 3;

/** A chart on a page: its box, and whether its labels stand beside it too (its axes' ticks and titles) or only inside. */
export interface Chart {
  box: BBox;
  beside: boolean;
}

/**
 * The drawings of `drawings` that are charts: three numbers or more among the labels in and around them (tick
 * labels on an axis). A designed page's curves and rounded boxes set headings and prose among them, not numbers.
 * A drawing or a frame a figure's caption names is a chart too, but with no axis its labels are the words inside
 * it only: the text right over it (the list item or the sentence that leads into the figure) is the page's own.
 */
export function chartsAmong(drawings: readonly BBox[], blocks: readonly Label[], framed: readonly BBox[] = []): Chart[] {
  const charts = drawings.flatMap((d): Chart[] => {
    let ticks = 0;
    for (const b of blocks) if (TICKS.test(b.text) && isChartLabel(b, [{ box: d, beside: true }])) ticks += b.text.split(/\s+/).length;
    return ticks >= MIN_TICKS ? [{ box: withTicks(d, blocks), beside: true }] : captioned(d, blocks) ? [{ box: d, beside: false }] : [];
  });
  const named = framed.filter((f) => captioned(f, blocks));
  // A frame inside another (a diagram's inner panel) is part of that figure.
  const within = (a: BBox, b: BBox) => a !== b && a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];
  const frames = named.filter((f) => !named.some((o) => within(f, o)) && !charts.some((c) => within(f, c.box)));
  return [...charts, ...frames.map((box) => ({ box, beside: false }))];
}

/** Steps an axis runs on past the drawing, at most. */
const MAX_STEPS_ON = 4;

/**
 * A chart's box grown over its tick labels: an axis runs past the tallest bar or the highest point ("200" over
 * bars that reach 160), its last labels beyond the reach of the drawing itself, but a step on from the labels
 * in reach, in their column (or row).
 */
function withTicks(chart: BBox, blocks: readonly Label[]): BBox {
  // Only numbers near the drawing, within half its size of it, and a few steps on: a page of figures beside a
  // small chart stays linear in its numbers.
  const [w, h] = [(chart[2] - chart[0]) / 2, (chart[3] - chart[1]) / 2];
  const near = (b: BBox) => b[2] >= chart[0] - w && b[0] <= chart[2] + w && b[3] >= chart[1] - h && b[1] <= chart[3] + h;
  const ticks = blocks.filter((b) => TICKS.test(b.text) && b.lines <= 3 && near(b.bbox));
  const axis = ticks.filter((t) => isChartLabel(t, [{ box: chart, beside: true }]));
  const centre = (b: BBox, k: 0 | 1) => (b[k] + b[k + 2]!) / 2;
  const inLine = (a: BBox, b: BBox, k: 0 | 1) => Math.min(a[k + 2]!, b[k + 2]!) > Math.max(a[k]!, b[k]!);
  // The gap from `t` to the nearest axis label in its column (k = 0) or row (k = 1), against that label's own step.
  const aStepOn = (t: Label, k: 0 | 1) => {
    const along = (1 - k) as 0 | 1;
    const line = axis.filter((u) => inLine(u.bbox, t.bbox, k));
    const nearest = line.sort((a, b) => Math.abs(centre(a.bbox, along) - centre(t.bbox, along)) - Math.abs(centre(b.bbox, along) - centre(t.bbox, along)))[0];
    if (!nearest) return false;
    const steps = line.filter((u) => u !== nearest).map((u) => Math.abs(centre(u.bbox, along) - centre(nearest.bbox, along)));
    return steps.length > 0 && Math.abs(centre(t.bbox, along) - centre(nearest.bbox, along)) <= 1.2 * Math.min(...steps);
  };
  for (let grown = true, steps = 0; grown && steps < MAX_STEPS_ON; steps++) {
    grown = false;
    for (const t of ticks) {
      if (!axis.includes(t) && (aStepOn(t, 0) || aStepOn(t, 1))) {
        axis.push(t);
        grown = true;
      }
    }
  }
  return axis.reduce<BBox>((box, { bbox }) => [Math.min(box[0], bbox[0]), Math.min(box[1], bbox[1]), Math.max(box[2], bbox[2]), Math.max(box[3], bbox[3])], chart);
}

/**
 * A figure's caption ("Figure 2.", not a table's) standing within four ems under or over the drawing, across a
 * third or more of the narrower of the two: a diagram drawn with paths (boxes and arrows, a state machine), whose
 * words are its labels though it shows no numbers.
 */
function captioned(drawing: BBox, blocks: readonly Label[]): boolean {
  const [x0, y0, x1, y1] = drawing;
  return blocks.some(({ bbox, text, size }) => {
    if (!FIGURE_CAPTION.test(text)) return false;
    const across = Math.min(bbox[2], x1) - Math.max(bbox[0], x0);
    const gap = bbox[1] >= y1 ? bbox[1] - y1 : y0 - bbox[3];
    return gap >= -size && gap <= 4 * size && across >= 0.3 * Math.min(x1 - x0, bbox[2] - bbox[0]);
  });
}

/** Whether a block is a legend's key: a few words within three ems of a chart's box, beside it or under it. */
export function isLegendKey(block: Label, charts: readonly Chart[]): boolean {
  if (block.lines > 2 || block.text.length > 60) return false;
  const [x0, y0, x1, y1] = block.bbox;
  return charts.some(({ box: c }) => Math.max(0, c[0] - x1, x0 - c[2], c[1] - y1, y0 - c[3]) <= 3 * block.size);
}

/**
 * Whether a block is a chart's label: a few words whose middle stands inside one of `charts`, or beside one with
 * axes within the few ems a tick label or an axis title stands out.
 */
export function isChartLabel(block: Label, charts: readonly Chart[]): boolean {
  if (block.lines > 3 || block.text.length > 80) return false;
  const { bbox } = block;
  const [cx, cy] = [(bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2];
  return charts.some(({ box: c, beside }) => {
    const reach = beside ? 2.5 * block.size : 0;
    return cx >= c[0] - reach && cx <= c[2] + reach && cy >= c[1] - reach && cy <= c[3] + reach;
  });
}
