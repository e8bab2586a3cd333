// List bullets drawn as shapes. Chromium's print engine (and so every PDF
// made from HTML by a headless browser) paints a list's disc, circle and
// square markers as paths, not as a bullet character: the text layer holds
// the items' words and nothing before them. A small dot, ring or square that
// stands alone at the start of a line, centred on its letters and a little
// before them, is read as the bullet character it draws, so the item is a
// list item as it would be with a glyph.

import type { Mark } from './rulings.ts';
import type { Word } from './words.ts';

interface Candidate {
  mark: Mark;
  /** The first word of its item. */
  next: Word;
  /** Words on its line on the item's side. */
  words: number;
  /** Its shape, size and indent: marks alike stand in one list. */
  kind: string;
}

/** The bullet character each shape stands for. */
const shapeText = (mark: Mark) => (mark.round ? (mark.filled ? '•' : '◦') : SWATCH);
/** A square mark's bullet: a list's square bullet, or a chart legend's colour key. */
export const SWATCH = '▪';

/**
 * The page's words with a bullet word for each mark that sits where a line's
 * bullet goes, in the content order just before its item's first word.
 */
export function withDrawnBullets(words: readonly Word[], marks: readonly Mark[]): Word[] {
  if (marks.length === 0) return words as Word[];
  const before = new Map<Word, Word>();
  const candidates: Candidate[] = [];
  const body = bodySize(words);
  for (const mark of marks) {
    const mid = (mark.y0 + mark.y1) / 2;
    // The words beside it on its line (whose letters it is centred on): the nearest on each side.
    let [right, left]: (Word | undefined)[] = [];
    let over = false;
    let [rightWords, leftWords] = [0, 0];
    for (const w of words) {
      if (w.rotated !== undefined) continue;
      const height = w.top - w.bottom;
      if (mid < w.bottom + 0.15 * height || mid > w.top - 0.2 * height) continue;
      if (w.x1 > mark.x0 && w.x0 < mark.x1) over = true;
      else if (w.x0 >= mark.x1) {
        rightWords++;
        if (!right || w.x0 < right.x0) right = w;
      } else if (w.x1 <= mark.x0) {
        leftWords++;
        if (!left || w.x1 > left.x1) left = w;
      }
    }
    if (over) continue;
    // Its item's text follows it: to its right, or to its left in a right-to-left line; the other side is clear.
    const clear = (w: Word | undefined, gap: (w: Word) => number) => !w || gap(w) > 1.5 * w.size;
    const next =
      right && clear(left, (w) => mark.x0 - w.x1) ? right : left && left.rtlChars > 0 && clear(right, (w) => w.x0 - mark.x1) ? left : undefined;
    if (!next) continue;
    const size = next.size;
    const width = mark.x1 - mark.x0;
    const gap = next === right ? next.x0 - mark.x1 : mark.x0 - next.x1;
    const height = next.top - next.bottom;
    // As large as a bullet in that text, as far from it as a list sets its marker, and centred on its small
    // letters (a chart's legend keys and markers sit otherwise); in body text (a mark before a heading is an ornament).
    if (width < 0.18 * size || width > 0.6 * size || gap < 0.15 * size || gap > 1.5 * size) continue;
    if (mid < next.bottom + 0.25 * height || mid > next.bottom + 0.65 * height || size > 1.2 * body) continue;
    const kind = `${mark.round}${mark.filled}${Math.round(width)}@${Math.round(mark.x0)}`;
    candidates.push({ mark, next, words: next === right ? rightWords : leftWords, kind });
  }
  // A list has items, a chart's legend a key or two beside short labels: a mark is a bullet when another like it
  // stands in line with it (the same shape and size, at the same indent), or when its item is more than a word.
  const alike = new Map<string, number>();
  for (const c of candidates) alike.set(c.kind, (alike.get(c.kind) ?? 0) + 1);
  for (const { mark, next, words: itemWords, kind } of candidates) {
    if (alike.get(kind)! < 2 && itemWords < 2) continue;
    const size = next.size;
    before.set(next, {
      text: shapeText(mark),
      x0: mark.x0,
      x1: mark.x1,
      bottom: next.bottom,
      top: next.top,
      first: next.first,
      last: next.first,
      size,
      bold: false,
      italic: false,
      mono: false,
      hyphen: false,
      spaced: true,
      rtlChars: 0,
      // In a tagged PDF it belongs to its item's structure element, as a bullet glyph would.
      mcid: next.mcid,
    });
  }
  if (before.size === 0) return words as Word[];
  return words.flatMap((w) => {
    const bullet = before.get(w);
    return bullet ? [bullet, w] : [w];
  });
}

/** The size most of the page's letters are set in. */
function bodySize(words: readonly Word[]): number {
  const letters = new Map<number, number>();
  for (const w of words) letters.set(Math.round(w.size * 2) / 2, (letters.get(Math.round(w.size * 2) / 2) ?? 0) + w.text.length);
  let [best, most] = [0, -1];
  for (const [size, count] of letters) if (count > most) [best, most] = [size, count];
  return best;
}
