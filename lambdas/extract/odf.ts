// OpenDocument text (ODT) and spreadsheets (ODS), from content.xml and
// meta.xml. ODS cells carry their displayed text, so numbers and dates come
// out as the spreadsheet shows them. ODS sheets are found in content.xml
// without parsing it whole (ods-sheets.ts), and only the sheets read are
// parsed: a page selection, a chunk of a large spreadsheet, parses its own.

import { Blocks, type OutputMode } from './blocks.ts';
import { isoDate, readXml } from './ooxml.ts';
import { odsSheetSpans } from './ods-sheets.ts';
import { sheetsOutput, selectedNumbers, MAX_CELLS, type Sheet } from './xlsx.ts';
import { child, elements, parseXml, textContent, type XmlElement } from './xml.ts';
import { SafeZip, type InflateBudget } from './zip.ts';
import { ExtractionError, type FormatOutput } from './types.ts';

export function extractOdt(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const office = officeBody(zip, 'text');
  const out = new Blocks(mode);
  flow(out, office, 0);
  return out.output(odfMeta(zip));
}

/** `pages`: 1-based sheet numbers to read (config.pages); null for every sheet. */
export function extractOds(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget, pages: number[] | null = null): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const part = 'the part content.xml';
  const content = zip.readText('content.xml');
  if (content === null || !/<([\w.-]+:)?spreadsheet[\s/>]/.test(content)) {
    throw new ExtractionError('corrupt_file', 'The OpenDocument file could not be read: content.xml has no office:spreadsheet body.');
  }
  // The parser would refuse it on a whole parse; the sheets parsed alone must not slip past that.
  if (/<!DOCTYPE/i.test(content)) {
    throw new ExtractionError('refused_file', `Refused: ${part} declares a DOCTYPE; documents with DTDs or entity declarations are not accepted.`);
  }
  const spans = odsSheetSpans(content);
  const names = spans.map((span) => parseXml(span.startTag, part).attrs.name ?? 'Sheet');
  const kept = selectedNumbers(spans.length, pages);
  // Shared by the sheets read, as on a whole read: with a selection the cap counts the cells read.
  const cellBudget = { cells: MAX_CELLS };
  const sheets = kept.map((n): Sheet => {
    const span = spans[n - 1]!;
    return { name: names[n - 1]!, rows: tableRows(parseXml(content.slice(span.start, span.end), part), cellBudget) };
  });
  return sheetsOutput(sheets, mode, odfMeta(zip), { names, kept, selected: pages !== null });
}

function officeBody(zip: SafeZip, kind: string): XmlElement {
  const content = readXml(zip, 'content.xml');
  const body = content && child(content, 'body');
  const office = body && child(body, kind);
  if (!office) throw new ExtractionError('corrupt_file', `The OpenDocument file could not be read: content.xml has no office:${kind} body.`);
  return office;
}

function odfMeta(zip: SafeZip): FormatOutput['metadata'] {
  const doc = readXml(zip, 'meta.xml');
  const meta = doc && child(doc, 'meta');
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

function flow(out: Blocks, el: XmlElement, listLevel: number): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    switch (c.name) {
      case 'h':
        out.heading(Number(c.attrs['outline-level'] ?? 1), inline(c));
        break;
      case 'p':
        out.paragraph(inline(c));
        break;
      case 'list':
        for (const item of elements(c, 'list-item').concat(elements(c, 'list-header'))) {
          for (const part of item.children) {
            if (typeof part === 'string') continue;
            if (part.name === 'list') flow(out, { ...item, children: [part] }, listLevel + 1);
            else if (part.name === 'p' || part.name === 'h') out.listItem(inline(part), listLevel);
          }
        }
        break;
      case 'table':
        out.table(tableRows(c, { cells: MAX_CELLS }));
        break;
      case 'section':
      case 'index-body':
      case 'table-of-content':
      case 'illustration-index':
      case 'alphabetical-index':
        flow(out, c, listLevel);
        break;
      default:
        break;
    }
  }
}

/** Text of a paragraph: spans, links, spaces (text:s), tabs and line breaks; notes' citations and bodies left out of the line. */
function inline(el: XmlElement): string {
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') s += c;
    else if (c.name === 's') s += ' '.repeat(Math.min(Number(c.attrs.c ?? 1) || 1, 100));
    else if (c.name === 'tab') s += '\t';
    else if (c.name === 'line-break') s += '\n';
    else if (c.name === 'note' || c.name === 'annotation' || c.name === 'bookmark-ref') continue;
    else s += inline(c);
  }
  return s;
}

const MAX_REPEAT = 1000;

function tableRowElements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'table-row') out.push(c);
    else if (c.name === 'table-rows' || c.name === 'table-header-rows' || c.name === 'table-row-group') out.push(...tableRowElements(c));
  }
  return out;
}

/** Repeated rows and columns are expanded only when they hold text: files end in a million repeated empty cells. */
function tableRows(table: XmlElement, budget: { cells: number }): string[][] {
  const rows: string[][] = [];
  for (const row of tableRowElements(table)) {
    const cells: string[] = [];
    for (const cell of row.children) {
      if (typeof cell === 'string' || (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell')) continue;
      const text = elements(cell, 'p').map(inline).join('\n');
      const repeat = Number(cell.attrs['number-columns-repeated'] ?? 1) || 1;
      for (let k = 0; k < (text ? Math.min(repeat, MAX_REPEAT) : Math.min(repeat, 1)); k++) cells.push(text);
      if (!text && repeat > 1) cells.push(...new Array(Math.min(repeat - 1, MAX_REPEAT)).fill(''));
    }
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    const repeat = Number(row.attrs['number-rows-repeated'] ?? 1) || 1;
    const times = cells.length === 0 ? 1 : Math.min(repeat, MAX_REPEAT);
    for (let k = 0; k < times; k++) {
      budget.cells -= cells.length;
      if (budget.cells < 0) throw new ExtractionError('too_many_pages', `The spreadsheet has more than ${MAX_CELLS.toLocaleString('en-US')} cells; the limit is ${MAX_CELLS.toLocaleString('en-US')}.`);
      rows.push(cells);
    }
  }
  return rows;
}
