// The page as a reader sees it: its crop box within its media box, turned by
// its rotation. Everything read off a page (words, drawn lines, images) is
// moved into that frame before layout analysis, so a cropped page's boxes
// start at its corner, and a page turned a quarter (a landscape table set
// upright on a portrait page, as LaTeX's pdflscape does) is read as the
// landscape page it shows, its lines level, its table a table. Text set
// wholly outside the box is not on the page: a spread cut into pages keeps
// each half's neighbour beyond its edge, and a reader (pdftotext and PyMuPDF
// too) never sees it. A line that runs over the edge keeps its words past it:
// it starts on the page, and its text is one.

import type { BBox } from '../../engine/types.ts';
import { round2 } from './page-layout.ts';
import { withBuffer, type Pdfium } from './pdfium.ts';
import type { Word } from './words.ts';

/** [a, b, c, d, e, f]: x' = a x + c y + e, y' = b x + d y + f (a PDF matrix). */
export type Matrix = readonly [number, number, number, number, number, number];

/**
 * A frame a page is read in: the map from the page's own space into it (origin at its bottom-left corner, y up),
 * its size there, the quarter turns clockwise from the page's space to it (`turn`), and from it to the page as
 * shown (`after`: boxes read in the frame are turned by them).
 */
export interface ShownFrame {
  matrix: Matrix;
  width: number;
  height: number;
  turn: number;
  after: number;
  /** The visible box in the page's own space: left, bottom, width, height. */
  box?: readonly [number, number, number, number];
}

/** The page's visible box, turned by its /Rotate. */
export function shownFrame(m: Pdfium, page: number): ShownFrame {
  const turn = (((m.FPDFPage_GetRotation(page) % 4) + 4) % 4) | 0;
  const [width, height] = [m.FPDF_GetPageWidthF(page), m.FPDF_GetPageHeightF(page)];
  const box = withBuffer(m, 16, (rect) => {
    if (!m.FPDF_GetPageBoundingBox(page, rect)) return null;
    const f32 = m.pdfium.HEAPF32;
    const at = rect >> 2;
    // FS_RECTF: left, top, right, bottom.
    return { left: f32[at]!, top: f32[at + 1]!, right: f32[at + 2]!, bottom: f32[at + 3]! };
  });
  if (!box || box.right <= box.left || box.top <= box.bottom) return { matrix: [1, 0, 0, 1, 0, 0], width, height, turn: 0, after: 0 };
  const [l, b, w, h] = [box.left, box.bottom, box.right - box.left, box.top - box.bottom];
  // Turned clockwise, the box's bottom-left corner comes to the shown page's top left at one quarter, its bottom
  // right at two, its top right at three.
  const matrix: Matrix =
    turn === 1 ? [0, -1, 1, 0, -b, w + l] : turn === 2 ? [-1, 0, 0, -1, w + l, h + b] : turn === 3 ? [0, 1, -1, 0, h + b, -l] : [1, 0, 0, 1, -l, -b];
  return { matrix, width: turn % 2 ? h : w, height: turn % 2 ? w : h, turn, after: 0, box: [l, b, w, h] };
}

/**
 * The frame a page's text is read in: the page as shown, unless the page is shown turned a quarter and more of its
 * text is set level in the page's own space than on the page as shown (text the turn shows running up or down the
 * page): then its own space, its elements' boxes turned to the page as shown after.
 */
export function readingFrame(shown: ShownFrame, words: readonly Word[]): ShownFrame {
  // Only a quarter turn stands text on end: words.ts reads text upside down as level (a half turn's own text and
  // its shown text look alike by their angle), and the page as shown reads text turned there the right way up.
  if ((shown.turn !== 1 && shown.turn !== 3) || !shown.box) return shown;
  let own = 0;
  let level = 0;
  for (const w of words) {
    if (w.rotated === undefined) own += w.text.length;
    else if (Math.abs(Math.sin(((w.rotated - 90 * shown.turn) * Math.PI) / 180)) < 0.5) level += w.text.length;
  }
  if (own <= level) return shown;
  const [l, b, w, h] = shown.box;
  return { matrix: [1, 0, 0, 1, -l, -b], width: w, height: h, turn: 0, after: shown.turn, box: shown.box };
}

/** A page as read: its size in the frame it was read in, and the quarter turns clockwise that show it (PageLayout's). */
interface ReadPage {
  width: number;
  height: number;
  turn?: number;
}

/** The size of a page as shown, whatever frame it was read in. */
export const shownSize = (page: ReadPage) => (page.turn === 1 || page.turn === 3 ? { width: page.height, height: page.width } : { width: page.width, height: page.height });

/**
 * A box measured from the top-left corner of the frame `page` was read in, measured from the top-left corner of
 * the page as shown: turned with it (the frame's bottom-left corner comes to the top left at one quarter turn
 * clockwise, its bottom right at two, its top right at three), and kept on it, up to its edge (text that runs over
 * the edge is boxed where it is seen).
 */
export function shownBox(box: BBox, page: ReadPage): BBox {
  const { width, height } = page;
  const [x0, y0, x1, y1] = box;
  const turned: BBox =
    page.turn === 1 ? [height - y1, x0, height - y0, x1] : page.turn === 2 ? [width - x1, height - y1, width - x0, height - y0] : page.turn === 3 ? [y0, width - x1, y1, width - x0] : box;
  const shown = shownSize(page);
  const x = (v: number) => round2(Math.min(Math.max(v, 0), shown.width));
  const y = (v: number) => round2(Math.min(Math.max(v, 0), shown.height));
  return [x(turned[0]), y(turned[1]), x(turned[2]), y(turned[3])];
}

/** A rectangle of the page's own space (y up) in the shown frame. */
export function shownRect(frame: ShownFrame, left: number, bottom: number, right: number, top: number): { x0: number; x1: number; bottom: number; top: number } {
  const [a, b, c, d, e, f] = frame.matrix;
  const [xa, ya] = [a * left + c * bottom + e, b * left + d * bottom + f];
  const [xb, yb] = [a * right + c * top + e, b * right + d * top + f];
  return { x0: Math.min(xa, xb), x1: Math.max(xa, xb), bottom: Math.min(ya, yb), top: Math.max(ya, yb) };
}

/** Slack at the page's edges: a glyph whose box only touches the edge is on the page. */
const SLACK = 1;

/**
 * The words, in content order, moved into the shown frame (a word's turn there
 * is its turn in the page's space less the page's), that stand at least in
 * part on the shown page, or carry the text on past its edge from such a word:
 * along its line (on its baseline, a word space or two after it), or down its
 * block (the next line, within a line's pitch under it, across the page).
 */
export function shownWords(words: Word[], frame: ShownFrame): Word[] {
  const kept: Word[] = [];
  let last: Word | undefined;
  const [a, b, c, d, e, f] = frame.matrix;
  const moved = a !== 1 || b !== 0 || c !== 0 || d !== 1 || e !== 0 || f !== 0;
  for (const w of words) {
    if (moved) {
      Object.assign(w, shownRect(frame, w.x0, w.bottom, w.x1, w.top));
      if (frame.turn) {
        const turned = ((((w.rotated ?? 0) - 90 * frame.turn) % 360) + 360) % 360;
        // As words.ts reads a glyph's angle: a turn under 30 degrees from level is no turn.
        w.rotated = Math.abs(Math.sin((turned * Math.PI) / 180)) >= 0.5 ? turned : undefined;
      }
    }
    const inside = w.x1 > -SLACK && w.x0 < frame.width + SLACK && w.top > -SLACK && w.bottom < frame.height + SLACK;
    const across = w.x0 > -SLACK && w.x1 < frame.width + SLACK;
    const carries =
      last !== undefined &&
      w.rotated === last.rotated &&
      ((Math.abs(w.bottom - last.bottom) < 0.3 * w.size && Math.max(w.x0 - last.x1, last.x0 - w.x1) < 2 * w.size) ||
        (across && w.rotated === undefined && w.top <= last.bottom + 0.3 * w.size && last.bottom - w.bottom < 1.6 * Math.max(w.size, last.size)));
    last = inside || carries ? w : undefined;
    if (last) kept.push(w);
  }
  return kept;
}
