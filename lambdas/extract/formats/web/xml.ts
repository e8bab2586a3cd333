// XML: the text a reader of the document sees, not its markup. An element
// holding text of its own is one block, its inline children's text within it
// (a DocBook or XHTML paragraph with emphasis inside, a record's field);
// other elements are walked into. Office's 2003 XML formats read as their
// documents do: Word's paragraphs (headings from their Heading styles) and
// tables, with footnotes after the body, headers and footers once as page
// furniture and reviewers' comments left out;
// Excel's worksheets as headings and tables, numbers in General form. Attributes, comments and processing instructions are not text. A
// DOCTYPE is passed over unread, so its entities are never expanded; a file
// that does not parse as XML is read as plain text is, markup and all.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { formatGeneral } from '../../engine/number-formats.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import { descendants, parseXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

/** A DOCTYPE and its internal subset, whose entity declarations may hold further markup. */
const DOCTYPE = /<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>/i;

export function extractXml(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const { text } = decodeText(bytes);
  const out = new Blocks(mode);
  let root: XmlElement;
  try {
    root = parseXml(text.replace(DOCTYPE, ''), 'The XML document');
  } catch (err) {
    if (!(err instanceof ExtractionError)) throw err;
    // Markup that only looks like XML (FrameMaker's MIF holds its text inside its tags): its text as it stands, as plain text reads.
    for (const para of text.split(/\r?\n\s*\r?\n/)) if (para.trim()) out.paragraph(para.trim());
    return out.output();
  }
  // parseXml gives the document element.
  if (root.name === 'wordDocument') wordDocument(root, out);
  else if (root.name === 'Workbook' && root.children.some((c) => typeof c !== 'string' && c.name === 'Worksheet')) workbook(root, out);
  else blocks(root, out);
  return out.output();
}

const own = (el: XmlElement) => el.children.some((c) => typeof c === 'string' && c.trim() !== '');
const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();

function blocks(el: XmlElement, out: Blocks): void {
  if (own(el)) {
    const t = squeeze(textContent(el));
    if (t) out.paragraph(t);
    return;
  }
  for (const c of el.children) if (typeof c !== 'string') blocks(c, out);
}

// ---- Word 2003 XML (WordprocessingML) ----------------------------------------

function wordDocument(doc: XmlElement, out: Blocks): void {
  const notes: string[] = [];
  // Each section's headers and footers (in its sectPr), once each: page furniture, as DOCX's are.
  const furniture = (name: 'hdr' | 'ftr') => [...new Set(descendants(doc, name).map((el) => squeeze(runText(el, []))).filter(Boolean))];
  for (const t of furniture('hdr')) out.pageHeader(t);
  const walk = (el: XmlElement) => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (c.name === 'p') {
        const t = squeeze(runText(c, notes));
        const style = /^heading\s*(\d)$/i.exec(attr(first(c, 'pStyle'), 'val') ?? '');
        if (!t) continue;
        if (style) out.heading(Math.min(6, Number(style[1])), t);
        else out.paragraph(t);
      } else if (c.name === 'tbl') {
        const rows = c.children.filter((r): r is XmlElement => typeof r !== 'string' && r.name === 'tr');
        out.table(rows.map((r) => r.children.filter((x): x is XmlElement => typeof x !== 'string' && x.name === 'tc').map((tc) => squeeze(runText(tc, notes)))));
      } else if (c.name !== 'sectPr' && c.name !== 'docPr' && c.name !== 'styles' && c.name !== 'fonts' && c.name !== 'lists' && c.name !== 'DocumentProperties') walk(c);
    }
  };
  walk(doc);
  for (const n of notes) out.footnote(n);
  for (const t of furniture('ftr')) out.pageFooter(t);
}

/** A paragraph's (or cell's) text: its runs' text, tabs and breaks; a footnote's or endnote's text is set aside in `notes`. */
function runText(el: XmlElement, notes: string[]): string {
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === 't') s += textContent(c);
    else if (c.name === 'tab') s += '\t';
    else if (c.name === 'br' || c.name === 'cr') s += '\n';
    else if (c.name === 'p') s += `${runText(c, notes)}\n`;
    else if (c.name === 'footnote' || c.name === 'endnote') {
      const t = squeeze(runText(c, []));
      if (t) notes.push(t);
    } else if (c.name === 'annotation' && /Comment$/.test(attr(c, 'type') ?? '')) {
      // A reviewer's comment is not the document's text.
    } else if (c.name !== 'instrText' && c.name !== 'delText' && c.name !== 'rPr' && c.name !== 'pPr') s += runText(c, notes);
  }
  return s;
}

// ---- Excel 2003 XML (SpreadsheetML) ------------------------------------------

const MAX_COLUMNS = 16_384;

function workbook(book: XmlElement, out: Blocks): void {
  for (const sheet of book.children) {
    if (typeof sheet === 'string' || sheet.name !== 'Worksheet') continue;
    out.heading(2, attr(sheet, 'Name') ?? 'Sheet');
    const table = first(sheet, 'Table');
    const rows: string[][] = [];
    for (const row of table?.children ?? []) {
      if (typeof row === 'string' || row.name !== 'Row') continue;
      // ss:Index numbers a cell after a gap (1-based; rows' gaps are empty rows, which tables leave out); a cell
      // merged across spans ss:MergeAcross more columns. Both within Excel's 16,384 columns.
      const cells: string[] = [];
      for (const cell of row.children) {
        if (typeof cell === 'string' || cell.name !== 'Cell') continue;
        const col = Math.min(MAX_COLUMNS, Number(attr(cell, 'Index')));
        while (Number.isInteger(col) && cells.length < col - 1) cells.push('');
        const data = first(cell, 'Data');
        cells.push(data ? cellValue(attr(data, 'Type'), squeeze(textContent(data))) : '');
        const across = Math.min(MAX_COLUMNS - cells.length, Number(attr(cell, 'MergeAcross')));
        for (let k = 0; Number.isInteger(across) && k < across; k++) cells.push('');
      }
      rows.push(cells);
    }
    const width = Math.max(0, ...rows.map((r) => r.length));
    const kept = rows.filter((r) => r.some((c) => c !== ''));
    if (kept.length > 0) out.table(kept.map((r) => [...r, ...Array<string>(width - r.length).fill('')]));
  }
}

/** A cell as Excel shows it without a number format: a number in General form, a date without a midnight time. */
function cellValue(type: string | undefined, raw: string): string {
  if (type === 'Number' && raw !== '' && Number.isFinite(Number(raw))) return formatGeneral(Number(raw));
  if (type === 'DateTime') return raw.replace(/T00:00:00(?:\.0+)?$/, '').replace('T', ' ').replace(/\.0+$/, '');
  return raw;
}

/** An attribute by its local name, whatever its prefix (ss:Name, w:val). */
function attr(el: XmlElement | undefined, name: string): string | undefined {
  if (!el) return undefined;
  for (const [k, v] of Object.entries(el.attrs)) if (k === name || k.endsWith(`:${name}`)) return v;
  return undefined;
}

/** The first descendant of that local name, depth first. */
function first(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) return c;
    const found = first(c, name);
    if (found) return found;
  }
  return undefined;
}
