// What a PDF page draws with paths, from the path objects on the page and
// inside its form XObjects, in page space (y grows upwards, as for the text
// boxes): the ruling lines (horizontal and vertical strokes and the edges of
// rectangles), which tables are drawn with and ruled-tables.ts turns into
// cells; the small marks (dots, rings, squares) a browser's print engine
// draws list bullets with instead of a glyph (drawn-bullets.ts); and the
// shapes drawn with slanted lines and curves, which charts are (charts.ts).

import type { Matrix } from './page-box.ts';
import { PAGE_OBJECT, withBuffer, type Pdfium } from './pdfium.ts';

/** A horizontal ('h': y = at, x from..to) or vertical ('v': x = at, y from..to) line. */
export interface Ruling {
  dir: 'h' | 'v';
  at: number;
  from: number;
  to: number;
  /** An edge of a shaded area (a rectangle filled, not stroked, and no thin bar): the area's box. */
  shade?: { x0: number; y0: number; x1: number; y1: number };
}

/** Points: a filled rectangle thinner than this is a line drawn as a bar, not a shaded area. */
const BAR = 3;
/** Points: a rectangle no wider and no taller than this is a checkbox or a drawn glyph, not a table's cell. */
const BOX_MAX = 14;

/**
 * More path segments than this on one page is a drawing (a chart, a map), not
 * a table; it also bounds the crossing test (horizontal times vertical lines).
 */
const MAX_SEGMENTS = 5_000;
/** Form XObjects inside form XObjects: tables are not drawn deeper than this. */
const MAX_FORM_DEPTH = 4;
/** Points off the horizontal or vertical that still count as straight. */
const SKEW = 1;
/** Shorter than this (points) is a tick or the short side of a thin filled bar, not a ruling. */
const MIN_LENGTH = 4;

/** A small shape drawn on its own: a list bullet, perhaps. */
export interface Mark {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Drawn with curves (a dot or a ring), not straight sides (a square). */
  round: boolean;
  /** Filled (a dot, a square), not only stroked (a ring). */
  filled: boolean;
}

/** Points: a mark is no wider or taller than a large bullet, and not a speck. */
const MARK_MAX = 9;
const MARK_MIN = 1.2;

/** A box in page space (y grows upwards). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** How many of its segments run neither across nor down: slanted lines and curves. */
  free: number;
  /** How many of those are straight: a line chart's data lines are, a rounded box's corners are not. */
  slanted: number;
  /** A rectangle painted inside (a bar of a bar chart, a shaded cell), not only outlined. */
  filled?: boolean;
}

export interface Drawing {
  /** Null when the page draws too much to be read as a table's lines (a chart, a map). */
  rulings: Ruling[] | null;
  marks: Mark[];
  /** Paths with slanted or curved segments, larger than a mark: a chart's lines, a diagram's arrows (those read before a page that draws too much stops). */
  shapes: Box[];
  /** Rectangles larger than a tick box, drawn as one path: the frame around a diagram, a bar chart's bars, among others. */
  frames: Box[];
}

/** FPDF_SEGMENT_* (fpdf_edit.h). */
const SEGMENT = { lineTo: 0, bezierTo: 1, moveTo: 2 } as const;

/** The raw exports a page's objects are walked with: the wrapped calls convert every argument, per object. */
interface PathExports {
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFPageObj_GetType(object: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
  FPDFPageObj_GetFillColor(object: number, r: number, g: number, b: number, a: number): number;
}

/** A rectangle filled and not stroked, and the four rulings its edges gave. */
interface Fill {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  colour: number;
  edges: Ruling[];
}

/** Points within which two fills' edges meet or match. */
const ABUT = 0.5;

/**
 * The edges where a fill stands on another of its colour and width: no line a
 * reader sees, only the seam of a shading drawn in pieces (Word shades a table
 * cell's paragraph a line at a time, which would cut its lines into rows).
 * Fills side by side keep the edge between them: a browser fills a shaded
 * row's cells one by one, and those edges are the only column lines a table
 * without borders draws.
 */
function seams(fills: readonly Fill[]): Set<Ruling> {
  const out = new Set<Ruling>();
  const same = (a: number, b: number) => Math.abs(a - b) <= ABUT;
  const byColour = new Map<number, Fill[]>();
  for (const f of fills) byColour.set(f.colour, [...(byColour.get(f.colour) ?? []), f]);
  for (const group of byColour.values()) {
    group.sort((a, b) => a.y0 - b.y0);
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length && group[j]!.y0 <= group[i]!.y1 + ABUT; j++) {
        const [a, b] = [group[i]!, group[j]!];
        if (!same(a.y1, b.y0) || !same(a.x0, b.x0) || !same(a.x1, b.x1)) continue;
        for (const e of [...a.edges, ...b.edges]) if (e.dir === 'h' && same(e.at, a.y1)) out.add(e);
      }
    }
  }
  return out;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `inner` first, then `outer`. */
function compose(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [p, q, r, s, t, u] = inner;
  return [a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f];
}

/**
 * The page's rulings and marks; a page that draws too much has neither. `shown`: the map into the frame the page
 * is read in (page-box.ts), which the drawing is measured in.
 */
export function pageDrawing(m: Pdfium, page: number, shown: Matrix = IDENTITY): Drawing {
  const x = m.pdfium.wasmExports as unknown as PathExports;
  const rulings: Ruling[] = [];
  const marks: Mark[] = [];
  const shapes: Box[] = [];
  const frames: Box[] = [];
  const fills: Fill[] = [];
  let segments = 0;
  // 6 floats of matrix, 2 floats of point, 2 ints of draw mode, 4 of colour.
  return withBuffer(m, 56, (buf) => {
    const f32 = () => m.pdfium.HEAPF32;
    const i32 = () => m.pdfium.HEAP32;
    const [matrixAt, pointAt, modeAt, colourAt] = [buf, buf + 24, buf + 32, buf + 40];
    const colourOf = (object: number): number => {
      if (!x.FPDFPageObj_GetFillColor(object, colourAt, colourAt + 4, colourAt + 8, colourAt + 12)) return -1;
      const c = i32();
      const i = colourAt >> 2;
      return ((c[i]! & 255) << 24) + ((c[i + 1]! & 255) << 16) + ((c[i + 2]! & 255) << 8) + (c[i + 3]! & 255);
    };

    const matrixOf = (object: number): Matrix => {
      if (!x.FPDFPageObj_GetMatrix(object, matrixAt)) return IDENTITY;
      const h = f32();
      const i = matrixAt >> 2;
      return [h[i]!, h[i + 1]!, h[i + 2]!, h[i + 3]!, h[i + 4]!, h[i + 5]!];
    };

    const add = (ax: number, ay: number, bx: number, by: number) => {
      if (Math.abs(ay - by) <= SKEW && Math.abs(ax - bx) >= MIN_LENGTH) rulings.push({ dir: 'h', at: (ay + by) / 2, from: Math.min(ax, bx), to: Math.max(ax, bx) });
      else if (Math.abs(ax - bx) <= SKEW && Math.abs(ay - by) >= MIN_LENGTH) rulings.push({ dir: 'v', at: (ax + bx) / 2, from: Math.min(ay, by), to: Math.max(ay, by) });
    };

    const readPath = (path: number, toPage: Matrix): boolean => {
      // Neither filled nor stroked paints nothing.
      if (!x.FPDFPath_GetDrawMode(path, modeAt, modeAt + 4)) return true;
      const i = modeAt >> 2;
      const filled = i32()[i] !== 0;
      const stroked = i32()[i + 1] !== 0;
      if (!filled && !stroked) return true;
      const count = x.FPDFPath_CountSegments(path);
      segments += Math.max(0, count);
      if (segments > MAX_SEGMENTS) return false;
      const [a, b, c, d, e, f] = toPage;
      let start: [number, number] | null = null;
      let cur: [number, number] | null = null;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      let round = false;
      let slanted = 0;
      // PDFium gives a curve as three points (two control points and its end), each a segment.
      let curvePoints = 0;
      const before = rulings.length;
      for (let s = 0; s < count; s++) {
        const segment = x.FPDFPath_GetPathSegment(path, s);
        if (!segment || !x.FPDFPathSegment_GetPoint(segment, pointAt, pointAt + 4)) continue;
        const h = f32();
        const px = h[pointAt >> 2]!;
        const py = h[(pointAt >> 2) + 1]!;
        const point: [number, number] = [a * px + c * py + e, b * px + d * py + f];
        const type = x.FPDFPathSegment_GetType(segment);
        [x0, y0, x1, y1] = [Math.min(x0, point[0]), Math.min(y0, point[1]), Math.max(x1, point[0]), Math.max(y1, point[1])];
        if (type === SEGMENT.bezierTo) {
          round = true;
          curvePoints++;
        }
        if (type === SEGMENT.moveTo) start = point;
        else if (type === SEGMENT.lineTo && cur) {
          add(cur[0], cur[1], point[0], point[1]);
          if (Math.abs(cur[0] - point[0]) > SKEW && Math.abs(cur[1] - point[1]) > SKEW) slanted++;
        }
        cur = point;
        if (x.FPDFPathSegment_GetClose(segment) && start) {
          add(point[0], point[1], start[0], start[1]);
          cur = start;
        }
      }
      const [w, h] = [x1 - x0, y1 - y0];
      const edges = rulings.slice(before);
      const rectangle = edges.length === 4 && edges.filter((r) => r.dir === 'h').length === 2 && slanted === 0 && curvePoints === 0;
      if (rectangle && w <= BOX_MAX && h <= BOX_MAX) {
        // A box to tick or a glyph drawn as a square is no table's cell, though it stand by a cell's border.
        rulings.length = before;
      } else if (rectangle && filled && !stroked) {
        fills.push({ x0, y0, x1, y1, colour: colourOf(path), edges });
        if (w >= BAR && h >= BAR) for (const e of edges) e.shade = { x0, y0, x1, y1 };
      }
      if (rectangle && (w > BOX_MAX || h > BOX_MAX)) frames.push({ x0, y0, x1, y1, free: 0, slanted: 0, filled });
      if (w >= MARK_MIN && h >= MARK_MIN && w <= MARK_MAX && h <= MARK_MAX && w < 1.6 * h && h < 1.6 * w) {
        // A square bullet's sides are no table's lines.
        rulings.length = before;
        marks.push({ x0, y0, x1, y1, round, filled });
      } else if ((slanted > 0 || curvePoints > 0) && x1 > x0) shapes.push({ x0, y0, x1, y1, free: slanted + Math.ceil(curvePoints / 3), slanted });
      return true;
    };

    const walk = (count: number, objectAt: (i: number) => number, toPage: Matrix, depth: number): boolean => {
      for (let i = 0; i < count; i++) {
        const object = objectAt(i);
        if (!object) continue;
        const type = x.FPDFPageObj_GetType(object);
        if (type === PAGE_OBJECT.path) {
          if (!readPath(object, compose(toPage, matrixOf(object)))) return false;
        } else if (type === PAGE_OBJECT.form && depth < MAX_FORM_DEPTH) {
          const inner = compose(toPage, matrixOf(object));
          if (!walk(x.FPDFFormObj_CountObjects(object), (j) => x.FPDFFormObj_GetObject(object, j), inner, depth + 1)) return false;
        }
      }
      return true;
    };

    if (!walk(x.FPDFPage_CountObjects(page), (i) => x.FPDFPage_GetObject(page, i), shown, 0)) return { rulings: null, marks: [], shapes, frames };
    const seam = seams(fills);
    return { rulings: seam.size > 0 ? rulings.filter((r) => !seam.has(r)) : rulings, marks, shapes, frames };
  });
}
