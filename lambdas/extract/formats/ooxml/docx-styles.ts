// A Word document's styles part, as far as it tells what a paragraph is:
// paragraph styles (headings, title, caption, code, list numbering, font),
// character styles' fonts, numbering styles' lists, and the defaults for
// text without a style of its own.

import { child, elements, type XmlElement } from '../../containers/xml.ts';
import { isCodeStyle } from './code-text.ts';

export interface StyleInfo {
  heading?: number;
  kind?: 'title' | 'caption' | 'code';
  /** The list the style numbers its paragraphs with, and at which level. */
  numId?: string;
  ilvl?: string;
  /** Nesting a built-in list style stands for by its number ("List Bullet 2" is one level in). */
  listDepth?: number;
  /** The typeface of its text (w:rFonts), own or inherited; `theme:` and the theme slot where it names the theme's. */
  font?: string;
}

export interface DocxStyles {
  /** Paragraph style id to what it makes a paragraph. */
  paragraph: Map<string, StyleInfo>;
  /** The style of paragraphs that name none (Normal). */
  defaultParagraph?: string;
  /** Character style id to its typeface. */
  characterFont: Map<string, string>;
  /** Numbering style id to the w:num its properties name. */
  numbering: Map<string, string>;
  /** The run size (half-points) of text without a size of its own. */
  defaultSize: number;
  /** The typeface of text without one of its own (document defaults). */
  defaultFont?: string;
}

/** The typeface w:rFonts names for Latin text; a theme font wins over an explicit one, as in Word. */
export function fontOf(rPr: XmlElement | undefined): string | undefined {
  const fonts = rPr && child(rPr, 'rFonts');
  if (!fonts) return undefined;
  const theme = fonts.attrs.asciiTheme ?? fonts.attrs.hAnsiTheme;
  return theme !== undefined ? `theme:${theme}` : (fonts.attrs.ascii ?? fonts.attrs.hAnsi);
}

/**
 * What each paragraph style makes a paragraph: a heading (by its name,
 * "heading 2", by its outline level, or by being based on one), the title, a
 * caption, code, or a list (numbering in the style); the rest follows the
 * w:basedOn chain.
 */
export function readStyles(styles: XmlElement | null): DocxStyles {
  const out: DocxStyles = { paragraph: new Map(), characterFont: new Map(), numbering: new Map(), defaultSize: 22 };
  if (!styles) return out;
  const defaults = child(styles, 'docDefaults');
  const defaultRPr = defaults && child(child(defaults, 'rPrDefault') ?? defaults, 'rPr');
  out.defaultFont = fontOf(defaultRPr);
  const raw = new Map<string, { own: StyleInfo; basedOn?: string }>();
  const charRaw = new Map<string, { font?: string; basedOn?: string }>();
  for (const style of elements(styles, 'style')) {
    const id = style.attrs.styleId;
    if (!id) continue;
    const type = style.attrs.type ?? 'paragraph';
    const pPr = child(style, 'pPr');
    const numPr = pPr && child(pPr, 'numPr');
    const basedOn = child(style, 'basedOn')?.attrs.val;
    if (type === 'numbering') {
      const numId = numPr && child(numPr, 'numId')?.attrs.val;
      if (numId !== undefined) out.numbering.set(id, numId);
      continue;
    }
    if (type === 'character') {
      charRaw.set(id, { font: fontOf(child(style, 'rPr')), basedOn });
      continue;
    }
    if (type !== 'paragraph') continue;
    if (style.attrs.default === '1') out.defaultParagraph ??= id;
    const name = (child(style, 'name')?.attrs.val ?? '').toLowerCase().trim();
    const heading = /^(?:heading|überschrift|titre|título|titolo|kop|rubrik)\s*(\d)$/.exec(name);
    const outline = pPr && child(pPr, 'outlineLvl')?.attrs.val;
    const own: StyleInfo = {};
    if (name === 'title' || name === 'titel') own.kind = 'title';
    else if (name === 'caption' || name === 'beschriftung' || name === 'légende') own.kind = 'caption';
    else if (isCodeStyle(name || id)) own.kind = 'code';
    else if (heading) own.heading = Number(heading[1]);
    else if (outline !== undefined && Number(outline) < 9) own.heading = Number(outline) + 1;
    const numId = numPr && child(numPr, 'numId')?.attrs.val;
    const ilvl = numPr && child(numPr, 'ilvl')?.attrs.val;
    if (numId !== undefined) own.numId = numId;
    if (ilvl !== undefined) own.ilvl = ilvl;
    const depth = /^list(?: bullet| number)? ([2-9])$/.exec(name);
    if (depth) own.listDepth = Number(depth[1]) - 1;
    const font = fontOf(child(style, 'rPr'));
    if (font !== undefined) own.font = font;
    raw.set(id, { own, basedOn });
  }
  const resolve = (id: string, depth: number): StyleInfo => {
    const done = out.paragraph.get(id);
    if (done) return done;
    const r = raw.get(id);
    if (!r) return {};
    const base = r.basedOn && depth < 20 ? resolve(r.basedOn, depth + 1) : {};
    // Outline level 9 ("body text") in a style cancels a heading it is based on.
    const info: StyleInfo = { ...base, ...r.own };
    if (r.own.kind) delete info.heading;
    out.paragraph.set(id, info);
    return info;
  };
  for (const id of raw.keys()) resolve(id, 0);
  const charFont = (id: string, depth: number): string | undefined => {
    const r = charRaw.get(id);
    return r && (r.font ?? (r.basedOn && depth < 20 ? charFont(r.basedOn, depth + 1) : undefined));
  };
  for (const id of charRaw.keys()) {
    const font = charFont(id, 0);
    if (font !== undefined) out.characterFont.set(id, font);
  }
  const normal = elements(styles, 'style').find((s) => s.attrs.styleId === out.defaultParagraph);
  const fromNormal = normal && child(child(normal, 'rPr') ?? normal, 'sz')?.attrs.val;
  const fromDefaults = defaultRPr && child(defaultRPr, 'sz')?.attrs.val;
  out.defaultSize = Number(fromNormal ?? fromDefaults ?? 22) || 22;
  return out;
}
