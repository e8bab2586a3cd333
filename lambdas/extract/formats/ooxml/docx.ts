// DOCX: the body in order (title, headings, lists, paragraphs, captions,
// tables, equations, and the text boxes, shapes, SmartArt and charts anchored
// in a paragraph right after it), with the headers first and the footers,
// footnotes and endnotes last, and the document properties.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { chartBlocks, contentChildren, coreProperties, readDiagram, relationships } from './ooxml.ts';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { missingPart, SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { LETTER } from '../../engine/letters.ts';
import type { FormatOutput } from '../../engine/types.ts';
import { type DocxStyles, fontOf, readStyles, type StyleInfo } from './docx-styles.ts';
import { type ListCounters, Numbering } from './numbering.ts';
import { codeSpan, isMonospaceFont } from './code-text.ts';
import { checkboxGlyph, formCheckbox, symbolCheckbox, taskBox } from './checkboxes.ts';

export function extractDocx(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, withComments = false): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const main = mainPart(zip);
  const doc = readXml(zip, main);
  const body = doc && child(doc, 'body');
  if (!body) throw missingPart(zip, 'DOCX', main, `${main} has no body`);
  const rels = relationships(zip, main);
  const partOf = (type: string) => [...rels.values()].filter((r) => r.type === type).map((r) => r.target);
  const stylesPart = partOf('styles')[0];
  const styles = readStyles(stylesPart ? readXml(zip, stylesPart) : null);
  const numberingPart = partOf('numbering')[0];
  const numbering = Numbering.read(numberingPart ? readXml(zip, numberingPart) : null, styles.numbering);
  const ctx: Ctx = {
    out: new Blocks(mode),
    zip,
    rels,
    styles,
    numbering,
    counters: numbering.counters(),
    bodySize: 0,
  };
  // Headings by direct formatting only in documents that mark none with a heading style or outline level.
  const styled = descendants(body, 'pPr').some((pPr) => {
    const id = child(pPr, 'pStyle')?.attrs.val;
    const outline = child(pPr, 'outlineLvl')?.attrs.val;
    return (id !== undefined && ctx.styles.paragraph.get(id)?.heading !== undefined) || (outline !== undefined && Number(outline) < 9);
  });
  ctx.bodySize = styled ? 0 : bodySize(body, styles.defaultSize);
  const furniture = (type: 'header' | 'footer') => {
    const seen = new Set<string>();
    for (const part of partOf(type)) {
      const root = readXml(zip, part);
      if (!root) continue;
      const sub = new Blocks('text');
      blocks({ ...ctx, out: sub, rels: relationships(zip, part), counters: numbering.counters(), bodySize: 0 }, root);
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
        blocks({ ...ctx, out: sub, rels: partRels, counters: numbering.counters(), bodySize: 0 }, note);
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
    blocks({ ...ctx, out: sub, rels: partRels, counters: ctx.numbering.counters(), bodySize: 0 }, c);
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
  styles: DocxStyles;
  numbering: Numbering;
  /** The list counters of the story being read (the body's, a header's, a note's). */
  counters: ListCounters;
  /** The body text's font size (half-points), for headings made by direct formatting; 0 where that guess is off (tables, notes). */
  bodySize: number;
}

function blocks(ctx: Ctx, container: XmlElement): void {
  const children = contentChildren(container);
  const read = children.map((el) => (el.name === 'p' ? readParagraph(ctx, el) : undefined));
  const code = codeRuns(read);
  for (let i = 0; i < children.length; i++) {
    const el = children[i]!;
    const run = code.get(i);
    if (run !== undefined) {
      ctx.out.code(run.text);
      for (let k = i; k < run.end; k++) anchoredBlocks(ctx, read[k]!.runs.anchored);
      i = run.end - 1;
    } else if (el.name === 'p') paragraph(ctx, read[i]!);
    else if (el.name === 'tbl') table(ctx, el);
    else if (el.name === 'sdt') {
      const content = child(el, 'sdtContent');
      if (content) blocks(ctx, content);
    } else if (el.name === 'customXml' || el.name === 'ins' || el.name === 'smartTag' || el.name === 'moveTo') blocks(ctx, el);
    else if (el.name === 'oMathPara' || el.name === 'oMath') ctx.out.formula(mathText(el));
  }
}

/** A paragraph's text and what its properties and style make it. */
interface ReadParagraph {
  runs: Runs;
  style?: StyleInfo;
  /** Direct outline level (9: body text). */
  outline?: string;
  numId?: string;
  ilvl: number;
}

function readParagraph(ctx: Ctx, p: XmlElement): ReadParagraph {
  const props = child(p, 'pPr');
  const styleId = (props && child(props, 'pStyle')?.attrs.val) ?? ctx.styles.defaultParagraph;
  const style = styleId !== undefined ? ctx.styles.paragraph.get(styleId) : undefined;
  const ownNum = props && child(props, 'numPr');
  const numId = (ownNum && child(ownNum, 'numId')?.attrs.val) ?? style?.numId;
  // A style that names a list but no level numbers at the level linked to it (w:pStyle in the level).
  const ilvl = (ownNum && child(ownNum, 'ilvl')?.attrs.val) ?? style?.ilvl ?? (numId !== undefined && styleId !== undefined ? ctx.numbering.levelOfStyle(numId, styleId) : undefined);
  return {
    runs: runText(p, ctx.styles, style?.font),
    style,
    outline: props && child(props, 'outlineLvl')?.attrs.val,
    numId: numId !== undefined && numId !== '0' ? numId : undefined,
    ilvl: Math.min(8, Math.max(0, Number(ilvl ?? 0) || 0)),
  };
}

/**
 * Where a container's paragraphs run as code: paragraphs in a code style, and
 * runs of paragraphs set wholly in a monospaced font whose lines read as code
 * (code-text.ts), joined into one block with their lines and indentation;
 * empty paragraphs inside a run are its blank lines. Index of a run's first
 * paragraph -> the index after its last, and its text.
 */
function codeRuns(read: Array<ReadParagraph | undefined>): Map<number, { end: number; text: string }> {
  const kind = read.map((r): 'style' | 'mono' | 'blank' | undefined => {
    if (!r || r.numId !== undefined || r.style?.heading !== undefined || (r.outline !== undefined && Number(r.outline) < 9)) return undefined;
    if (r.style?.kind !== undefined && r.style.kind !== 'code') return undefined;
    const { text, looks, maths, anchored } = r.runs;
    if (text.trim() === '') return maths.length === 0 && anchored.length === 0 ? 'blank' : undefined;
    if (r.style?.kind === 'code') return 'style';
    return looks.chars > 0 && looks.mono === looks.chars && maths.length === 0 ? 'mono' : undefined;
  });
  const out = new Map<number, { end: number; text: string }>();
  let i = 0;
  while (i < read.length) {
    if (kind[i] === undefined || kind[i] === 'blank') {
      i++;
      continue;
    }
    let j = i;
    while (j < read.length && kind[j] !== undefined) j++;
    // Cut the group into runs of one kind (blank lines go with the run they stand in), and judge each monospaced run by its text.
    const isCode: boolean[] = [];
    let k = i;
    while (k < j) {
      const first = kind[k] === 'blank' ? 'mono' : kind[k]!;
      let m = k;
      while (m < j && (kind[m] === first || kind[m] === 'blank')) m++;
      const span = first === 'style' ? { first: 0, last: m - k - 1 } : codeSpan(read.slice(k, m).map((r) => r!.runs.text));
      for (let n = k; n < m; n++) isCode[n] = span !== undefined && n - k >= span.first && n - k <= span.last;
      k = m;
    }
    for (let s = i; s < j; ) {
      if (!isCode[s] || kind[s] === 'blank') {
        s++;
        continue;
      }
      let e = s;
      while (e < j && isCode[e]) e++;
      while (kind[e - 1] === 'blank') e--;
      const text = read
        .slice(s, e)
        .map((r) => r!.runs.text.replace(/\s+$/, ''))
        .join('\n');
      out.set(s, { end: e, text });
      s = e;
    }
    i = j;
  }
  return out;
}

function paragraph(ctx: Ctx, read: ReadParagraph): void {
  const { runs, style, outline, numId, ilvl } = read;
  const { anchored, maths, other, looks } = runs;
  let text = runs.text;
  // Every numbered paragraph advances its list, shown or not (a heading's hidden number still restarts the levels under it).
  const numbered = numId !== undefined ? ctx.counters.next(numId, ilvl) : undefined;
  const label = numbered && numbered.level.format !== 'bullet' ? numbered.label.trim() : '';
  // A numbering level linked to a heading style makes its paragraphs headings (numbered headings).
  const numHeading = numbered?.level.pStyle !== undefined ? ctx.styles.paragraph.get(numbered.level.pStyle)?.heading : undefined;
  // Direct outline level 9 is body text, whatever the style says.
  const level =
    outline !== undefined
      ? Number(outline) < 9
        ? Number(outline) + 1
        : undefined
      : (style?.heading ?? numHeading ?? (numbered === undefined && !style?.kind ? formattedHeading(text, looks, ctx.bodySize) : undefined));
  // A heading or caption shows its number as part of its text: "1.2 Scope", "Figure 3: ...".
  const labelled = (t: string) => (label && t.trim() ? `${label} ${t.trim()}` : t);
  const box = taskBox(text);
  if (maths.length > 0 && !other) {
    // A paragraph holding only equations is a display equation.
    for (const m of maths) ctx.out.formula(m);
  } else if (style?.kind === 'title') ctx.out.title(text);
  else if (level !== undefined) ctx.out.heading(level, labelled(text));
  else if (style?.kind === 'caption') ctx.out.caption(labelled(text));
  else if (box) ctx.out.taskItem(box.text, box.checked, numbered ? listLevel(read) : 0, box.glyph);
  else if (numbered && (numbered.level.format === 'bullet' || label)) {
    if (numbered.level.format === 'bullet') ctx.out.listItem(text, listLevel(read), null);
    else ctx.out.numberedItem(label, text, listLevel(read));
  } else {
    // A bullet typed as a character ("• item") is a list item all the same.
    const typed = /^\s*[•◦▪▫●○■□‣⁃∙·*–-]\s+(?=\S)/.exec(text);
    if (typed) {
      text = text.slice(typed[0].length);
      ctx.out.listItem(text, 0, null);
    } else ctx.out.paragraph(text);
  }
  anchoredBlocks(ctx, anchored);
}

/** A list item's nesting: its numbering level, or for Word's "List Bullet 2" and the like at level 0, the depth the style stands for. */
const listLevel = (read: ReadParagraph) => (read.ilvl > 0 ? read.ilvl : (read.style?.listDepth ?? 0));

/** What a paragraph holds anchored in it, as blocks after it: text boxes, charts, SmartArt, described pictures. */
function anchoredBlocks(ctx: Ctx, anchored: Anchored[]): void {
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

interface Runs {
  text: string;
  anchored: Anchored[];
  maths: string[];
  /** Whether it holds text besides its equations. */
  other: boolean;
  looks: Looks;
}

/**
 * The visible text of a paragraph (runs, tabs and breaks, inline equations as
 * linear text, checkboxes as ☐ or ☒; not deleted text or field codes), how
 * its text is set, and what is anchored in it: text boxes and shapes
 * (DrawingML or VML, one of the two a document offers), charts, SmartArt and
 * described pictures. `paraFont` is the paragraph style's typeface.
 */
function runText(p: XmlElement, styles?: DocxStyles, paraFont?: string): Runs {
  const defaultSize = styles?.defaultSize ?? 0;
  const baseFont = paraFont ?? styles?.defaultFont;
  let out = '';
  let plain = '';
  const looks: Looks = { chars: 0, bold: 0, mono: 0, minSize: Infinity };
  let run = { bold: false, size: defaultSize, mono: false };
  const anchored: Anchored[] = [];
  const maths: string[] = [];
  /** A checkbox's glyph, where the element is one, is text and plain text alike; whether it was one. */
  const box = (glyph: string | undefined): boolean => {
    if (!glyph) return false;
    out += glyph;
    plain += glyph;
    return true;
  };
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
            if (run.mono) looks.mono += n;
            looks.minSize = Math.min(looks.minSize, run.size);
          }
          break;
        }
        case 'r': {
          const saved = run;
          const rPr = child(c, 'rPr');
          const rStyle = rPr && child(rPr, 'rStyle')?.attrs.val;
          const font = fontOf(rPr) ?? (rStyle !== undefined ? styles?.characterFont.get(rStyle) : undefined) ?? baseFont;
          run = { ...runLooks(rPr, defaultSize), mono: font !== undefined && isMonospaceFont(font) };
          walk(c);
          run = saved;
          break;
        }
        case 'sdt': {
          // A checkbox content control shows its state, whatever glyph its content was last drawn with.
          if (!box(checkboxGlyph(c))) walk(c);
          break;
        }
        case 'fldChar':
          // A legacy form checkbox is a field Word draws as a box; it has no text of its own.
          box(formCheckbox(c));
          break;
        case 'sym':
          box(symbolCheckbox(c));
          break;
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
        case 'sdtPr':
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
  /** Characters set in a monospaced typeface. */
  mono: number;
  /** Half-points. */
  minSize: number;
}

const on = (el: XmlElement | undefined) => !!el && !['0', 'false', 'off'].includes(el.attrs.val ?? 'true');

function runLooks(rPr: XmlElement | undefined, defaultSize: number): { bold: boolean; size: number } {
  const sz = rPr && child(rPr, 'sz')?.attrs.val;
  return { bold: on(rPr && child(rPr, 'b')), size: sz !== undefined ? Number(sz) || defaultSize : defaultSize };
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
  if (t.length > 120 || words > 14 || /[.,;:!?]$/.test(t) || !LETTER.test(t)) return undefined;
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

/**
 * A table's rows by the columns of its grid. A merged cell's text stands in
 * every grid cell it covers (across by w:gridSpan or the older w:hMerge, down
 * by w:vMerge), so each row reads whole on its own: a row of a chunk or a
 * search hit still says which group it belongs to, as pandas and docling
 * spread merged cells too.
 */
function tableRows(ctx: Ctx, tbl: XmlElement): string[][] {
  const rows: string[][] = [];
  for (const tr of contentChildren(tbl).filter((e) => e.name === 'tr')) {
    const row: string[] = [];
    const trPr = child(tr, 'trPr');
    const before = Number((trPr && child(trPr, 'gridBefore')?.attrs.val) ?? 0);
    for (let k = 0; k < Math.min(before, 64); k++) row.push('');
    for (const tc of cells(tr)) {
      const props = child(tc, 'tcPr');
      const vMerge = props && child(props, 'vMerge');
      const hMerge = props && child(props, 'hMerge');
      let text: string;
      if (vMerge && vMerge.attrs.val !== 'restart') text = rows.at(-1)?.[row.length] ?? '';
      else if (hMerge && hMerge.attrs.val !== 'restart') text = row.at(-1) ?? '';
      else {
        const sub = new Blocks('text');
        blocks({ ...ctx, out: sub, bodySize: 0 }, tc);
        text = sub.text().replace(/\s*\n\s*/g, ' ');
      }
      const span = Number((props && child(props, 'gridSpan')?.attrs.val) ?? 1);
      for (let k = 0; k < Math.min(Math.max(span, 1), 64); k++) row.push(text);
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
