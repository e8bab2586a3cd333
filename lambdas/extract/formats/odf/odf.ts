// OpenDocument text (ODT) and spreadsheets (ODS), from content.xml and
// meta.xml. ODS cells carry their displayed text, so numbers and dates come
// out as the spreadsheet shows them. ODS sheets are found in content.xml
// without parsing it whole (ods-sheets.ts), and only the sheets read are
// parsed: a page selection, a chunk of a large spreadsheet, parses its own.
// A cell spanning columns or rows (number-columns-spanned,
// number-rows-spanned, over covered cells) repeats its text in the cells it
// covers, in sheets and in text tables alike (engine/merged-cells.ts). A
// sheet whose table style says display="false" is hidden: read, not written.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { isoDate } from '../../engine/iso-date.ts';
import { LETTER } from '../../engine/letters.ts';
import { MAX_CELLS, tooManyCells } from '../../engine/limits.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import { odsSheetSpans } from './ods-sheets.ts';
import { columnName, sheetsOutput, selectedNumbers, type Drawing, type Sheet, type SheetComment } from '../../engine/sheets.ts';
import { type CellRange, spreadMerged } from '../../engine/merged-cells.ts';
import { child, descendants, elements, parseXml, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { lossMetadata, missingPart, SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

export function extractOdt(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, withComments = false): FormatOutput {
  const flat = isFlatXml(bytes);
  const zip = flat ? null : openPackage(bytes, budget);
  // A flat OpenDocument file (.fodt) is one XML document holding what a package keeps in parts.
  const flatDoc = flat ? parseXml(decodeText(bytes).text, 'the flat OpenDocument file') : null;
  const content = flatDoc ?? (zip && readXml(zip, 'content.xml'));
  const stylesRoot = flatDoc ?? (zip && readXml(zip, 'styles.xml'));
  const body = content && child(content, 'body');
  const office = body && child(body, 'text');
  if (!office) {
    const why = 'content.xml has no office:text body';
    throw zip ? missingPart(zip, 'OpenDocument file', 'content.xml', why) : new ExtractionError('corrupt_file', `The OpenDocument file could not be read: ${why}.`);
  }
  const out = new Blocks(mode);
  const ctx: OdtCtx = { out, styles: odtStyles([content, stylesRoot]), notes: [], counters: [], comments: withComments ? [] : null };
  const master = stylesRoot && child(stylesRoot, 'master-styles');
  const furniture = (kinds: string[]) => {
    const seen = new Set<string>();
    for (const page of master ? elements(master, 'master-page') : []) {
      for (const kind of kinds) {
        for (const part of elements(page, kind)) {
          const sub = new Blocks('text');
          flow({ ...ctx, out: sub, notes: [] }, part, 0);
          const text = sub.text().trim();
          // A page number alone is no header.
          if (LETTER.test(text) && !seen.has(text)) {
            seen.add(text);
            if (kinds[0] === 'header') out.pageHeader(text);
            else out.pageFooter(text);
          }
        }
      }
    }
  };
  furniture(['header', 'header-first', 'header-left']);
  flow(ctx, office, 0);
  for (const note of ctx.notes) {
    const sub = new Blocks('text');
    flow({ ...ctx, out: sub, notes: [] }, note, 0);
    out.footnote(sub.text().replace(/\n{2,}/g, '\n'));
  }
  for (const c of ctx.comments ?? []) out.comment(c.text, c.author, '');
  furniture(['footer', 'footer-first', 'footer-left']);
  const meta = flatDoc ? metaOf(child(flatDoc, 'meta')) : zip ? odfMeta(zip) : {};
  return out.output(meta);
}

/** A flat OpenDocument file starts as XML (after a BOM or blanks), not as a ZIP. */
function isFlatXml(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x3c;
}

/** `pages`: 1-based sheet numbers to read (config.pages); null for every sheet. */
export function extractOds(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const zip = openPackage(bytes, budget);
  const part = 'the part content.xml';
  const content = zip.readText('content.xml');
  if (content === null || !/<([\w.-]+:)?spreadsheet[\s/>]/.test(content)) {
    throw missingPart(zip, 'OpenDocument file', 'content.xml', 'content.xml has no office:spreadsheet body');
  }
  // The parser would refuse it on a whole parse; the sheets parsed alone must not slip past that.
  if (/<!DOCTYPE/i.test(content)) {
    throw new ExtractionError('refused_file', `Refused: ${part} declares a DOCTYPE; documents with DTDs or entity declarations are not accepted.`);
  }
  const spans = odsSheetSpans(content);
  const tags = spans.map((span) => parseXml(span.startTag, part));
  const names = tags.map((tag) => tag.attrs.name ?? 'Sheet');
  const hiddenStyles = hiddenTableStyles(content, part);
  const kept = selectedNumbers(spans.length, pages);
  // Shared by the sheets read, as on a whole read: with a selection the cap counts the cells read.
  const cellBudget = { cells: MAX_CELLS };
  const sheets = kept.map((n): Sheet => {
    const span = spans[n - 1]!;
    const comments: SheetComment[] = [];
    const rows = new TableRows(cellBudget, undefined, comments);
    const objects: XmlElement[] = [];
    // Rows are read as the parser closes them, so a sheet is never one tree of all its cells; a
    // table inside a cell keeps its rows, as the cell's content.
    const table = parseXml(content.slice(span.start, span.end), part, {
      name: 'table-row',
      notInside: ['table-cell', 'covered-table-cell'],
      visit: (row) => {
        rows.add(row);
        objects.push(...descendants(row, 'object'));
      },
    });
    // Charts on the sheet's shapes (written before its rows) first, then those anchored in cells.
    const hidden = hiddenStyles.has(tags[n - 1]!.attrs['style-name'] ?? '');
    return { name: names[n - 1]!, hidden, rows: rows.rows, merges: rows.merges, comments, drawings: odsCharts(zip, [...descendants(table, 'object'), ...objects]) };
  });
  return sheetsOutput(sheets, mode, odfMeta(zip), { names, kept, selected: pages !== null });
}

/** Names of the automatic table styles that hide their table (a sheet hidden in Calc). */
function hiddenTableStyles(content: string, part: string): Set<string> {
  const open = /<([\w.-]+:)?automatic-styles[\s>]/.exec(content);
  const close = open ? content.indexOf(`</${open[1] ?? ''}automatic-styles>`, open.index) : -1;
  const out = new Set<string>();
  if (!open || close < 0) return out;
  const styles = parseXml(content.slice(open.index, close) + `</${open[1] ?? ''}automatic-styles>`, part);
  for (const st of elements(styles, 'style')) {
    if (st.attrs.family !== 'table' || !st.attrs.name) continue;
    if (child(st, 'table-properties')?.attrs.display === 'false') out.add(st.attrs.name);
  }
  return out;
}

/** The package, refused as encrypted where its manifest says its parts are (a password set in LibreOffice). */
export function openPackage(bytes: Uint8Array, budget?: InflateBudget): SafeZip {
  const zip = new SafeZip(bytes, budget);
  if (/<([\w.-]+:)?encryption-data[\s/>]/.test(zip.readText('META-INF/manifest.xml') ?? '')) {
    throw new ExtractionError('encrypted_file', 'The OpenDocument file is password-protected; remove the password and resubmit.');
  }
  return zip;
}

export function officeBody(zip: SafeZip, kind: string): XmlElement {
  const content = readXml(zip, 'content.xml');
  const body = content && child(content, 'body');
  const office = body && child(body, kind);
  if (!office) throw missingPart(zip, 'OpenDocument file', 'content.xml', `content.xml has no office:${kind} body`);
  return office;
}

/** meta.xml, and what a package cut short lost (the job is then a partial success). */
export function odfMeta(zip: SafeZip): FormatOutput['metadata'] {
  const doc = readXml(zip, 'meta.xml');
  return { ...metaOf(doc && child(doc, 'meta')), ...lossMetadata(zip) };
}

function metaOf(meta: XmlElement | null | undefined): FormatOutput['metadata'] {
  const get = (name: string) => {
    const el = meta && child(meta, name);
    const s = el ? textContent(el).trim() : '';
    return s === '' ? null : s;
  };
  return {
    title: get('title'),
    author: get('initial-creator') ?? get('creator'),
    subject: get('subject') ?? get('description'),
    keywords: meta ? elements(meta, 'keyword').map((k) => textContent(k).trim()).filter(Boolean).join(', ') || null : null,
    creator: get('generator'),
    created_at: isoDate(get('creation-date')),
    modified_at: isoDate(get('date')),
  };
}

export interface OdtCtx {
  out: Blocks;
  styles: Map<string, OdtStyle>;
  /** Note bodies met in the text, written after it as footnotes. */
  notes: XmlElement[];
  /** List item numbers by level, of the list being read. */
  counters: number[];
  /** Review comments (office:annotation) met in the text, when the client asked for them; null otherwise. */
  comments: Array<{ author: string; text: string }> | null;
}

interface OdtStyle {
  parent?: string;
  /** The style's display name (or name), lower case. */
  display: string;
  /** List styles: which levels (1-based) are numbered. */
  numbered?: Set<number>;
  outline?: number;
}

/** Paragraph and list styles of content.xml (automatic) and styles.xml (named). */
export function odtStyles(roots: Array<XmlElement | null | undefined>): Map<string, OdtStyle> {
  const out = new Map<string, OdtStyle>();
  for (const root of roots) {
    if (!root) continue;
    for (const group of [child(root, 'automatic-styles'), child(root, 'styles')]) {
      if (!group) continue;
      for (const st of elements(group)) {
        const name = st.attrs.name;
        if (!name) continue;
        if (st.name === 'style') {
          const outline = st.attrs['default-outline-level'];
          out.set(name, { parent: st.attrs['parent-style-name'], display: (st.attrs['display-name'] ?? name).toLowerCase(), ...(outline ? { outline: Number(outline) } : {}) });
        } else if (st.name === 'list-style') {
          const numbered = new Set<number>();
          for (const lvl of elements(st, 'list-level-style-number')) {
            const format = lvl.attrs['num-format'];
            if (format !== '' && format !== undefined) numbered.add(Number(lvl.attrs.level ?? 1));
          }
          out.set(name, { display: name.toLowerCase(), numbered });
        }
      }
    }
  }
  return out;
}

/** What a paragraph style makes a paragraph: the title, a subtitle, a caption, or nothing special. */
function paragraphKind(ctx: OdtCtx, name: string | undefined): 'title' | 'caption' | 'heading' | null {
  for (let depth = 0; name && depth < 20; depth++) {
    const st = ctx.styles.get(name);
    const display = st?.display ?? name.toLowerCase();
    if (display === 'title') return 'title';
    if (display === 'caption') return 'caption';
    if (/^heading \d$/.test(display)) return 'heading';
    name = st?.parent;
  }
  return null;
}

export function flow(ctx: OdtCtx, el: XmlElement, listLevel: number): void {
  const { out } = ctx;
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    switch (c.name) {
      case 'h':
        out.heading(Number(c.attrs['outline-level'] ?? 1) || 1, inline(ctx, c));
        frames(ctx, c);
        break;
      case 'p': {
        const text = inline(ctx, c);
        const kind = paragraphKind(ctx, c.attrs['style-name']);
        const typed = /^\s*[•◦▪▫●○■□‣⁃∙·*–-]\s+(?=\S)/.exec(text);
        if (kind === 'title') out.title(text);
        else if (kind === 'caption') out.caption(text);
        else if (typed) out.listItem(text.slice(typed[0].length), listLevel, null);
        else out.paragraph(text);
        frames(ctx, c);
        break;
      }
      case 'list':
        list(ctx, c, listLevel, c.attrs['style-name']);
        break;
      case 'table':
        out.table(tableRows(c, { cells: MAX_CELLS }, (p) => inline(ctx, p)));
        break;
      case 'frame':
        frame(ctx, c);
        break;
      case 'section':
      case 'index-body':
      case 'table-of-content':
      case 'illustration-index':
      case 'alphabetical-index':
      case 'user-index':
      case 'object-index':
      case 'table-index':
      case 'bibliography':
      case 'change':
      case 'soft-page-break':
        flow(ctx, c, listLevel);
        break;
      case 'index-title':
        flow(ctx, c, listLevel);
        break;
      default:
        break;
    }
  }
}

/** A list: its items at `level`, numbered where its list style numbers that level; headings in a list stay headings. */
function list(ctx: OdtCtx, el: XmlElement, level: number, styleName: string | undefined): void {
  const style = styleName ? ctx.styles.get(styleName) : undefined;
  const numbered = style?.numbered?.has(level + 1) ?? false;
  const saved = ctx.counters;
  if (el.attrs['continue-numbering'] !== 'true' && level === 0) ctx.counters = [];
  for (const item of el.children) {
    if (typeof item === 'string' || (item.name !== 'list-item' && item.name !== 'list-header')) continue;
    const start = Number(item.attrs['start-value']);
    let first = true;
    for (const part of item.children) {
      if (typeof part === 'string') continue;
      if (part.name === 'list') list(ctx, part, level + 1, part.attrs['style-name'] ?? styleName);
      else if (part.name === 'h') ctx.out.heading(Number(part.attrs['outline-level'] ?? 1) || 1, inline(ctx, part));
      else if (part.name === 'p') {
        const text = inline(ctx, part);
        if (first && item.name === 'list-item') {
          ctx.counters.length = level + 1;
          const n = Number.isFinite(start) && item.attrs['start-value'] ? start : (ctx.counters[level] ?? 0) + 1;
          ctx.counters[level] = n;
          ctx.out.listItem(text, level, numbered ? n : null);
        } else ctx.out.paragraph(text);
        frames(ctx, part);
        first = false;
      } else if (part.name === 'table') ctx.out.table(tableRows(part, { cells: MAX_CELLS }, (p) => inline(ctx, p)));
    }
  }
  if (level === 0) ctx.counters = saved;
}

/** Frames anchored in a paragraph: text boxes after it, images by their description. */
function frames(ctx: OdtCtx, p: XmlElement): void {
  for (const c of p.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'frame') frame(ctx, c);
    else if (c.name === 'span' || c.name === 'a') frames(ctx, c);
  }
}

function frame(ctx: OdtCtx, f: XmlElement): void {
  const box = child(f, 'text-box');
  if (box) {
    flow(ctx, box, 0);
    return;
  }
  const described = child(f, 'desc') ?? child(f, 'title');
  const text = described ? textContent(described).trim() : '';
  if (text) ctx.out.figure(text);
}

/**
 * Text of a paragraph: spans, links, fields (their shown values), spaces
 * (text:s), tabs and line breaks; a note's body is kept for the footnotes
 * and its citation left in place; frames and comments are not line text.
 */
export function inline(ctx: OdtCtx | null, el: XmlElement): string {
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') s += c;
    else if (c.name === 's') s += ' '.repeat(Math.min(Number(c.attrs.c ?? 1) || 1, 100));
    else if (c.name === 'tab') s += '\t';
    else if (c.name === 'line-break') s += '\n';
    else if (c.name === 'note') {
      const body = child(c, 'note-body');
      if (body && ctx) ctx.notes.push(body);
      const citation = child(c, 'note-citation');
      if (citation) s += textContent(citation);
    } else if (c.name === 'annotation') {
      const creator = child(c, 'creator');
      const text = elements(c, 'p').map((p) => inline(null, p)).join('\n');
      ctx?.comments?.push({ author: creator ? textContent(creator) : '', text });
    } else if (c.name === 'annotation-end' || c.name === 'bookmark-ref' || c.name === 'frame' || c.name === 'custom-shape') continue;
    else s += inline(ctx, c);
  }
  return s;
}

const MAX_REPEAT = 1000;

/** What holds a cell's paragraphs: its lists and sections, and a table nested in it, whose text is the cell's too. */
const CELL_CONTAINERS = new Set(['list', 'list-item', 'list-header', 'section', 'table', 'table-rows', 'table-header-rows', 'table-row-group', 'table-row', 'table-cell']);

/** The paragraphs of a cell, those in its lists and nested tables included. */
function cellParagraphs(cell: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of cell.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'p' || c.name === 'h') out.push(c);
    else if (CELL_CONTAINERS.has(c.name)) out.push(...cellParagraphs(c));
  }
  return out;
}

function tableRowElements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'table-row') out.push(c);
    else if (c.name === 'table-rows' || c.name === 'table-header-rows' || c.name === 'table-row-group') out.push(...tableRowElements(c));
  }
  return out;
}

/** A table's rows as cell texts, a spanning cell's text repeated over the cells it covers; see TableRows. */
export function tableRows(table: XmlElement, budget: { cells: number }, paragraphText?: (p: XmlElement) => string): string[][] {
  const rows = new TableRows(budget, paragraphText);
  for (const row of tableRowElements(table)) rows.add(row);
  spreadMerged(rows.rows, rows.merges, budget, 'document');
  return rows.rows;
}

/**
 * A table's cell texts, a `table-row` element at a time, and its spanning
 * cells as merged ranges (by place in `rows`). Repeated rows and columns are
 * expanded only when they hold text: files end in a million repeated empty
 * cells. A run of repeated empty rows is kept as two, so that one blank row
 * still tells from a wider gap (engine/sheet-regions.ts).
 */
class TableRows {
  readonly rows: string[][] = [];
  readonly merges: CellRange[] = [];
  private rowNumber = 0;

  constructor(
    private readonly budget: { cells: number },
    private readonly paragraphText: (p: XmlElement) => string = (p) => inline(null, p),
    private readonly comments?: SheetComment[],
  ) {}

  add(row: XmlElement): void {
    const cells: string[] = [];
    const spans: Array<{ col: number; cols: number; rows: number }> = [];
    let colNumber = 0;
    for (const cell of row.children) {
      if (typeof cell === 'string' || (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell')) continue;
      const note = this.comments && child(cell, 'annotation');
      if (note) {
        const text = elements(note, 'p').map((p) => inline(null, p)).join(' ').replace(/\s+/g, ' ').trim();
        const creator = child(note, 'creator');
        const author = creator ? textContent(creator).replace(/\s+/g, ' ').trim() : '';
        if (text) this.comments!.push({ ref: `${columnName(colNumber)}${this.rowNumber + 1}`, text, ...(author ? { author } : {}) });
      }
      const colSpan = Math.min(Number(cell.attrs['number-columns-spanned'] ?? 1) || 1, MAX_REPEAT);
      const rowSpan = Math.min(Number(cell.attrs['number-rows-spanned'] ?? 1) || 1, MAX_REPEAT);
      if (cell.name === 'table-cell' && (colSpan > 1 || rowSpan > 1)) spans.push({ col: cells.length, cols: colSpan, rows: rowSpan });
      colNumber += Number(cell.attrs['number-columns-repeated'] ?? 1) || 1;
      const paras = cellParagraphs(cell);
      // Generators that write no display text leave only the value: show that.
      const text =
        paras.length > 0
          ? paras.map(this.paragraphText).join('\n')
          : (cell.attrs['string-value'] ?? cell.attrs.value ?? cell.attrs['date-value'] ?? cell.attrs['time-value'] ?? cell.attrs['boolean-value'] ?? '');
      const repeat = Number(cell.attrs['number-columns-repeated'] ?? 1) || 1;
      for (let k = 0; k < (text ? Math.min(repeat, MAX_REPEAT) : Math.min(repeat, 1)); k++) cells.push(text);
      if (!text && repeat > 1) cells.push(...new Array(Math.min(repeat - 1, MAX_REPEAT)).fill(''));
    }
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    const repeat = Number(row.attrs['number-rows-repeated'] ?? 1) || 1;
    this.rowNumber += repeat;
    const times = cells.length === 0 ? Math.min(repeat, 2) : Math.min(repeat, MAX_REPEAT);
    for (let k = 0; k < times; k++) {
      const top = this.rows.length;
      for (const s of spans) this.merges.push({ top, left: s.col, bottom: top + s.rows - 1, right: s.col + s.cols - 1 });
      this.budget.cells -= cells.length;
      if (this.budget.cells < 0) throw tooManyCells('spreadsheet');
      this.rows.push(cells);
    }
  }
}

/** The charts of a sheet's embedded chart objects: their titles. */
function odsCharts(zip: SafeZip, objects: XmlElement[]): Drawing[] {
  const out: Drawing[] = [];
  for (const obj of objects) {
    const href = (obj.attrs.href ?? '').replace(/^\.\//, '').replace(/\/$/, '');
    if (!href || href.includes('..')) continue;
    const root = readXml(zip, `${href}/content.xml`);
    // office:chart holds chart:chart; both are "chart" without their prefixes.
    let chart = root ? descendants(root, 'chart')[0] : undefined;
    while (chart && child(chart, 'chart')) chart = child(chart, 'chart');
    if (!chart) continue;
    const title = child(chart, 'title');
    const axes = descendants(chart, 'axis').map((a) => child(a, 'title')).filter((t): t is XmlElement => !!t);
    const text = (el: XmlElement) => elements(el, 'p').map((p) => inline(null, p)).join(' ').replace(/\s+/g, ' ').trim();
    out.push({ kind: 'chart', chart: { title: title ? text(title) : '', axisTitles: axes.map(text).filter(Boolean), rows: [] } });
  }
  return out;
}
