// A PDF page's words as PDFium's text API gives them: characters in content
// order joined while they sit on one baseline with no more than a thin space
// between them, each word with its box and the style of its font (size,
// weight, fixed pitch, family), which layout analysis reads headings and code from.

import { ONE_LETTER } from '../../engine/letters.ts';
import { withBuffer, type Pdfium } from './pdfium.ts';
import { isRtl } from './script.ts';
import type { TextRun } from './tables.ts';
import type { Tag } from './tags.ts';

export interface Word extends TextRun {
  first: number;
  last: number;
  /** Font size in points, as the text matrix scales it. */
  size: number;
  bold: boolean;
  italic: boolean;
  /** Fixed-pitch font: code, terminal output. */
  mono: boolean;
  /** Its font's family, without the subset tag and the style ("KoPubDotumMedium" and "KoPubDotumBold": "kopubdotum"); absent for OCR'd words. */
  family?: string;
  /** The word ends with a hyphen PDFium found at a line end (it reports U+0002 for those). */
  hyphen: boolean;
  /** A space character stood before it in the content stream. */
  spaced: boolean;
  /** How many of its letters are right-to-left (Hebrew, Arabic). */
  rtlChars: number;
  /** The marked-content id its text object carries (-1 for none): the key to a tagged PDF's structure. */
  mcid: number;
  /** In a tagged PDF, the structure element the word belongs to; untagged words there are artifacts. */
  tag?: Tag;
}

/** Per-character calls straight into the WebAssembly exports (the wrapped ones convert every argument). */
interface TextExports {
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetFontWeight(textPage: number, index: number): number;
  FPDFText_GetFontInfo(textPage: number, index: number, buffer: number, length: number, flags: number): number;
  FPDFText_GetCharAngle(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFPageObj_GetMarkedContentID(object: number): number;
  FPDFPageObj_GetMatrix(object: number, matrix: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
}

/** PDF font descriptor flags (PDF 32000-1, 9.8.2). */
const FIXED_PITCH = 1;
const SYMBOLIC = 4;
const ITALIC = 64;
const FORCE_BOLD = 1 << 18;

// TeX's Computer Modern and EC bold faces say so in two letters (CMBX10, CMB10, CMSSBX10, SFBX1000), and their
// stems weigh in under 600 (CMBX10 570 against CMR10's 345).
const BOLD_NAME = /bold|black|heavy|semibold|demi|[-,]bd\b|[a-z]bd$|(?:^|\+)(?:cm(?:bx|b|bxti|bxsl|ssbx|bsy)|(?:sf|ec)(?:bx|bi|bl))\d/i;
/**
 * A font name whose style part (after the family: "NotoSans-Regular", "DejaVuSans-Oblique") says it is of
 * regular or lighter weight; a slant alone implies the regular weight, unless a heavier one is named with it
 * ("FranklinGothic-MediumItalic").
 */
function statesLighter(name: string): boolean {
  const style = name.replace(/^[A-Z]{6}\+/, '').split(/[-,]/).slice(1).join('-');
  return /regular|light|book|thin|roman|plain/i.test(style) || (/italic|oblique/i.test(style) && !/medium|semi|demi/i.test(style));
}
const ITALIC_NAME = /italic|oblique|[-,]it\b/i;
const MONO_NAME = /mono|courier|consol|menlo|inconsolata|typewriter|fixed|\bcode\b|[^a-z]tt[^a-z]|^cmtt|sfmono/i;


/** What Windows-1252 writes at 0x80-0x9f (its five unused codes kept as they are). */
const WINDOWS_1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

interface FontStyle {
  bold: boolean;
  italic: boolean;
  mono: boolean;
  family: string;
  /** A dingbat font (Wingdings, ZapfDingbats): its codes stand for its pictures, whatever letters its map gives them. */
  dingbat: boolean;
}

/** Names of dingbat fonts: Wingdings 1 to 3, Webdings, ZapfDingbats and the type houses' own ("AllumiStd-DingbatsTwo"). */
const DINGBAT_NAME = /wingdings|webdings|dingbats/i;

/** A font name's family: without its subset tag, its style after a hyphen or comma, and the weight and slant words it ends with. */
function fontFamily(name: string): string {
  const base = name.replace(/^[A-Z]{6}\+/, '').split(/[-,]/)[0]!;
  return base
    .replace(/(?:PS)?MT$|PS$/, '')
    .replace(/(?:ultra|extra|semi|demi)?(?:thin|light|book|regular|roman|medium|bold|black|heavy)?(?:italic|oblique)?$/i, '')
    .toLowerCase();
}

/** `tagged`: read each word's marked-content id, the key into a tagged PDF's structure tree. */
export function pageWords(m: Pdfium, textPage: number, count: number, tagged = false): Word[] {
  const x = m.pdfium.wasmExports as unknown as TextExports;
  const words: Word[] = [];
  // A font's style is read once a page: its name, flags and weight do not change from word to word.
  const styles = new Map<number, FontStyle>();
  // The level left-to-right words of each face not known to be fixed-pitch, whose widths may show it is.
  const setIn = new Map<FontStyle, Word[]>();
  let word: Word | null = null;
  // Words holding a glyph read from a control code (below): kept as a mark only where they open a line.
  const marked = new Set<Word>();
  let mark = false;
  // The word that opened the current line.
  let opener: Word | null = null;
  // Nothing drawn yet since the page's start or PDFium's last line end.
  let lineStart = true;
  let lastRtl = false;
  let spaced = false;
  // The last character's box, and where in its word the characters sharing that box start: a ligature's letters share one box.
  let [lastLeft, lastRight, boxStart] = [Number.NaN, Number.NaN, 0];
  withBuffer(m, 16 + 4 + 256 + 24 + 4 + 16, (out) => {
    const at = out >> 2;
    const flagsPtr = out + 16;
    const namePtr = out + 20;
    const matrixPtr = out + 276;
    // Two doubles, 8-byte aligned (malloc's blocks are).
    const originPtr = out + 304;
    // The current word's box was set from its baseline (its letters' boxes are their ink alone).
    let inked = false;
    // A word's size in points, from its font's size and its box (`height`), `rtl` for a right-to-left letter,
    // whose box may be its ink alone (a low letter's a third of the size).
    const sizeOf = (size: number, object: number, height: number, rtl: boolean): number => {
      // A font set at size 1 and scaled by the text matrix reports 1: its box says how large it is drawn.
      if (!plausible(size, height, rtl)) return height / 1.15;
      // A font scaled by the page's matrix is drawn at its size times that scale (a browser sets 14.66 pixels at 0.75 for 11 points).
      if (!object || !x.FPDFPageObj_GetMatrix(object, matrixPtr)) return size;
      const f32 = m.pdfium.HEAPF32;
      const at = matrixPtr >> 2;
      // The scale of its height, not its width: condensed type is as tall as the rest.
      const drawn = size * Math.hypot(f32[at + 2]!, f32[at + 3]!);
      return plausible(drawn, height, rtl) ? drawn : size;
    };
    const styleAt = (i: number, object: number): FontStyle => {
      const font = object ? x.FPDFTextObj_GetFont(object) : 0;
      let style = styles.get(font);
      if (style) return style;
      const weight = x.FPDFText_GetFontWeight(textPage, i);
      const nameLength = x.FPDFText_GetFontInfo(textPage, i, namePtr, 256, flagsPtr);
      const flags = nameLength > 0 ? m.pdfium.HEAP32[flagsPtr >> 2]! : 0;
      const name = nameLength > 1 ? asciiAt(m.pdfium.HEAPU8, namePtr, Math.min(nameLength, 256) - 1) : '';
      style = {
        // PDFium's weight is worked out from the font's stem width, which some producers write at random (a
        // browser's regular Noto Sans comes out at 625): a name that states a lighter style outranks it.
        bold: BOLD_NAME.test(name) || (flags & FORCE_BOLD) !== 0 || (weight >= 600 && weight <= 1000 && !statesLighter(name)),
        italic: (flags & ITALIC) !== 0 || ITALIC_NAME.test(name),
        mono: (flags & FIXED_PITCH) !== 0 || MONO_NAME.test(name),
        family: fontFamily(name),
        dingbat: DINGBAT_NAME.test(name),
      };
      // Text objects without a font handle (0) are not cached: their style is read each time.
      if (font) styles.set(font, style);
      return style;
    };
    for (let i = 0; i < count; i++) {
      let code = x.FPDFText_GetUnicode(textPage, i);
      if (code === 2 && word && !marked.has(word)) {
        // PDFium reports a hyphen it recognised at a line end as U+0002; between right-to-left
        // letters (justified Arabic) the code stands for nothing to read. (Where no word comes before
        // it, a glyph whose font maps it to U+0002 is drawn: a bullet, read below as other glyphs without a character are.)
        const next = i + 1 < count ? x.FPDFText_GetUnicode(textPage, i + 1) : 0x0a;
        if (isRtl(next) || lastRtl) {
          // A kashida stretching the word: its width belongs to the word, so the next letter still joins it.
          if (x.FPDFText_GetLooseCharBox(textPage, i, out)) word.x0 = Math.min(word.x0, m.pdfium.HEAPF32[at]!);
          continue;
        }
        word.text += '-';
        word.hyphen = true;
        word.last = i;
        word = null;
        continue;
      }
      // PDFium's own inferred spaces and line ends (the gap decides those) are the characters it
      // generates, and it generates only U+0020, U+000D and U+000A (CPDF_TextPage), so this test
      // takes them too, without asking FPDFText_IsGenerated of every character.
      const c0 = code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d;
      if ((code <= 0x20 && !c0) || code === 0x7f || code === 0xa0 || code === 0xfffe) {
        word = null;
        spaced = true;
        if (code === 0x0a || code === 0x0d) lineStart = true;
        continue;
      }
      // The loose box spans the glyph's advance and the font's ascent to descent, the same
      // for every glyph of a line (the tight box of a "1" or a full stop is a sliver).
      if (!x.FPDFText_GetLooseCharBox(textPage, i, out)) continue;
      const f32 = m.pdfium.HEAPF32;
      const left = f32[at]!;
      const top = f32[at + 1]!;
      const right = f32[at + 2]!;
      const bottom = f32[at + 3]!;
      const height = Math.max(1, top - bottom);
      // A glyph of no width drawn right after a mark (the letter a producer overprints a dingbat with) adds nothing to it.
      if (right - left < 0.01 && word !== null && word.last === i - 1 && marked.has(word)) continue;
      // Control codes, which no text holds, come out where a font's map gives a glyph one. A C0 code that opens a word
      // (a bullet some producers map to U+0002) is the font's own glyph, and so is a C1 code (0x80-0x9f) in a symbol
      // font or a nameless drawn one: each is read as the private-use code PDFium gives other symbol fonts' glyphs
      // (U+F000 and the code), so a bullet or a box drawn with one opens a list item as a Wingdings bullet does. A text
      // font's C1 codes are Windows-1252's, whose codes its map passed through (the euro, quotes, dashes, the bullet).
      if (c0 || (code >= 0x80 && code <= 0x9f)) {
        // A C0 code is a mark only where it opens a line: inside a line it is a glyph with no character, a TeX font's
        // ligature ("di?culties"), which parts the word as a space would, as it did before such codes were read; so
        // does one drawn with no width. A C1 code drawn with no width (a tick over its box) shows nothing and leaves
        // its word whole.
        if (c0 && (!lineStart || right - left < 0.01)) {
          // A letter opening its line that a control code follows at once ("r" and U+0001) is one glyph of a dingbat
          // font drawn as two codes (a box, a bullet): read as a mark, the letter's private-use code.
          if (code !== 2 && word !== null && word === opener && word.last === i - 1 && ONE_LETTER.test(word.text)) {
            word.text = String.fromCodePoint(0xf000 + word.text.codePointAt(0)!);
            marked.add(word);
          }
          // U+0002 between words is PDFium's own (a hyphen, a justified line's stretch): it was read above or says nothing.
          if (code !== 2) [word, spaced] = [null, true];
          continue;
        }
        if (right - left < 0.01) continue;
        const nameLength = c0 ? 0 : x.FPDFText_GetFontInfo(textPage, i, out + 20, 0, out + 16);
        const symbolic = c0 || nameLength <= 1 || (m.pdfium.HEAP32[(out + 16) >> 2]! & SYMBOLIC) !== 0;
        const shown = c0 ? code : WINDOWS_1252_C1.codePointAt(code - 0x80)!;
        code = symbolic || shown <= 0x9f ? 0xf000 + code : shown;
        mark = code >= 0xf000;
      }
      const opens = lineStart;
      lineStart = false;
      const rtl = isRtl(code);
      // Some producers' Arabic and Hebrew glyphs have tight boxes (Chromium's): each letter's own ink, not the
      // font's line, so a word's letters stand at different heights and a little apart; the word's size measures them.
      const joined = rtl && lastRtl && word !== null && Math.min(top, word.top) - Math.max(bottom, word.bottom) > 0.5 * Math.min(height, word.top - word.bottom);
      if (word !== null && word.rotated === undefined && (Math.abs(bottom - word.bottom) < height * 0.3 || joined)) {
        // Left to right, or right-to-left letters in logical order, each to the left of the one before.
        const along = left >= word.x0 && left - word.x1 < height * 0.15;
        const back = rtl && lastRtl && right <= word.x1 + height * 0.05 && word.x0 - right < Math.max(height * 0.15, joined ? word.size * 0.45 : 0);
        // A glyph lined up on a level word's baseline is level too: the angle is read only where a word begins.
        if (along || back) {
          const char = String.fromCodePoint(code);
          // PDFium gives a right-to-left ligature's letters last first (an Arabic lam-alef as alef, lam), in one
          // box or (Chromium's) each in its half: the letter it gives second stands right of the first, not left.
          const ligature =
            rtl && lastRtl && ((Math.abs(left - lastLeft) < 0.01 && Math.abs(right - lastRight) < 0.01) || (left >= lastRight - 0.05 * height && !isMark(code)));
          if (ligature) word.text = word.text.slice(0, boxStart) + char + word.text.slice(boxStart);
          else {
            boxStart = word.text.length;
            word.text += char;
          }
          [lastLeft, lastRight] = [left, right];
          if (left < word.x0) word.x0 = left;
          if (right > word.x1) word.x1 = right;
          if (!inked && top > word.top) word.top = top;
          if (!inked && bottom < word.bottom) word.bottom = bottom;
          word.last = i;
          if (rtl) word.rtlChars++;
          if (mark) {
            marked.add(word);
            mark = false;
          }
          lastRtl = rtl;
          continue;
        }
      }
      // Rotated text reads in content order: its glyphs step along another axis. A slant under 30 degrees is
      // a browser's synthetic italic (PDFium reports Chromium's 14-degree skew as the glyphs' angle), not a turn.
      const angle = x.FPDFText_GetCharAngle(textPage, i);
      const turned = Math.abs(Math.sin(angle)) >= 0.5 ? Math.round((angle * 180) / Math.PI) : undefined;
      if (word !== null && turned !== undefined && word.rotated === turned) {
        word.text += String.fromCodePoint(code);
        word.x0 = Math.min(word.x0, left);
        word.x1 = Math.max(word.x1, right);
        word.top = Math.max(word.top, top);
        word.bottom = Math.min(word.bottom, bottom);
        word.last = i;
        continue;
      }
      // The style of a word is its first character's.
      const object = x.FPDFText_GetTextObject(textPage, i);
      // Type turned a quarter stands as tall as its box is wide.
      const across = turned !== undefined && Math.abs(Math.cos(angle)) < 0.5 ? Math.max(1, right - left) : height;
      const size = sizeOf(x.FPDFText_GetFontSize(textPage, i), object, across, rtl);
      const style = styleAt(i, object);
      // A dingbat font's picture opening its line that a producer's map gives a letter or a sign ("y" for a bullet)
      // is read as the private-use code a map-less symbol font's gives: a mark that opens a list item. (Inside a
      // line, a box to tick in a table's cell, it keeps the sign the map gives.)
      if (style.dingbat && opens && code > 0x20 && code < 0x7f) {
        code = 0xf000 + code;
        mark = true;
      }
      // A right-to-left letter boxed by its ink stands as high or low as its shape: the word is boxed as a
      // line of its type is, from the baseline, so a line's words, low letters or tall, share one band.
      inked = rtl && height < 0.95 * size && x.FPDFText_GetCharOrigin(textPage, i, originPtr, originPtr + 8) !== 0;
      const baseline = inked ? new Float64Array(m.pdfium.HEAPU8.buffer, originPtr + 8, 1)[0]! : 0;
      word = {
        x0: left,
        x1: right,
        bottom: inked ? baseline - 0.25 * size : bottom,
        top: inked ? baseline + 0.9 * size : top,
        text: String.fromCodePoint(code),
        first: i,
        last: i,
        size,
        bold: style.bold,
        italic: style.italic,
        mono: style.mono,
        family: style.family,
        hyphen: false,
        rtlChars: rtl ? 1 : 0,
        spaced,
        mcid: tagged && object ? x.FPDFPageObj_GetMarkedContentID(object) : -1,
        rotated: turned,
      };
      words.push(word);
      if (!style.mono && turned === undefined && !rtl) (setIn.get(style) ?? setIn.set(style, []).get(style)!).push(word);
      if (opens) opener = word;
      if (mark) {
        marked.add(word);
        mark = false;
      }
      lastRtl = rtl;
      spaced = false;
      [lastLeft, lastRight, boxStart] = [left, right, 0];
    }
  });
  for (const [style, set] of setIn) {
    if (!fixedPitch(set)) continue;
    style.mono = true;
    for (const w of set) w.mono = true;
  }
  return marked.size === 0 ? words : withMarks(words, marked);
}

/** Letters and signs a proportional face sets narrow, and ones it sets wide: a fixed-pitch face sets both alike. */
const NARROW = /[iljtfrI.,:;'!|()]/;
const WIDE = /[mwMW@%]/;

/**
 * Whether the words of a face whose font says nothing of its pitch (no fixed-pitch flag, a name no list knows:
 * "BookMasterGothic" in IBM's manuals) were set in a fixed pitch: every word as wide as its characters' count
 * times one advance, within 3%, over words that hold narrow letters and wide ones, twenty characters at least.
 */
function fixedPitch(words: readonly Word[]): boolean {
  if (words.length < 3) return false;
  let chars = 0;
  let [least, most] = [Infinity, 0];
  let [narrow, wide] = [false, false];
  for (const w of words) {
    const n = w.text.length;
    if (n < 2) continue;
    chars += n;
    const advance = (w.x1 - w.x0) / n / w.size;
    least = Math.min(least, advance);
    most = Math.max(most, advance);
    narrow ||= NARROW.test(w.text);
    wide ||= WIDE.test(w.text);
  }
  return chars >= 20 && narrow && wide && most <= least * 1.03;
}

/** Private-use codes a control code's glyph was read as (a letter's, where a control code followed it; a dingbat font's sign). */
const MARK_CODES = /[\uf000-\uf01f\uf021-\uf07e\uf080-\uf09f]/gu;

/**
 * A glyph read from a control code stands for no character: kept only as a mark alone at the start of its line with
 * a gap after it (a bullet, a box to tick), which layout reads as a list item's marker; anywhere else (an envelope
 * icon by an author's name, a symbol in a table's cell) it is left out, as it was before such codes were read.
 */
function withMarks(words: Word[], marked: Set<Word>): Word[] {
  const out: Word[] = [];
  words.forEach((w, k) => {
    if (!marked.has(w)) {
      out.push(w);
      return;
    }
    const [prev, next] = [words[k - 1], words[k + 1]];
    const sameLine = (a: Word | undefined) => a !== undefined && Math.abs(a.bottom - w.bottom) < 0.5 * (w.top - w.bottom);
    const opensLine = !sameLine(prev) && sameLine(next) && next!.x0 - w.x1 > 0.2 * w.size && [...w.text].length === 1;
    if (opensLine) out.push(w);
    else {
      const text = w.text.replace(MARK_CODES, '');
      if (text) out.push({ ...w, text });
    }
  });
  return out;
}

/** Hebrew points and Arabic vowel signs: drawn over or under the letter before them, whatever their box. */
const isMark = (code: number) => (code >= 0x591 && code <= 0x5c7) || (code >= 0x610 && code <= 0x61a) || (code >= 0x64b && code <= 0x65f) || code === 0x670;

/** Whether a glyph box `height` tall fits type of `size` (a right-to-left letter's box may be its ink alone). */
const plausible = (size: number, height: number, rtl: boolean) => size > 0 && height / size > (rtl ? 0.2 : 0.6) && height / size < 2.2;

function asciiAt(heap: Uint8Array, ptr: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(heap[ptr + i]!);
  return s;
}
