// The part of a page a reader sees: its crop box within its media box. Boxes
// are measured from its corner (a cropped page's box does not start at the
// page space's origin), and text set wholly outside it is not on the page: a
// spread cut into pages keeps each half's neighbour beyond its edge, and a
// reader (pdftotext and PyMuPDF too) never sees it. A line that runs over the
// edge keeps its words past it: it starts on the page, and its text is one.

import { withBuffer, type Pdfium } from './pdfium.ts';
import type { Word } from './words.ts';

/** A page's visible box in its own space (y up): left, bottom, right, top. */
export interface PageBox {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

/** Where a page's visible box starts in its own space: what its text and drawing are measured from. */
export interface Origin {
  x: number;
  y: number;
}

export const NO_OFFSET: Origin = { x: 0, y: 0 };

export const originOf = (box: PageBox | null): Origin => (box ? { x: box.left, y: box.bottom } : NO_OFFSET);

/** The page's visible box, or null when PDFium cannot say (every word is then kept, where it stands). */
export function pageBox(m: Pdfium, page: number): PageBox | null {
  return withBuffer(m, 16, (rect) => {
    if (!m.FPDF_GetPageBoundingBox(page, rect)) return null;
    const f32 = m.pdfium.HEAPF32;
    const at = rect >> 2;
    // FS_RECTF: left, top, right, bottom.
    const box = { left: f32[at]!, top: f32[at + 1]!, right: f32[at + 2]!, bottom: f32[at + 3]! };
    return box.right > box.left && box.top > box.bottom ? box : null;
  });
}

/** Slack at the box's edges: a glyph whose box only touches the edge is on the page. */
const SLACK = 1;

/**
 * The words, in content order, that stand at least in part inside `box`, and
 * those that carry such a word's line on past the edge (on its baseline, a
 * word space or two after it), moved to be measured from the box's corner.
 */
export function visibleWords(words: Word[], box: PageBox | null): Word[] {
  if (!box) return words;
  const kept: Word[] = [];
  let last: Word | undefined;
  for (const w of words) {
    const inside = w.x1 > box.left - SLACK && w.x0 < box.right + SLACK && w.top > box.bottom - SLACK && w.bottom < box.top + SLACK;
    const carries =
      last !== undefined &&
      w.rotated === last.rotated &&
      Math.abs(w.bottom - last.bottom) < 0.3 * w.size &&
      Math.max(w.x0 - last.x1, last.x0 - w.x1) < 2 * w.size;
    last = inside || carries ? w : undefined;
    if (last) kept.push(w);
  }
  if (box.left !== 0 || box.bottom !== 0) {
    for (const w of kept) {
      w.x0 -= box.left;
      w.x1 -= box.left;
      w.bottom -= box.bottom;
      w.top -= box.bottom;
    }
  }
  return kept;
}
