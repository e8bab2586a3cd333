// Layout analysis of one PDF page: words into lines, lines into blocks. A
// block is a run of lines that read as one (a paragraph, a heading, a list
// item): it ends where the gap below a line is wider than the page's line
// spacing, where the font changes size or weight, where a line starts with a
// bullet or a number, where an indented line opens a new paragraph, or where
// a short line ends a sentence. Coordinates here are PDF points with the
// origin at the page's top-left corner, y growing downwards.

import { CAPTION } from './captions.ts';
import { LETTER, LETTER_PIECE, ONE_LETTER, STARTS_UPPER, STARTS_WITH_LETTER } from '../../engine/letters.ts';
import { HAN_KANA_END, HAN_KANA_START, LTR_LETTER, RTL_CHAR } from './script.ts';
import type { Tag } from './tags.ts';
import type { Word } from './words.ts';

/** Where a line or a block stands (top-left origin) and how it is set. */
interface Placement {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  /** Font size of most of its characters. */
  size: number;
  bold: boolean;
  /** Set in an italic or oblique face (most of its letters): a heading style where the body is upright. */
  italic?: boolean;
  mono: boolean;
  /** The font family most of its characters are set in (none for OCR'd text). */
  family?: string;
  /** Index of its first character in the page's content order. */
  order: number;
}

export interface Line extends Placement {
  /** Where the feet of most of its letters stand: a box glyph or a symbol from another font reaching lower says nothing about line spacing. */
  foot: number;
  words: Word[];
  text: string;
  /** Ends with a hyphen that splits a word across the line break. */
  hyphen: boolean;
  /** Written right to left (Hebrew, Arabic): its words were put in logical order. */
  rtl: boolean;
  /** Text turned from the horizontal (a margin stamp, an axis label). */
  rotated: boolean;
  /** Tagged PDFs: the structure element of its first word. */
  tag?: Tag;
}

export interface TextBlock extends Placement {
  lines: Line[];
  /** Set when its first line opens with a bullet or an enumerator. */
  marker: ListMarker | null;
}

export interface ListMarker {
  ordered: boolean;
  /** The marker as written: "•", "3.", "(b)". */
  text: string;
  /** Where the item's text starts, after the marker. */
  textX: number;
}

/** A line that ends with leader dots (three or more, spaced or not) and a page number, arabic or roman: a contents entry's. */
const LEADER_END = /(?:\.\s?){3,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})$/i;

/** A line's last word ends a sentence (or a label: a colon), perhaps inside quotes or brackets. */
export const SENTENCE_END = /[.!?:。！？]["'”’)\]]?$/;


/** Words (content order, page space y up) into lines, in content order. */
export function toLines(words: Word[], pageHeight: number): Line[] {
  const groups: Word[][] = [];
  for (const w of words) {
    const line = groups.at(-1);
    const last = line?.at(-1);
    // Rotated words run on in content order while they keep their angle.
    const joins = last && (w.rotated !== undefined || last.rotated !== undefined ? w.rotated === last.rotated : onSameLine(line!, w));
    if (joins) {
      line!.push(w);
      continue;
    }
    // A mark drawn after the rest of its line (a full stop a right-to-left line ends with) goes back to it.
    const earlier = w.rotated === undefined && w.text.length <= 2 ? groups.slice(-3).find((g) => within(g, w)) : undefined;
    if (earlier) earlier.push(w);
    else groups.push([w]);
  }
  return joinRows(joinMarkers(attachMarks(groups))).map((g) => makeLine(g, pageHeight));
}

/**
 * A few marks drawn apart from their line, before or well after it (a right-to-left line's commas and
 * full stops, the "-8" of a "UTF-8" inside it), go back to the line whose extent and baseline they sit in.
 */
function attachMarks(groups: Word[][]): Word[][] {
  const out = [...groups];
  for (let i = 0; i < out.length; i++) {
    const marks = out[i]!;
    if (marks.length > 3 || marks.some((w) => w.text.length > 3 || w.rotated !== undefined || LETTER.test(w.text))) continue;
    // A bullet or a number beside a line's start is its list item's marker (joinMarkers); a dash inside it is a mark.
    const fits = (line: Word[], w: Word) =>
      within(line, w) && (!isMarkerText(w.text) || (w.x0 > Math.min(...line.map((x) => x.x0)) && w.x1 < Math.max(...line.map((x) => x.x1))));
    const near = [i - 1, i + 1, i - 2, i + 2, i - 3, i + 3].find((j) => out[j] !== undefined && out[j]!.length > marks.length && marks.every((w) => fits(out[j]!, w)));
    if (near === undefined) continue;
    out[near]!.push(...marks);
    out.splice(i, 1);
    i--;
  }
  return out;
}

/**
 * Pieces of one row the content stream writes one after the other, apart by
 * a tab's width ("E.   SURETY BONDS", "28 C.F.R. § 58.5   Non-discrimination",
 * a title and its page number, a line of text flowing around a picture) are
 * one line. Tables were taken out before, so what stays split is columns of
 * running text a producer wrote row by row: a page where pieces that read as
 * text lines (long on both sides, a gutter apart) sit side by side keeps
 * every row split.
 */
function joinRows(groups: Word[][]): Word[][] {
  const pairs: number[] = [];
  let textual = 0;
  const extents = groups.map(extent);
  for (let i = 1; i < groups.length; i++) {
    if (!sameRow(extents[i - 1]!, extents[i]!)) continue;
    pairs.push(i);
    // Columns sit a gutter apart (more than an em); text flowing around a picture between its two pieces stands farther apart.
    const gap = Math.max(extents[i]!.x0 - extents[i - 1]!.x1, extents[i - 1]!.x0 - extents[i]!.x1);
    const em = groups[i]![0]!.size;
    if (letters(groups[i - 1]!) >= 20 && letters(groups[i]!) >= 20 && gap > em && gap < 4 * em) textual++;
  }
  if (pairs.length === 0 || (textual >= 1 && textual >= 0.3 * pairs.length)) return groups;
  const out: Word[][] = [];
  let at = 0;
  for (let i = 0; i < groups.length; i++) {
    if (i === pairs[at]) {
      at++;
      // Captions of two pictures side by side share a baseline: the second opens a line of its own.
      if (!opensCaption(groups[i - 1]!, extents[i - 1]!, groups[i]!, extents[i]!)) {
        out.at(-1)!.push(...groups[i]!);
        continue;
      }
    }
    out.push(groups[i]!);
  }
  return out;
}

/** Whether `piece`, set a gutter or more apart from `before`, opens with a caption's label ("Figure 7-27.") as `before` does. */
function opensCaption(before: Word[], a: Extent, piece: Word[], b: Extent): boolean {
  const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1);
  const text = (g: Word[]) => g.map((w) => w.text).join(' ');
  return gap > 2 * piece[0]!.size && CAPTION.test(text(piece)) && CAPTION.test(text(before));
}

/** Characters of a piece, a space between words counted: how long it reads. */
const letters = (g: Word[]) => g.reduce((n, w) => n + w.text.length, g.length - 1);

interface Extent {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Holds rotated words: never joined to a row. */
  rotated: boolean;
  /** Holds right-to-left words, whose pieces may come in either direction. */
  rtl: boolean;
  size: number;
}

function extent(g: Word[]): Extent {
  const e: Extent = { x0: Infinity, x1: -Infinity, top: -Infinity, bottom: Infinity, rotated: false, rtl: false, size: g[0]!.size };
  for (const w of g) {
    if (w.x0 < e.x0) e.x0 = w.x0;
    if (w.x1 > e.x1) e.x1 = w.x1;
    if (w.top > e.top) e.top = w.top;
    if (w.bottom < e.bottom) e.bottom = w.bottom;
    if (w.rotated !== undefined) e.rotated = true;
    if (w.rtlChars > 0) e.rtl = true;
  }
  return e;
}

/**
 * Pieces on one baseline, neither rotated: left to right, the second to the right of the first; right
 * to left (a bold phrase drawn apart from its line), the two touching on either side.
 */
function sameRow(a: Extent, b: Extent): boolean {
  if (a.rotated || b.rotated) return false;
  const overlap = Math.min(a.top, b.top) - Math.max(a.bottom, b.bottom);
  if (overlap <= 0.5 * Math.min(a.top - a.bottom, b.top - b.bottom)) return false;
  if (a.rtl || b.rtl) {
    const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1);
    return gap > -1 && gap < Math.max(a.size, b.size);
  }
  return b.x0 >= a.x1;
}

/**
 * A bullet or a number set far apart from its item's text (a wide hanging
 * indent) made a line of its own: it joins the line beside it on its baseline.
 */
function joinMarkers(groups: Word[][]): Word[][] {
  const out: Word[][] = [];
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    const next = groups[i + 1];
    const only = g.length === 1 ? g[0]! : null;
    if (only && next && (isMarkerText(only.text) || headingLabel(only, next)) && only.rotated === undefined && besideOnLine(only, next)) {
      out.push([only, ...next]);
      i++;
    } else out.push(g);
  }
  return out;
}

/**
 * A capital and a stop a tab before text set in its very type ("F." beside "DUTY TO COMPLY WITH ..."): a
 * heading's label, on its line (a capital is no list marker: it may be an initial).
 */
function headingLabel(label: Word, line: Word[]): boolean {
  const first = line[0]!;
  return /^[A-Z]\.$/.test(label.text) && label.bold === first.bold && label.italic === first.italic && Math.abs(label.size - first.size) < 0.05 * first.size && STARTS_UPPER.test(first.text);
}

function isMarkerText(text: string): boolean {
  return BULLET.test(text) || ENUMERATOR.test(text) || /^[.)]?\d{1,3}[.)]$|^[.)]\d{1,3}$/.test(text);
}

/** Whether the words of `line` stand on `marker`'s baseline, after it in either direction, within six ems. */
function besideOnLine(marker: Word, line: Word[]): boolean {
  const em = Math.max(marker.size, line[0]!.size);
  const top = Math.max(...line.map((w) => w.top));
  const bottom = Math.min(...line.map((w) => w.bottom));
  if (Math.min(top, marker.top) - Math.max(bottom, marker.bottom) < 0.5 * (marker.top - marker.bottom)) return false;
  const x0 = Math.min(...line.map((w) => w.x0));
  const x1 = Math.max(...line.map((w) => w.x1));
  return (x0 >= marker.x1 && x0 - marker.x1 < 6 * em) || (x1 <= marker.x0 && marker.x0 - x1 < 6 * em);
}

/** Whether `w` sits on the line `words` make, inside its extent. */
function within(words: Word[], w: Word): boolean {
  // A level mark belongs to a level line: a chart's tick label inside its turned axis title's extent does not.
  if (words[0]!.rotated !== undefined) return false;
  const top = Math.max(...words.map((x) => x.top));
  const bottom = Math.min(...words.map((x) => x.bottom));
  const em = words[0]!.size;
  const overlap = Math.min(top, w.top) - Math.max(bottom, w.bottom);
  return overlap > 0.5 * (w.top - w.bottom) && w.x0 >= Math.min(...words.map((x) => x.x0)) - em && w.x1 <= Math.max(...words.map((x) => x.x1)) + em;
}

function onSameLine(line: Word[], w: Word): boolean {
  const last = line.at(-1)!;
  const height = Math.min(last.top - last.bottom, w.top - w.bottom);
  const overlap = Math.min(last.top, w.top) - Math.max(last.bottom, w.bottom);
  const em = Math.max(last.size, w.size, 1);
  // A superscript or subscript (a footnote mark, an accent set apart) rides on the line beside it.
  const small = Math.min(last.size, w.size) < 0.85 * em && overlap > 0 && Math.abs(w.x0 - last.x1) < 0.5 * em;
  if (overlap < height * 0.5 && !small) return false;
  // A gap wider than this on one baseline is a column gutter or a table's.
  const maxGap = 1.6 * em;
  // Rightwards from the last word's start: a mark or an accent drawn over the word before still belongs to the line.
  const rightwards = w.x0 >= last.x0 && w.x0 - last.x1 < maxGap;
  if (rightwards) return true;
  // A right-to-left line comes in runs drawn in either direction (a number or a Latin word inside
  // it is drawn left to right): any word beside what the line holds so far belongs to it.
  // So may one whose first run is a number, drawn before a Latin word of its size to its left ("5.22 | COVID-19 ...").
  const numberFirst = () => Math.abs(w.size - last.size) < 0.1 * em && !line.some((x) => LETTER.test(x.text));
  if (!RTL_CHAR.test(w.text) && !line.some((x) => RTL_CHAR.test(x.text)) && !numberFirst()) return false;
  const x0 = Math.min(...line.map((x) => x.x0));
  const x1 = Math.max(...line.map((x) => x.x1));
  return w.x1 >= x0 - maxGap && w.x0 <= x1 + maxGap;
}

function makeLine(words: Word[], pageHeight: number): Line {
  // One pass for the extent, the order, the character counts and the most common size.
  let [x0, x1, top, bottom, order] = [Infinity, -Infinity, -Infinity, Infinity, Infinity];
  let letters = 0;
  let rtlChars = 0;
  let boldChars = 0;
  let italicChars = 0;
  let monoChars = 0;
  let sorted = true;
  let longest = 0;
  let foot = 0;
  const bySize = new Map<number, number>();
  // Most lines are set in one family: counted only from the first word that differs.
  let family = words[0]!.family;
  let byFamily: Map<string | undefined, number> | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.x0 < x0) x0 = w.x0;
    if (w.x1 > x1) x1 = w.x1;
    if (w.top > top) top = w.top;
    if (w.bottom < bottom) bottom = w.bottom;
    if (w.first < order) order = w.first;
    if (i > 0 && w.x0 < words[i - 1]!.x0) sorted = false;
    const n = w.text.length;
    letters += n;
    if (w.bold) boldChars += n;
    if (w.italic) italicChars += n;
    if (w.mono) monoChars += n;
    rtlChars += w.rtlChars;
    const size = Math.round(w.size * 2) / 2;
    bySize.set(size, (bySize.get(size) ?? 0) + n);
    if (w.family !== family || byFamily) {
      byFamily ??= new Map([[family, letters - n]]);
      byFamily.set(w.family, (byFamily.get(w.family) ?? 0) + n);
    }
    if (n > longest) [longest, foot] = [n, w.bottom];
  }
  const rtl = rtlChars > letters * 0.3;
  // A right-to-left line reads from its right end; its words' own letters are in logical order already
  // when PDFium gives them in content order, which producers write logically.
  const ordered = words[0]!.rotated !== undefined || (!rtl && sorted) ? words : rtl ? rightToLeft(words) : [...words].sort((a, b) => a.x0 - b.x0);
  const text = lineText(ordered, rtl);
  let size = 0;
  let most = -1;
  for (const [s, n] of bySize) {
    if (n > most || (n === most && s > size)) [size, most] = [s, n];
  }
  if (byFamily) {
    most = -1;
    for (const [f, n] of byFamily) if (n > most) [family, most] = [f, n];
  }
  return {
    x0,
    x1,
    y0: pageHeight - top,
    y1: pageHeight - bottom,
    foot: pageHeight - foot,
    size,
    bold: boldChars > letters * 0.6,
    italic: italicChars > letters * 0.6,
    mono: monoChars > letters * 0.8,
    family,
    text,
    words: ordered,
    order,
    hyphen: ordered.at(-1)!.hyphen || /[a-z\u00df-\u00ff]-$/.test(text),
    rtl,
    rotated: words[0]!.rotated !== undefined,
    tag: lineTag(ordered) ?? words[0]!.tag,
  };
}

/**
 * The structure element a line belongs to: its first word's (left to right), or, where that is a list's bullet
 * alone, the next word's (a producer may tag a bullet apart from its item's text, even with the paragraph before it).
 */
function lineTag(ordered: Word[]): Tag | undefined {
  const [first, second] = ordered;
  return second?.tag !== undefined && first!.tag?.element !== second.tag.element && BULLET.test(first!.text) ? second.tag : first!.tag;
}

/**
 * A number in a right-to-left line, read: signs a producer set left of its digits (".%40.7" for
 * "40.7%.", ":1" for "1:") come after them, right to left as the line reads.
 */
function numberInRtl(w: Word): string {
  const parts = /^([.,:;!?%\u066a\u060c\u061b\u061f]+)(\d[\d.,]*[%\u066a]?)$/.exec(w.text);
  return parts ? parts[2]! + [...parts[1]!].reverse().join('') : w.text;
}

/** Punctuation that closes what stands before it: full stops, commas, colons and question marks, Arabic ones too. */
const CLOSING = /^[.,:;!?\u060c\u061b\u061f]+$/;

/** A line's words, in reading order, as its text: a space where a word space stands. */
function lineText(ordered: Word[], rtl: boolean): string {
  const read = rtl ? numberInRtl : (w: Word) => w.text;
  const spacedOut = rtl ? null : letterGap(ordered);
  // A line that opens with ".1" opens a right-to-left numbered list's item: its marker is read as such.
  let text = rtl && /^[.)]\d{1,3}$/.test(ordered[0]!.text) ? ordered[0]!.text : read(ordered[0]!);
  for (let i = 1; i < ordered.length; i++) {
    const [prev, w] = [ordered[i - 1]!, ordered[i]!];
    // In a right-to-left line a left-to-right run reads rightwards, so the word after it stands beside the
    // run's first word, not its last: the gap is to the nearest word read so far, on either side.
    const gap = w.rotated !== undefined ? Infinity : rtl ? nearestGap(ordered, i) : w.x0 - prev.x1;
    // Pieces of one word split by a change of style sit closer than a word space. In a right-to-left
    // line, where producers draw punctuation apart and its box says little, a stop or a comma follows
    // its word and a word follows it after a space.
    if (rtl && CLOSING.test(w.text)) text += w.text;
    else if (rtl && CLOSING.test(prev.text) && /[\p{L}\p{N}]/u.test(w.text)) text += ` ${read(w)}`;
    else if (spacedOut !== null && gap < 1.5 * spacedOut) text += w.text;
    // Chinese and Japanese set no spaces between words: a gap between their characters is spacing, not a space.
    else if (HAN_KANA_END.test(prev.text) && HAN_KANA_START.test(w.text) && gap < Math.max(prev.size, w.size)) text += w.text;
    else text += (gap > 0.1 * Math.max(prev.size, w.size) || (w.spaced && w.first > prev.last) || (rtl && scriptsMeet(prev.text, w.text)) ? ' ' : '') + read(w);
  }
  return text;
}

/**
 * Whether a Latin (or other left-to-right) word meets a right-to-left one: no word is written in both, so
 * they are two words, though a producer that draws the space of a left-to-right run on its far side
 * ("و Python" then "من" touching "Python") leaves no gap between them.
 */
const scriptsMeet = (before: string, after: string) =>
  (LTR_LETTER.test(before.slice(-1)) && RTL_CHAR.test(after[0] ?? '')) || (RTL_CHAR.test(before.slice(-1)) && LTR_LETTER.test(after[0] ?? ''));

/**
 * The gap between the letters of a line set letter-spaced ("S t e e l J I S"), which PDFium reads as
 * one-letter words: most of its words single letters, at least six, and wider gaps between its real
 * words. Null for any other line (a row of answer choices "A B C D" has no wider gaps). Where the
 * spacing is slight, PDFium keeps some letters together ("H e re i s so me"): then nearly every word is
 * a piece of three letters or fewer, a third of them single letters, the gap between them a fifth of
 * the type's size or less (a word space is wider) and the gaps between real words 2.5 times as wide.
 */
function letterGap(words: Word[]): number | null {
  const single = words.filter((w) => ONE_LETTER.test(w.text)).length;
  const pieces = words.filter((w) => LETTER_PIECE.test(w.text)).length;
  const spaced = single >= 6 && single >= 0.7 * words.length;
  const slightly = pieces >= 6 && pieces >= 0.8 * words.length && single >= 0.3 * words.length;
  if (!spaced && !slightly) return null;
  const gaps: number[] = [];
  for (let i = 1; i < words.length; i++) gaps.push(words[i]!.x0 - words[i - 1]!.x1);
  const sorted = [...gaps].sort((a, b) => a - b);
  const letter = sorted[Math.floor(sorted.length / 2)]!;
  if (!(letter > 0)) return null;
  if (spaced) return sorted.at(-1)! >= 2 * letter ? letter : null;
  const size = words.map((w) => w.size).sort((a, b) => a - b)[Math.floor(words.length / 2)]!;
  return letter <= 0.2 * size && sorted.at(-1)! >= 2.5 * letter ? letter : null;
}

/** How far the `i`th word stands from the nearest of the words before it in `words`, on either side. */
function nearestGap(words: Word[], i: number): number {
  const w = words[i]!;
  let gap = Infinity;
  for (let j = 0; j < i; j++) gap = Math.min(gap, Math.max(words[j]!.x0 - w.x1, w.x0 - words[j]!.x1));
  return gap;
}

/**
 * A right-to-left line's words in logical order: from the right end, except
 * that a run of left-to-right words inside it keeps its own order: Latin
 * words, what stands between two of them ("Wi-Fi"), a number written onto
 * one ("COVID-19", "UTF-8") or set after one ("version 2.4"). Other numbers
 * are read from the right like the words around them ("1996 5.11" is two
 * numbers). A source's "version 2.4" and "1992 GPS" look the same on the
 * page, so such a pair's order is a guess; its words are whole either way.
 */
function rightToLeft(words: Word[]): Word[] {
  // By their middles: a mark drawn over the edge of the next word's box (a full stop by a wide lam-alef) still stands before it.
  const visual = [...words].sort((a, b) => b.x0 + b.x1 - (a.x0 + a.x1));
  const kind: Array<'R' | 'L' | 'N' | null> = visual.map((w) => (RTL_CHAR.test(w.text) ? 'R' : LTR_LETTER.test(w.text) ? 'L' : /\d/.test(w.text) ? 'N' : null));
  const glued = (i: number, j: number) => {
    const [a, b] = [visual[i], visual[j]];
    return a !== undefined && b !== undefined && kind[j] === 'L' && Math.max(a.x0 - b.x1, b.x0 - a.x1) < 0.15 * Math.max(a.size, b.size);
  };
  // A number with a Latin word just left of it follows that word in one run ("version 2.4", rule W7), the
  // likelier reading of a page that cannot tell it from a number before the word ("1992 GPS").
  // A number that ends a sentence (its full stop drawn on its left, "71.3%.") does not.
  const follows = (i: number) => kind[i + 1] === 'L' && !/^[.,:;!?]/.test(visual[i]!.text) && visual[i]!.x0 - visual[i + 1]!.x1 < 0.6 * visual[i]!.size;
  const numbers = kind.map((k) => k === 'N');
  for (let i = 0; i < kind.length; i++) if (kind[i] === 'N') kind[i] = glued(i, i - 1) || glued(i, i + 1) || follows(i) ? 'L' : 'R';
  // A sign written onto a number's right ("40.7%", "1:") is read after it, the two left to right.
  for (let i = 0; i + 1 < kind.length; i++) {
    const [sign, number] = [visual[i]!, visual[i + 1]!];
    if (kind[i] === null && numbers[i + 1] && sign.x0 - number.x1 < 0.15 * Math.max(sign.size, number.size)) kind[i] = kind[i + 1] = 'L';
  }
  // Punctuation between two left-to-right words goes with them; elsewhere it follows the line.
  const strong = (from: number, step: number) => {
    for (let j = from; j >= 0 && j < kind.length; j += step) if (kind[j] !== null) return kind[j];
    return null;
  };
  for (let i = 0; i < kind.length; i++) if (kind[i] === null) kind[i] = strong(i - 1, -1) === 'L' && strong(i + 1, 1) === 'L' ? 'L' : 'R';
  const out: Word[] = [];
  let run: Word[] = [];
  const flush = () => {
    out.push(...run.reverse());
    run = [];
  };
  visual.forEach((w, i) => {
    if (kind[i] === 'L') run.push(w);
    else {
      flush();
      out.push(w);
    }
  });
  flush();
  return out;
}

// LaTeX's itemize labels are •, –, ∗ and ·.
const BULLET = /^[•●○◦▪▫■□◆◇►▸▹➢➤✓✔∙⁃‣·∗−\-–—*❖❑➔⦁◼▶\uf0a7\uf0b7\uf0d8\uf076\uf0fc\ue000-\uf8ff]$/u;
// Numbers, lower-case letters and roman numerals with a full stop or parenthesis; capitals only in parentheses ("A." starts names).
const ENUMERATOR = /^(?:\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)]|\(?[A-Z]\)|\([A-Z]|[IVXLC]{1,6}\))$/;

/** A number run into the capital of its item's first word ("1.Small"). */
const GLUED_NUMBER = /^\d{1,3}[.)](?=\p{Lu}\p{Ll})/u;

/** The bullet or enumerator a line opens with, if it opens with one set apart from its text. */
export function listMarker(line: Line): ListMarker | null {
  const [first, second] = [line.words[0]!, line.words[1]];
  if (!second || first.rotated !== undefined) return null;
  if (line.rtl) {
    // The marker stands at the right end; digits keep their order, the stop may come out on either side.
    const number = /^[.)]?(\d{1,3})[.)]?$/.exec(first.text);
    if (BULLET.test(first.text)) return { ordered: false, text: first.text, textX: second.x1 };
    if (number && /[.)]/.test(first.text)) return { ordered: true, text: first.text, textX: second.x1 };
    return null;
  }
  const gap = second.x0 - first.x1;
  if (BULLET.test(first.text) && gap > 0.1 * first.size) return { ordered: false, text: first.text, textX: second.x0 };
  // A number before nothing but numbers is a telephone number's area code ("(702) 939-3254") or a row of figures, not an item.
  if (ENUMERATOR.test(first.text) && gap > 0.1 * first.size && line.words.slice(1).some((w) => LETTER.test(w.text))) return { ordered: true, text: first.text, textX: second.x0 };
  // Word's second-level bullet is a letter o (Courier New), a tab away from its text: a word "o" is a space away.
  if (first.text === 'o' && gap > 0.8 * first.size && STARTS_WITH_LETTER.test(second.text)) return { ordered: false, text: 'o', textX: second.x0 };
  // A bullet glued to its word ("•Item") still opens an item.
  if (/^[•●▪■►➢✓✔]\S/u.test(first.text)) return { ordered: false, text: first.text[0]!, textX: first.x0 + first.size };
  // So does a number set close to its item's first word, with no space between ("1.Small", as Impress prints its
  // numbered lists); prose never runs a number's stop into a capital.
  const glued = GLUED_NUMBER.exec(first.text);
  if (glued) return { ordered: true, text: glued[0], textX: first.x0 + ((first.x1 - first.x0) * glued[0].length) / first.text.length };
  return null;
}

/** Lines (content order) into blocks (content order). */
export function toBlocks(lines: Line[]): TextBlock[] {
  const spacing = lineSpacing(lines);
  const right = columnRight(lines);
  const spaced = spacedParagraphs(lines, spacing);
  const blocks: TextBlock[] = [];
  let block: TextBlock | null = null;
  for (const line of lines) {
    // A fixed-pitch line is a listing's or a preformatted text's: its dashes and numbers are its own, not list marks.
    const marker = line.mono ? null : listMarker(line);
    const runOn = marker !== null && block !== null && (separates(block, marker) || midSentence(block, line, marker, right));
    if (block && continues(block, line, runOn ? null : marker, spacing, right, spaced)) {
      addLine(block, line);
      continue;
    }
    block = newBlock(line, marker);
    blocks.push(block);
  }
  return blocks;
}

/**
 * A bullet the line above uses between its words ("Analysis · Deep Learning ·"),
 * and that is not the bullet of the item it belongs to, opens no item: the
 * line carries on a run of separated terms (keywords, a breadcrumb).
 */
function separates(block: TextBlock, marker: ListMarker): boolean {
  if (marker.ordered || block.marker?.text === marker.text) return false;
  return block.lines.at(-1)!.words.some((w, i) => i > 0 && w.text === marker.text);
}

/**
 * A letter or number with a stop that a paragraph's sentence wraps onto the start of a line ("... had /
 * a. Recent ...") opens no item: the line above is a paragraph's, full to its column's edge, and stops
 * nowhere; the line starts where the paragraph's lines start (an item's number hangs or is indented).
 */
function midSentence(block: TextBlock, line: Line, marker: ListMarker, right: (left: number, em: number, rtl: boolean, line: Line) => number): boolean {
  const prev = block.lines.at(-1)!;
  if (block.marker || !marker.ordered || block.lines.length < 2 || prev.rtl || line.rtl || SENTENCE_END.test(prev.text) || /[;,]$/.test(prev.text)) return false;
  const em = Math.max(prev.size, line.size);
  const edge = right(block.x0, em, false, prev);
  const full = edge !== Infinity ? prev.x1 >= edge - 1.5 * em : prev.x1 >= block.x1 - 1.5 * em;
  return full && Math.abs(line.x0 - block.x0) < 0.5 * em;
}

/** Lines already known to read as one block (cut from another), as a block. */
export function blockOf(lines: Line[]): TextBlock {
  const block = newBlock(lines[0]!, listMarker(lines[0]!));
  for (const line of lines.slice(1)) addLine(block, line);
  return block;
}

function newBlock(line: Line, marker: ListMarker | null): TextBlock {
  return { lines: [line], x0: line.x0, x1: line.x1, y0: line.y0, y1: line.y1, size: line.size, bold: line.bold, italic: line.italic, mono: line.mono, family: line.family, order: line.order, marker };
}

/**
 * The usual distance from one line's foot to the next within a paragraph on
 * this page, as a multiple of the font size (boxes of fonts with tall
 * ascenders overlap, so feet are compared, not gaps).
 */
function lineSpacing(lines: Line[]): number {
  const pitches: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    const pitch = (b.foot - a.foot) / a.size;
    if (a.size !== b.size || pitch < 0.5 || !overlapX(a, b)) continue;
    pitches.push(pitch);
  }
  if (pitches.length < 3) return 1.25;
  pitches.sort((x, y) => x - y);
  // The lower quartile: paragraphs' own line pitches are the most common and the smallest.
  return pitches[Math.floor(pitches.length / 4)]!;
}

function overlapX(a: { x0: number; x1: number }, b: { x0: number; x1: number }): boolean {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
}

/**
 * Where most full lines of the column starting at `left` end: a line stopping
 * well short of it ends its paragraph. Infinity when the column has too few
 * lines to tell. A page can set one column above two (a browser's CSS columns,
 * a report's summary over its body) with both starting at the same margin:
 * a line with another column's text beside it is measured among such lines,
 * so it is not taken for a short full-width one.
 */
function columnRight(lines: Line[]): (left: number, em: number, rtl: boolean, line: Line) => number {
  const long = lines.filter((l) => l.text.length >= 25 && !l.rotated);
  const byFoot = [...lines].sort((a, b) => a.foot - b.foot);
  const flanked = new Map<Line, boolean>();
  const besideAnother = (l: Line): boolean => {
    let beside = flanked.get(l);
    if (beside !== undefined) return beside;
    beside = false;
    // The lines whose feet are within a few lines of its own (the other column may have a heading's space there).
    const reach = 3 * l.size;
    let lo = 0;
    let hi = byFoot.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byFoot[mid]!.foot < l.foot - reach) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < byFoot.length && byFoot[i]!.foot <= l.foot + reach && !beside; i++) {
      const o = byFoot[i]!;
      beside = o !== l && !o.rotated && (o.x0 > l.x1 + l.size || o.x1 < l.x0 - l.size) && o.text.length >= 10;
    }
    flanked.set(l, beside);
    return beside;
  };
  const memo = new Map<string, number>();
  return (left, em, rtl, line) => {
    const beside = besideAnother(line);
    const key = `${rtl}|${beside}|${Math.round(left / em)}`;
    let right = memo.get(key);
    if (right === undefined) {
      const ends = long.filter((l) => l.rtl === rtl && Math.abs(lineStart(l) - left) < 3 * em && (!beside || besideAnother(l))).map(lineEnd);
      ends.sort((a, b) => a - b);
      right = ends.length < 2 ? Infinity : ends[Math.floor(ends.length * 0.75)]!;
      memo.set(key, right);
    }
    return right;
  };
}

/** Where a line starts and ends in its reading direction: right-to-left lines are measured mirrored, so larger is further on. */
const lineStart = (l: { x0: number; x1: number; rtl?: boolean }) => (l.rtl ? -l.x1 : l.x0);
const lineEnd = (l: { x0: number; x1: number; rtl?: boolean }) => (l.rtl ? -l.x0 : l.x1);

/**
 * Whether the page sets its paragraphs apart with space: then a line at the
 * usual distance below another is the same paragraph, however short the line
 * above it (a line break, an address), and only a wider gap parts them.
 */
function spacedParagraphs(lines: Line[], spacing: number): boolean {
  let normal = 0;
  let wide = 0;
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1]!, lines[i]!];
    const pitch = (b.foot - a.foot) / a.size;
    if (a.size !== b.size || a.bold !== b.bold || pitch < 0.5 || pitch > spacing + 2 || !overlapX(a, b) || listMarker(b)) continue;
    if (pitch > Math.max(spacing, 1) + 0.45) wide++;
    else normal++;
  }
  // Paragraph gaps are fewer than line gaps but not rare: one paragraph in about every eight lines or more.
  return wide >= 2 && wide * 8 >= normal;
}

/**
 * A line set under the text of a first line that opens with a label a tab
 * before it ("A.<tab>BANK ACCOUNTS AND DEPOSIT," over "DISBURSEMENT OF FUNDS"):
 * a hanging indent, as headings and items numbered by hand are set, where
 * the label is no list marker (a capital and a stop may be an initial).
 */
function hangsUnderLabel(block: TextBlock, line: Line, em: number): boolean {
  const first = block.lines[0]!;
  if (block.lines.length !== 1 || first.words.length < 2) return false;
  const [label, text] = [first.words[0]!, first.words[1]!];
  return HAND_LABEL.test(label.text) && text.x0 - label.x1 > em && Math.abs(line.x0 - text.x0) < 0.6 * em;
}

/** A label numbering a heading or an item by hand: "A.", "b)", "12.", "IV.", "§". */
const HAND_LABEL = /^(?:[\p{L}]|\d{1,3}|[IVXLC]{1,6}|[ivxlc]{1,6})[.)]$|^§$/u;

/**
 * A line that opens with a capital's or a roman number's label a tab before its text ("A.⇥PURPOSE", "IV.⇥SCOPE")
 * opens a heading or an item of its own, wherever the line above stopped. (Not a list marker: a capital and a stop
 * may be an initial, but a name's initial opening a line stands a word space from the name; justified text,
 * which spaces a line's words widely, spaces them all alike.)
 */
function opensWithCapitalLabel(line: Line, em: number): boolean {
  const [label, text] = line.words;
  if (line.rtl || !text || !/^(?:[A-Z]|[IVXLC]{1,6})\.$/.test(label!.text)) return false;
  const gap = text.x0 - label!.x1;
  if (gap <= em) return false;
  let widest = 0;
  for (let i = 2; i < line.words.length; i++) widest = Math.max(widest, line.words[i]!.x0 - line.words[i - 1]!.x1);
  return gap > 2 * widest;
}

function continues(
  block: TextBlock,
  line: Line,
  marker: ListMarker | null,
  spacing: number,
  columnRightOf: (left: number, em: number, rtl: boolean, line: Line) => number,
  spaced: boolean,
): boolean {
  const prev = block.lines.at(-1)!;
  const em = Math.max(prev.size, line.size);
  // A tagged PDF says which lines are one element: its tags part blocks, and join them. A bullet opening a line
  // opens an item even so: a producer may tag a list's items, bullets and all, as one element.
  // (A caption beside another on its baseline is its own, whatever one element the tags put them in.)
  if (prev.tag || line.tag) {
    const besideCaption = Math.abs(line.foot - prev.foot) < 0.5 * em && line.x0 > prev.x1 && CAPTION.test(line.text);
    return prev.tag?.element === line.tag?.element && !line.rotated && !prev.rotated && !(marker && !marker.ordered) && !besideCaption;
  }
  if (marker) return false;
  if (opensWithCapitalLabel(line, em)) return false;
  // A bold lead (small capitals, `FOR FURTHER INFORMATION CONTACT:`) that took most of its line but ended inside it
  // leaves the line in the paragraph's own type: its last word's, which the next line is set in.
  const tail = prev.words.at(-1)!;
  const leadEnded = !prev.rtl && prev.bold && !tail.bold && !line.bold && Math.abs(tail.size - largest(line)) < 0.02 * em;
  if ((Math.abs(line.size - prev.size) > 0.12 * em && !leadEnded) || line.mono !== prev.mono || line.rotated || prev.rotated) return false;
  const rtl = prev.rtl;
  // Measured in the block's reading direction: mirrored for right-to-left text.
  const left = rtl ? -block.x1 : block.x0;
  // A wrapped item's line in another weight that hangs under its text is still the item's (a bold question and
  // its plain "(Please select all that apply)"): a one-line bold item over plain text is a heading over its paragraph.
  const hangsInItem = block.marker !== null && !rtl && block.lines.length >= 2 && Math.abs(line.x0 - block.marker.textX) < 0.6 * em;
  if (line.bold !== prev.bold && !hangsInItem && !leadEnded && !boldLeadRunsOn(prev, line, columnRightOf(left, em, rtl, prev), em, (line.foot - prev.foot) / prev.size <= Math.max(spacing, 1) + 0.1)) return false;
  const pitch = (line.foot - prev.foot) / prev.size;
  if (pitch < 0.5 || pitch > Math.max(spacing, 1) + 0.45 + 1 / em) return false;
  if (!overlapX(line, block)) return false;
  // A contents entry ends at its page number, after its leader dots, however full its line.
  if (LEADER_END.test(prev.text)) return false;
  if (block.mono) return true;
  if (block.marker) {
    // A numbered line set a step larger and in another typeface than the line under it heads that line's
    // paragraph ("(1) Scope" in a sans over serif text): the paragraph is not the item's text run on.
    if (block.lines.length === 1 && block.marker.ordered && prev.family !== undefined && line.family !== undefined && prev.family !== line.family && prev.size - line.size >= 0.03 * em) return false;
    // An item's next line hangs under its text, not under its marker.
    if (line.rtl) return line.x1 <= block.marker.textX + 0.6 * em || line.x1 < block.x1 - 0.6 * em;
    const underMarker = prev.x0 < block.marker.textX - 0.6 * em;
    const edge = columnRightOf(block.x0, em, false, prev);
    if (line.x0 > block.x0 + 0.6 * em || line.x0 >= block.marker.textX - 0.6 * em) {
      // An item that wrapped back under its marker does not hang: a line further in opens a paragraph. Nor does
      // a line set in further than the item's text that opens with a capital after an unfinished line with room
      // for its first word: a paragraph after the list, its first line indented (a line under the item's text
      // there is the item's own line break, as slides set a bullet's heading and its sentence).
      if (underMarker && block.lines.length > 1) return false;
      const setIn = line.x0 > block.marker.textX + 0.3 * em;
      return !(setIn && edge !== Infinity && STARTS_UPPER.test(line.text) && !SENTENCE_END.test(prev.text) && nextWordFits(prev.x1, edge, line, em));
    }
    // Items set without a hanging indent wrap back under their marker (or their column's margin): the line
    // above (the marker's, or one already back under it) ran to the column's edge mid-sentence, where the
    // next line's first word no longer fitted, and the line carries the sentence on (in lower case or with a
    // figure, or with a name after a line that stopped on a word or a comma: "Department of | Transportation"; a
    // contents entry stops on its page number).
    const carriesOn = CARRIES_ON.test(line.text) || (STOPS_ON_WORD.test(prev.text) && !HAN_KANA_START.test(line.text));
    return underMarker && !prev.rtl && carriesOn && edge !== Infinity && !SENTENCE_END.test(prev.text) && !nextWordFits(prev.x1, edge, line, em);
  }
  const p = { start: rtl ? -prev.x1 : prev.x0, end: rtl ? -prev.x0 : prev.x1 };
  const n = { start: rtl ? -line.x1 : line.x0, end: rtl ? -line.x0 : line.x1 };
  const right = rtl ? -block.x0 : block.x1;
  // An indented line after a full one, or after one that ends a sentence, opens a new paragraph
  // (right-to-left text is as often set flush left as right, so where its lines start says nothing).
  const ended = p.end > right - 2 * em || SENTENCE_END.test(prev.text);
  if (!rtl && n.start > left + 0.9 * em && n.start - p.start > 0.9 * em && ended && !centred(block, line) && !underTitle(prev, line, em) && !hangsUnderLabel(block, line, em))
    return false;
  const columnEnd = columnRightOf(left, em, rtl, prev);
  // A line left short mid-sentence because the next line's first word (a web address, a long compound) would not
  // fit in what it left of the column is a full line all the same.
  const reach = Math.max(right, n.end, columnEnd === Infinity ? -Infinity : columnEnd);
  // It is set in the same type as the line it carries on to (a label a half point larger over its text is no such
  // line); Chinese and Japanese set no spaces: their next line's first word is its first character, which any room takes.
  const carried =
    !rtl && MID_SENTENCE.test(prev.text) && !HAN_KANA_START.test(line.text) && Math.abs(largest(prev) - largest(line)) < 0.02 * em && !nextWordFits(p.end, reach, line, em);
  // A line far shorter than the one after it ends something (a label, a title over its text): in a
  // paragraph every line but the last runs to the same edge, ragged by no more than a word.
  if (p.end < n.end - Math.max(6 * em, 0.2 * (n.end - n.start)) && !centred(block, line) && !carried) return false;
  if (endsRow(block, line, left, em, rtl, columnRightOf)) return false;
  // A line that opens with a run-in lead (`DATES:`, `Background.` in bold before plain text) after a sentence's end
  // opens a paragraph, however little room the line above had left.
  if (!rtl && !line.bold && SENTENCE_END.test(prev.text) && opensWithLead(line)) return false;
  if (spaced) return true;
  // A short line that ends a sentence ends its paragraph.
  if (block.lines.length >= 2 && p.end < right - 4 * em && SENTENCE_END.test(prev.text)) return false;
  // So does a line that stops far short of where its column's lines end, unless the lines are centred.
  if (columnEnd !== Infinity && p.end < columnEnd - 0.35 * (columnEnd - left) && !centred(block, line) && !carried) return false;
  // Running text breaks a line only where the next word no longer fits: a line that ends a sentence
  // with room left for the next line's first word was ended on purpose (one-line paragraphs set
  // without space between them, where no line of the block shows how wide the column is).
  const edge = Math.max(right, columnEnd === Infinity ? -Infinity : columnEnd);
  if (SENTENCE_END.test(prev.text) && nextWordFits(p.end, edge, line, em) && !centred(block, line)) return false;
  // Right-to-left text set flush left leaves its room at the line's start: what counts is how much
  // shorter the line is than the block, on whichever side.
  if (rtl && SENTENCE_END.test(prev.text) && nextWordFits(prev.x1 - prev.x0, block.x1 - block.x0, line, em)) return false;
  return true;
}

/** A heading's label set before its title: a chapter's or part's word and number, or (in bold) a section number. */
const HANGING_LABEL = /^(?:chapter|part|section|appendix|article)\s+[\dIVXLC]{1,4}[.:]?$/i;
const LABEL_NUMBER = /^\d{1,3}(?:\.\d{1,3})*\.?$/;

/**
 * A line that starts under the first word after a label opening the line above ("Chapter 1. | Securing and
 * protecting" over "data"): the label hangs in the margin and the title wraps under its own first word.
 */
function underTitle(prev: Line, line: Line, em: number): boolean {
  const words = prev.words;
  for (let i = 1; i <= 2 && i < words.length; i++) {
    if (Math.abs(words[i]!.x0 - line.x0) >= 0.3 * em) continue;
    const label = words.slice(0, i).map((w) => w.text).join(' ');
    // A number alone may be a table's figure or a contents entry's page: only a bold line's is a section's.
    return HANGING_LABEL.test(label) || (prev.bold && line.bold && LABEL_NUMBER.test(label));
  }
  return false;
}

/**
 * Lines that are entries, not a paragraph's: the next opens with the capital
 * after the one the block opened with ("B. ROLE ...", "C. DUTIES ...": an
 * outline's or a contents list's entries, which the list-mark test leaves to
 * names) or with a section's number after a block that opened with one
 * ("2.3.59.1.4 Program Management"), or, after a line that had room for its
 * first word, opens with a capital and a stop or parts its words at a tab as
 * the line above does (rows of a two-column list). Where space sets paragraphs apart, a short line
 * otherwise runs on into the next (an address, a line break).
 */
function endsRow(block: TextBlock, line: Line, left: number, em: number, rtl: boolean, columnRightOf: (left: number, em: number, rtl: boolean, line: Line) => number): boolean {
  const prev = block.lines.at(-1)!;
  if (line.words.length > 1 && SECTION_NUMBER.test(line.words[0]!.text) && SECTION_NUMBER.test(block.lines[0]!.words[0]!.text)) return true;
  const letter = CAPITAL_MARK.exec(line.words[0]!.text);
  if (letter && line.words.length > 1) {
    const opening = CAPITAL_MARK.exec(block.lines[0]!.words[0]!.text);
    if (opening && opening[1]!.charCodeAt(0) + 1 === letter[1]!.charCodeAt(0) && Math.abs(block.lines[0]!.x0 - line.x0) < 0.5 * em) return true;
  }
  const columnEnd = columnRightOf(left, em, rtl, prev);
  if (columnEnd === Infinity || !nextWordFits(lineEnd(prev), columnEnd, line, em)) return false;
  return (letter !== null && line.words.length > 1) || (tabbed(prev, em) && tabbed(line, em));
}

/** A line that stops inside a sentence: on a word, a figure, a comma, or a web address's slash or hyphen. */
const MID_SENTENCE = /[\p{L}\p{N},/\-–]$/u;

/** A line that opens, past any bracket or quote, in lower case or with a figure: a sentence carried on, not a new one. */
const CARRIES_ON = /^[\p{Ps}\p{Pi}"']*[\p{Ll}\p{N}]/u;

/** A section's number of two levels or more, or an exhibit's ("2.3.59.1", "4.2.", "2.3.59-13"). */
const SECTION_NUMBER = /^\d{1,3}(?:\.\d{1,3}){1,6}(?:-\d{1,3})?\.?$/;

/** A capital and a stop or bracket: an outline's entry mark, or a name's initial. */
const CAPITAL_MARK = /^([A-Z])[.)]$/;

/** Whether two words of a line stand a tab apart (a gap of two ems or more). */
function tabbed(line: Line, em: number): boolean {
  // Right-to-left words are in logical order: each stands to the left of the one before.
  return line.words.some((w, i) => i > 0 && (line.rtl ? line.words[i - 1]!.x0 - w.x1 : w.x0 - line.words[i - 1]!.x1) >= 2 * em);
}

/** Whether `line`'s first word, and a space, would have fitted after a line ending at `end` in a column ending at `edge` (both in reading direction). */
function nextWordFits(end: number, edge: number, line: Line, em: number): boolean {
  const first = line.words[0];
  return first !== undefined && edge - end > first.x1 - first.x0 + em;
}

/** Text whose first letter, after any figures and punctuation, is lower case. */
const FIRST_LETTER_LOWER = /^[^\p{L}\p{N}]*\p{Ll}/u;

/**
 * A paragraph that opens with a bold sentence (a run-in lead, as news and
 * reports set them) changes weight inside a line: a bold line that had no
 * room for the next line's first word, and a next line that starts bold, or
 * carries the sentence on in lower case (the bold ended with the line), are
 * one paragraph. A lead that ends its sentence with the line runs on too into
 * a plain line at its margin set at the page's line spacing under it (`close`),
 * where a heading or a paragraph of its own would stand apart.
 */
function boldLeadRunsOn(prev: Line, line: Line, columnEnd: number, em: number, close: boolean): boolean {
  if (!prev.bold || line.bold || columnEnd === Infinity || nextWordFits(lineEnd(prev), columnEnd, line, em)) return false;
  if (!SENTENCE_END.test(prev.text)) return !!line.words[0]?.bold || FIRST_LETTER_LOWER.test(line.text);
  return close && Math.abs(lineStart(line) - lineStart(prev)) < 0.3 * em;
}

/**
 * Lines centred on the same axis (a centred title over two lines) are not
 * indented paragraphs. Plain lines must also start further in: two
 * left-aligned lines of about the same length share an axis too, and start
 * at the same x (loose character boxes start at the glyph's origin). Bold
 * lines keep the looser test: a heading wrapped in a narrow column reads as
 * one heading either way.
 */
function centred(block: TextBlock, line: Line): boolean {
  const prev = block.lines.at(-1)!;
  return Math.abs((prev.x0 + prev.x1) / 2 - (line.x0 + line.x1) / 2) < prev.size && line.x1 < prev.x1 && (prev.bold || line.x0 > prev.x0 + 0.1 * prev.size);
}

function addLine(block: TextBlock, line: Line): void {
  block.lines.push(line);
  // A bold lead run on into plain text leaves a plain paragraph.
  block.bold &&= line.bold;
  block.italic &&= line.italic;
  block.x0 = Math.min(block.x0, line.x0);
  block.x1 = Math.max(block.x1, line.x1);
  block.y0 = Math.min(block.y0, line.y0);
  block.y1 = Math.max(block.y1, line.y1);
}

/** A line that opens with a few bold words, the last ending in a colon or a stop, before plain text. */
function opensWithLead(line: Line): boolean {
  const plain = line.words.findIndex((w) => !w.bold);
  return plain > 0 && plain <= 6 && /[:.]$/.test(line.words[plain - 1]!.text);
}

/** The size of a line's largest words, unrounded. */
const largest = (line: Line) => Math.max(...line.words.map((w) => w.size));

/** A line that stops on a word or a comma. */
const STOPS_ON_WORD = /[\p{L},]$/u;

/** A word that is a web address cut after a slash, or an e-mail address cut after its at sign. */
const URL_BROKEN = /^(?:(?:https?:|www\.)\S*\/|\S+@)$/;

/**
 * Whether the paragraph so far ends in a word a line break cut (`URL_BROKEN`). Its last word is tested, not the
 * whole text: an expression anchored at the end is tried from every position, which over a paragraph joined a line
 * at a time is quadratic in its length.
 */
function endsInBrokenAddress(text: string): boolean {
  const last = text.at(-1);
  if (last !== '/' && last !== '@') return false;
  let start = text.length - 1;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  return URL_BROKEN.test(text.slice(start));
}

/** A block's lines as one paragraph: line breaks become spaces, words hyphenated across them are joined again. */
export function joinLines(lines: Line[]): string {
  let text = '';
  lines.forEach((line, i) => {
    if (i === 0) {
      text = line.text;
      return;
    }
    const prev = lines[i - 1]!;
    if (prev.hyphen && /^[a-z\u00df-\u00ff]/.test(line.text) && text.endsWith('-')) text = text.slice(0, -1) + line.text;
    // Chinese and Japanese run on without spaces; Korean, whose words stand apart, is mostly set to wrap between them.
    else if (HAN_KANA_END.test(text.slice(-1)) && HAN_KANA_START.test(line.text)) text += line.text;
    // A web address broken after a slash ("https://" | "www.example.org"), an e-mail address after its at sign, or a
    // number's range or an identifier after a dash that follows a figure ("FAA-2020-" | "0686") is one word again.
    else if ((endsInBrokenAddress(text) && /^\S/.test(line.text)) || (/\d[-–]$/.test(text.slice(-2)) && /^[\p{L}\p{N}]/u.test(line.text))) text += line.text;
    else text += ' ' + line.text;
  });
  return text.replace(/\s+/g, ' ').trim();
}
