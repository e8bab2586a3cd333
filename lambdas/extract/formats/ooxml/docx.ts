// DOCX: the body in order (title, headings, lists, paragraphs, captions,
// tables, equations, and the text boxes, shapes, SmartArt and charts anchored
// in a paragraph right after it), with the headers first and the footers,
// footnotes and endnotes last, and the document properties.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { chartBlocks, contentChildren, coreProperties, readDiagram, relationships } from './ooxml.ts';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

export function extractDocx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, withComments = false): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const main = mainPart(zip);
  const doc = readXml(zip, main);
  const body = doc && child(doc, 'body');
  if (!body) throw new ExtractionError('corrupt_file', `The DOCX could not be read: ${main} has no body.`);
  const rels = relationships(zip, main);
  const partOf = (type: string) => [...rels.values()].filter((r) => r.type === type).map((r) => r.target);
  const lists = listFormats(zip, partOf('numbering')[0]);
  const ctx: Ctx = {
    out: new Blocks(mode),
    zip,
    rels,
    styles: paragraphStyles(zip, partOf('styles')[0]),
    lists,
    counters: new Map(),
    bodySize: 0,
    defaultSize: 0,
  };
  ctx.defaultSize = defaultSize(zip, partOf('styles')[0]);
  // Headings by direct formatting only in documents that mark none with a heading style or outline level.
  const styled = descendants(body, 'pPr').some((pPr) => {
    const id = child(pPr, 'pStyle')?.attrs.val;
    const outline = child(pPr, 'outlineLvl')?.attrs.val;
    return (id !== undefined && ctx.styles.get(id)?.heading !== undefined) || (outline !== undefined && Number(outline) < 9);
  });
  ctx.bodySize = styled ? 0 : bodySize(body, ctx.defaultSize);
  const furniture = (type: 'header' | 'footer') => {
    const seen = new Set<string>();
    for (const part of partOf(type)) {
      const root = readXml(zip, part);
      if (!root) continue;
      const sub = new Blocks('text');
      blocks({ ...ctx, out: sub, rels: relationships(zip, part), counters: new Map(), bodySize: 0 }, root);
      const text = sub.text().trim();
      // The same header is often referenced by every section, or repeated for first and even pages: keep one copy.
      if (text && !seen.has(text)) {
        seen.add(text);
        if (type === 'header') ctx.out.pageHeader(text);
        else ctx.out.pageFooter(text);
      }
    }
  };
  const notes = (type: 'footnotes' | 'endnotes') => {
    for (const part of partOf(type)) {
      const root = readXml(zip, part);
      if (!root) continue;
      const partRels = relationships(zip, part);
      for (const note of elements(root, type === 'footnotes' ? 'footnote' : 'endnote')) {
        // Separator notes (ids -1 and 0, or typed) hold no text worth keeping.
        if (Number(note.attrs.id) <= 0 || (note.attrs.type && note.attrs.type !== 'normal')) continue;
        const sub = new Blocks('text');
        blocks({ ...ctx, out: sub, rels: partRels, counters: new Map(), bodySize: 0 }, note);
        ctx.out.footnote(sub.text().replace(/\n{2,}/g, '\n'));
      }
    }
  };
  furniture('header');
  blocks(ctx, body);
  notes('footnotes');
  notes('endnotes');
  if (withComments) for (const part of partOf('comments')) comments(ctx, part, body);
  furniture('footer');
  return ctx.out.output(coreProperties(zip));
}

/** The comments part's comments, in its order, each with the body text between its range marks. */
function comments(ctx: Ctx, part: string, body: XmlElement): void {
  const root = readXml(ctx.zip, part);
  if (!root) return;
  const anchors = commentAnchors(body);
  const partRels = relationships(ctx.zip, part);
  for (const c of elements(root, 'comment')) {
    const sub = new Blocks('text');
    blocks({ ...ctx, out: sub, rels: partRels, counters: new Map(), bodySize: 0 }, c);
    ctx.out.comment(sub.text(), c.attrs.author ?? '', anchors.get(c.attrs.id ?? '') ?? '');
  }
}

/** Comment id -> the text of the runs between its commentRangeStart and commentRangeEnd. */
function commentAnchors(body: XmlElement): Map<string, string> {
  const open = new Set<string>();
  const text = new Map<string, string>();
  const walk = (el: XmlElement) => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      const id = c.attrs.id ?? '';
      if (c.name === 'commentRangeStart') {
        open.add(id);
        text.set(id, '');
      } else if (c.name === 'commentRangeEnd') open.delete(id);
      else if (c.name === 't' && open.size > 0) {
        const t = textContent(c);
        for (const o of open) text.set(o, text.get(o)! + t);
      } else if (c.name === 'p' && open.size > 0) {
        walk(c);
        for (const o of open) text.set(o, `${text.get(o)!} `);
      } else if (c.name !== 'del' && c.name !== 'delText') walk(c);
    }
  };
  walk(body);
  return text;
}

function mainPart(zip: SafeZip): string {
  const rels = relationships(zip, '');
  for (const { target, type } of rels.values()) if (type === 'officeDocument') return target;
  return 'word/document.xml';
}

interface Ctx {
  out: Blocks;
  zip: SafeZip;
  /** Relationships of the part being read (charts, diagrams). */
  rels: Map<string, { target: string; type: string }>;
  styles: Map<string, StyleInfo>;
  lists: ListFormats;
  /** abstractNumId -> counters by level. */
  counters: Map<string, number[]>;
  /** The body text's font size (half-points), for headings made by direct formatting; 0 where that guess is off (tables, notes). */
  bodySize: number;
  /** The style's run size (half-points) of paragraphs without a size of their own. */
  defaultSize: number;
}

function blocks(ctx: Ctx, container: XmlElement): void {
  for (const el of contentChildren(container)) {
    if (el.name === 'p') paragraph(ctx, el);
    else if (el.name === 'tbl') table(ctx, el);
    else if (el.name === 'sdt') {
      const content = child(el, 'sdtContent');
      if (content) blocks(ctx, content);
    } else if (el.name === 'customXml' || el.name === 'ins' || el.name === 'smartTag' || el.name === 'moveTo') blocks(ctx, el);
    else if (el.name === 'oMathPara' || el.name === 'oMath') ctx.out.formula(mathText(el));
  }
}

function paragraph(ctx: Ctx, p: XmlElement): void {
  const props = child(p, 'pPr');
  const { text, anchored, maths, other, looks } = runText(p, ctx.defaultSize);
  const styleId = props && child(props, 'pStyle')?.attrs.val;
  const style = styleId !== undefined ? ctx.styles.get(styleId) : undefined;
  const outline = props && child(props, 'outlineLvl')?.attrs.val;
  const ownNum = props && child(props, 'numPr');
  const numId = (ownNum && child(ownNum, 'numId')?.attrs.val) ?? style?.numId;
  const ilvl = (ownNum && child(ownNum, 'ilvl')?.attrs.val) ?? style?.ilvl ?? '0';
  const numLevel = numId !== undefined ? ctx.lists.levels.get(numId)?.get(ilvl) : undefined;
  // A numbering level linked to a heading style makes its paragraphs headings (numbered headings).
  const numHeading = numLevel?.pStyle !== undefined ? ctx.styles.get(numLevel.pStyle)?.heading : undefined;
  // Direct outline level 9 is body text, whatever the style says.
  const level =
    outline !== undefined
      ? Number(outline) < 9
        ? Number(outline) + 1
        : undefined
      : (style?.heading ?? numHeading ?? (numLevel === undefined && !style?.kind ? formattedHeading(text, looks, ctx.bodySize) : undefined));
  if (maths.length > 0 && !other) {
    // A paragraph holding only equations is a display equation.
    for (const m of maths) ctx.out.formula(m);
  } else if (style?.kind === 'title') ctx.out.title(text);
  else if (level !== undefined) ctx.out.heading(level, text);
  else if (style?.kind === 'caption') ctx.out.caption(text);
  else if (numId !== undefined && numId !== '0' && numLevel && numLevel.format !== 'none') {
    const abstract = ctx.lists.abstractOf.get(numId) ?? numId;
    const lvl = Math.min(8, Math.max(0, Number(ilvl) || 0));
    const counters = ctx.counters.get(abstract) ?? [];
    counters.length = lvl + 1;
    const n = (counters[lvl] ?? numLevel.start - 1) + 1;
    counters[lvl] = n;
    ctx.counters.set(abstract, counters);
    ctx.out.listItem(text, lvl, numLevel.format === 'bullet' ? null : n);
  } else {
    // A bullet typed as a character ("• item") is a list item all the same.
    const typed = /^\s*[•◦▪▫●○■□‣⁃∙·*–-]\s+(?=\S)/.exec(text);
    if (typed) ctx.out.listItem(text.slice(typed[0].length), 0, null);
    else ctx.out.paragraph(text);
  }
  for (const a of anchored) {
    if (a.kind === 'box') blocks({ ...ctx, bodySize: 0 }, a.el);
    else if (a.kind === 'chart') {
      const target = ctx.rels.get(a.id)?.target;
      if (target) chartBlocks(ctx.out, ctx.zip, target);
    } else if (a.kind === 'diagram') {
      const target = ctx.rels.get(a.id)?.target;
      if (target) for (const t of readDiagram(ctx.zip, target)) ctx.out.paragraph(t);
    } else if (a.kind === 'figure') ctx.out.figure(a.text);
  }
}

type Anchored = { kind: 'box'; el: XmlElement } | { kind: 'chart' | 'diagram'; id: string } | { kind: 'figure'; text: string };

/**
 * The visible text of a paragraph (runs, tabs and breaks, inline equations as
 * linear text; not deleted text or field codes), and what is anchored in it:
 * text boxes and shapes (DrawingML or VML, one of the two a document offers),
 * charts, SmartArt and described pictures.
 */
function runText(p: XmlElement, defaultSize = 0): { text: string; anchored: Anchored[]; maths: string[]; other: boolean; looks: Looks } {
  let out = '';
  let plain = '';
  const looks: Looks = { chars: 0, bold: 0, minSize: Infinity };
  let run = { bold: false, size: defaultSize };
  const anchored: Anchored[] = [];
  const maths: string[] = [];
  const walk = (el: XmlElement) => {
    for (const c of contentChildren(el)) {
      switch (c.name) {
        case 't': {
          const t = c.children.filter((x) => typeof x === 'string').join('');
          out += t;
          plain += t;
          const n = t.replace(/\s+/g, '').length;
          if (n > 0) {
            looks.chars += n;
            if (run.bold) looks.bold += n;
            looks.minSize = Math.min(looks.minSize, run.size);
          }
          break;
        }
        case 'r': {
          const saved = run;
          run = { ...runLooks(child(c, 'rPr'), defaultSize) };
          walk(c);
          run = saved;
          break;
        }
        case 'tab':
        case 'ptab':
          out += '\t';
          break;
        case 'br':
        case 'cr':
          out += '\n';
          break;
        case 'noBreakHyphen':
          out += '-';
          break;
        case 'oMath':
        case 'oMathPara': {
          const m = mathText(c);
          maths.push(m);
          out += ` ${m} `;
          break;
        }
        case 'txbxContent':
          anchored.push({ kind: 'box', el: c });
          break;
        case 'chart':
          if (c.attrs.id) anchored.push({ kind: 'chart', id: c.attrs.id });
          break;
        case 'relIds':
          if (c.attrs.dm) anchored.push({ kind: 'diagram', id: c.attrs.dm });
          break;
        case 'docPr': {
          const descr = (c.attrs.descr ?? '').trim();
          if (descr && !/^[^\s]+\.[a-z0-9]{2,4}$/i.test(descr)) anchored.push({ kind: 'figure', text: descr });
          break;
        }
        case 'pPr':
        case 'rPr':
        case 'del':
        case 'moveFrom':
        case 'instrText':
        case 'delInstrText':
        case 'footnoteReference':
        case 'endnoteReference':
        case 'commentReference':
          break;
        default:
          walk(c);
      }
    }
  };
  walk(p);
  return { text: out, anchored, maths, other: plain.trim() !== '', looks };
}

// ---- Headings by direct formatting ---------------------------------------------

interface Looks {
  chars: number;
  bold: number;
  /** Half-points. */
  minSize: number;
}

const on = (el: XmlElement | undefined) => !!el && !['0', 'false', 'off'].includes(el.attrs.val ?? 'true');

function runLooks(rPr: XmlElement | undefined, defaultSize: number): { bold: boolean; size: number } {
  const sz = rPr && child(rPr, 'sz')?.attrs.val;
  return { bold: on(rPr && child(rPr, 'b')), size: sz !== undefined ? Number(sz) || defaultSize : defaultSize };
}

function defaultSize(zip: SafeZip, part: string | undefined): number {
  const styles = part ? readXml(zip, part) : null;
  if (!styles) return 22;
  const normal = elements(styles, 'style').find((s) => s.attrs.type === 'paragraph' && s.attrs.default === '1');
  const fromNormal = normal && child(child(normal, 'rPr') ?? normal, 'sz')?.attrs.val;
  const defaults = child(styles, 'docDefaults');
  const rPr = defaults && child(child(defaults, 'rPrDefault') ?? defaults, 'rPr');
  const fromDefaults = rPr && child(rPr, 'sz')?.attrs.val;
  return Number(fromNormal ?? fromDefaults ?? 22) || 22;
}

/** The size most of the body's text is set in (half-points). */
function bodySize(body: XmlElement, fallback: number): number {
  const bySize = new Map<number, number>();
  const visit = (el: XmlElement) => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (c.name === 'r') {
        const { size } = runLooks(child(c, 'rPr'), fallback);
        let n = 0;
        for (const t of c.children) if (typeof t !== 'string' && t.name === 't') n += textContent(t).length;
        bySize.set(size, (bySize.get(size) ?? 0) + n);
      } else if (c.name !== 'tbl') visit(c);
    }
  };
  visit(body);
  let best = fallback;
  let most = -1;
  for (const [size, n] of bySize) if (n > most) [best, most] = [size, n];
  return best;
}

/**
 * A heading made by direct formatting, in documents without heading styles: a
 * short line, not a sentence, set clearly larger than the body text. Level by
 * size. A bold line at body size stays a paragraph: Word users bold lead-ins,
 * labels and emphasis far more often than they fake a heading.
 */
function formattedHeading(text: string, looks: Looks, body: number): number | undefined {
  if (body <= 0 || looks.chars === 0) return undefined;
  const t = text.replace(/\s+/g, ' ').trim();
  const words = t.split(' ').length;
  if (t.length > 120 || words > 14 || /[.,;:!?]$/.test(t) || !/\p{L}/u.test(t)) return undefined;
  const ratio = looks.minSize / body;
  if (ratio >= 1.6) return 1;
  if (ratio >= 1.3) return 2;
  return undefined;
}

// ---- Equations (OMML) as linear text ------------------------------------------

const group = (s: string) => (/^[\p{L}\p{N}.]+$/u.test(s) || s.length <= 1 ? s : `(${s})`);

/** An OMML equation as readable linear text: a/b, x^2, √(x), ∑_(i=1)^n, matrices by rows. */
export function mathText(el: XmlElement): string {
  const part = (name: string) => {
    const c = child(el, name);
    return c ? mathText(c) : '';
  };
  const chr = (props: string, fallback: string) => {
    const pr = child(el, props);
    const c = pr && child(pr, 'chr');
    return c ? (c.attrs.val ?? fallback) : fallback;
  };
  switch (el.name) {
    case 't':
      return textContent(el);
    case 'f':
      return `${group(part('num'))}/${group(part('den'))}`;
    case 'sSup':
      return `${part('e')}^${group(part('sup'))}`;
    case 'sSub':
      return `${part('e')}_${group(part('sub'))}`;
    case 'sSubSup':
      return `${part('e')}_${group(part('sub'))}^${group(part('sup'))}`;
    case 'sPre':
      return `_${group(part('sub'))}^${group(part('sup'))}${part('e')}`;
    case 'rad': {
      const deg = part('deg');
      return deg ? `${group(part('e'))}^(1/${deg})` : `√${group(part('e'))}`;
    }
    case 'nary': {
      const sub = part('sub');
      const sup = part('sup');
      return `${chr('naryPr', '∫')}${sub ? `_${group(sub)}` : ''}${sup ? `^${group(sup)}` : ''} ${part('e')}`;
    }
    case 'd': {
      const pr = child(el, 'dPr');
      const attr = (n: string, d: string) => {
        const c = pr && child(pr, n);
        return c ? (c.attrs.val ?? '') : d;
      };
      const items = elements(el, 'e').map(mathText);
      return `${attr('begChr', '(')}${items.join(attr('sepChr', '|'))}${attr('endChr', ')')}`;
    }
    case 'func':
      return `${part('fName')} ${part('e')}`.trim();
    case 'limLow':
      return `${part('e')}_${group(part('lim'))}`;
    case 'limUpp':
      return `${part('e')}^${group(part('lim'))}`;
    case 'acc':
      return `${part('e')}${chr('accPr', '\u0302')}`;
    case 'bar':
      return `${part('e')}\u0305`;
    case 'groupChr':
      return part('e');
    case 'eqArr':
      return elements(el, 'e').map(mathText).join('; ');
    case 'm':
      return `[${elements(el, 'mr')
        .map((r) => elements(r, 'e').map(mathText).join(', '))
        .join('; ')}]`;
    default: {
      let s = '';
      for (const c of el.children) {
        if (typeof c === 'string') continue;
        if (c.name.endsWith('Pr') || c.name === 'rPr' || c.name === 'ctrlPr') continue;
        s += mathText(c);
      }
      return s;
    }
  }
}

// ---- Tables -------------------------------------------------------------------

/**
 * A table, or a table that lays out the page: a single cell (a framed box),
 * or a single row or column holding other tables, is read as the blocks in
 * its cells, so the tables inside it are tables of their own. A grid of rows
 * and columns stays a table even with a table in a cell (its text joins the cell).
 */
function table(ctx: Ctx, tbl: XmlElement): void {
  const rows = contentChildren(tbl).filter((e) => e.name === 'tr');
  const all = rows.flatMap(cells);
  const line = rows.length === 1 || rows.every((tr) => cells(tr).length <= 1);
  const layout = all.length <= 1 || (line && all.some((tc) => descendants(tc, 'tbl').length > 0));
  if (!layout) {
    ctx.out.table(tableRows(ctx, tbl));
    return;
  }
  for (const tc of all) blocks(ctx, tc);
}

function tableRows(ctx: Ctx, tbl: XmlElement): string[][] {
  const rows: string[][] = [];
  for (const tr of contentChildren(tbl).filter((e) => e.name === 'tr')) {
    const row: string[] = [];
    for (const tc of cells(tr)) {
      const sub = new Blocks('text');
      blocks({ ...ctx, out: sub, bodySize: 0 }, tc);
      const props = child(tc, 'tcPr');
      const merge = props && child(props, 'vMerge');
      // A vertically merged continuation repeats nothing; the text sits in the first cell.
      row.push(merge && merge.attrs.val !== 'restart' ? '' : sub.text().replace(/\s*\n\s*/g, ' '));
      const span = Number((props && child(props, 'gridSpan')?.attrs.val) ?? 1);
      for (let k = 1; k < Math.min(span, 64); k++) row.push('');
    }
    rows.push(row);
  }
  return rows;
}

function cells(tr: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of contentChildren(tr)) {
    if (c.name === 'tc') out.push(c);
    else if (c.name === 'sdt' || c.name === 'customXml') {
      const content = child(c, 'sdtContent') ?? c;
      out.push(...cells(content));
    }
  }
  return out;
}

// ---- Styles and numbering -------------------------------------------------------

interface StyleInfo {
  heading?: number;
  kind?: 'title' | 'caption';
  numId?: string;
  ilvl?: string;
}

/**
 * Paragraph style id to what it makes a paragraph: a heading (by its name,
 * "heading 2", by its outline level, or by being based on one), the title, a
 * caption, or a list (numbering in the style).
 */
function paragraphStyles(zip: SafeZip, part: string | undefined): Map<string, StyleInfo> {
  const out = new Map<string, StyleInfo>();
  const styles = part ? readXml(zip, part) : null;
  if (!styles) return out;
  const raw = new Map<string, { own: StyleInfo; basedOn?: string }>();
  for (const style of elements(styles, 'style')) {
    const id = style.attrs.styleId;
    if (!id || (style.attrs.type && style.attrs.type !== 'paragraph')) continue;
    const name = (child(style, 'name')?.attrs.val ?? '').toLowerCase().trim();
    const heading = /^(?:heading|überschrift|titre|título|titolo|kop|rubrik)\s*(\d)$/.exec(name);
    const pPr = child(style, 'pPr');
    const outline = pPr && child(pPr, 'outlineLvl')?.attrs.val;
    const numPr = pPr && child(pPr, 'numPr');
    const own: StyleInfo = {};
    if (name === 'title' || name === 'titel') own.kind = 'title';
    else if (name === 'caption' || name === 'beschriftung' || name === 'légende') own.kind = 'caption';
    else if (heading) own.heading = Number(heading[1]);
    else if (outline !== undefined && Number(outline) < 9) own.heading = Number(outline) + 1;
    if (numPr) {
      own.numId = child(numPr, 'numId')?.attrs.val;
      own.ilvl = child(numPr, 'ilvl')?.attrs.val;
    }
    raw.set(id, { own, basedOn: child(style, 'basedOn')?.attrs.val });
  }
  const resolve = (id: string, depth: number): StyleInfo => {
    const done = out.get(id);
    if (done) return done;
    const r = raw.get(id);
    if (!r) return {};
    const base = r.basedOn && depth < 20 ? resolve(r.basedOn, depth + 1) : {};
    // Outline level 9 ("body text") in a style cancels a heading it is based on.
    const info: StyleInfo = { ...base, ...r.own };
    if (r.own.kind) delete info.heading;
    out.set(id, info);
    return info;
  };
  for (const id of raw.keys()) resolve(id, 0);
  return out;
}

interface ListLevel {
  format: string;
  start: number;
  /** The paragraph style linked to this level (numbered headings). */
  pStyle?: string;
}

interface ListFormats {
  /** numId -> ilvl -> level. */
  levels: Map<string, Map<string, ListLevel>>;
  /** numId -> its abstract numbering, whose counters lists of the same abstract numbering share. */
  abstractOf: Map<string, string>;
}

function listFormats(zip: SafeZip, part: string | undefined): ListFormats {
  const out: ListFormats = { levels: new Map(), abstractOf: new Map() };
  const numbering = part ? readXml(zip, part) : null;
  if (!numbering) return out;
  const readLevel = (lvl: XmlElement, base?: ListLevel): ListLevel => {
    const fmt = child(lvl, 'numFmt')?.attrs.val;
    const start = child(lvl, 'start')?.attrs.val;
    const pStyle = child(lvl, 'pStyle')?.attrs.val;
    return { format: fmt ?? base?.format ?? 'bullet', start: start !== undefined ? Number(start) || 0 : (base?.start ?? 1), pStyle: pStyle ?? base?.pStyle };
  };
  const abstract = new Map<string, Map<string, ListLevel>>();
  for (const a of elements(numbering, 'abstractNum')) {
    const levels = new Map<string, ListLevel>();
    for (const lvl of elements(a, 'lvl')) levels.set(lvl.attrs.ilvl ?? '0', readLevel(lvl));
    abstract.set(a.attrs.abstractNumId ?? '', levels);
  }
  for (const num of elements(numbering, 'num')) {
    const abstractId = child(num, 'abstractNumId')?.attrs.val ?? '';
    const levels = abstract.get(abstractId);
    if (!levels) continue;
    const numId = num.attrs.numId ?? '';
    const merged = new Map(levels);
    let overridden = false;
    for (const o of elements(num, 'lvlOverride')) {
      const ilvl = o.attrs.ilvl ?? '0';
      const lvl = child(o, 'lvl');
      const start = child(o, 'startOverride')?.attrs.val;
      const base = merged.get(ilvl);
      if (lvl) merged.set(ilvl, readLevel(lvl, base));
      else if (start !== undefined && base) merged.set(ilvl, { ...base, start: Number(start) || 0 });
      overridden = true;
    }
    out.levels.set(numId, merged);
    // A list restarting its numbering counts on its own.
    out.abstractOf.set(numId, overridden ? `num:${numId}` : `abs:${abstractId}`);
  }
  return out;
}
