// Page selection that reads only what is selected: slides, sheets and CSV
// rows. It is what lets a large presentation, workbook or CSV be split into
// chunks (lambdas/core/chunk-plan.ts), so each case also checks that the
// chunks merged (merge.ts) give what a whole read gives.

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { mergeParts, mergeRulesOf, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { DEFAULT_CONFIG, type ExtractionConfig, type ExtractionResult } from '../../../lambdas/extract/engine/types.ts';
import { biff, makePpt, makeXls } from '../../support/cfb-fixture.ts';
import { makeOdf, makePptx, makeXlsx } from '../../support/office-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };
const rulesOf = (format: string) => mergeRulesOf(splitOf(format)!);
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);
const read = (bytes: Uint8Array, filename: string, pages: number[] | null, config: ExtractionConfig = DEFAULT_CONFIG) =>
  extract({ bytes: bytes.slice(), filename, config: { ...config, pages } });

/** Reads the document in chunks of page ranges, as the chunk workers do, and merges them as the aggregation does. */
async function inChunks(bytes: Uint8Array, filename: string, ranges: [number, number][], config: ExtractionConfig = DEFAULT_CONFIG): Promise<ExtractionResult> {
  const parts = await Promise.all(
    ranges.map(async ([first, last]): Promise<Part> => ({ first_page: first, last_page: last, ok: true, result: await read(bytes, filename, range(first, last), config) })),
  );
  return mergeParts(parts, rulesOf(parts.flatMap((p) => (p.ok ? [p.result.metadata.format] : []))[0]!))!;
}

/** Not well-formed: a whole read leaves this part out and names it (partial success). */
const BROKEN_XML = '<?xml version="1.0"?><p:sld xmlns:p="x"><p:cSld><p:spTree><p:sp a=></p:sp></p:spTree></p:cSld></p:sld>';

describe('PPTX slide selection', () => {
  const slides = [
    { title: 'One', bullets: ['first'] },
    { title: 'Two', table: [['a', 'b'], ['1', '2']] },
    { title: 'Three', table: [['a', 'b'], ['3', '4']], notes: 'Say three.' },
    { title: 'Four' },
  ];

  it('reads only the selected slides: a damaged slide outside the selection is never parsed', async () => {
    // Slide 4 of 4 is stored as slide1.xml (the fixture stores them in reverse).
    const pptx = makePptx(slides, { 'ppt/slides/slide1.xml': BROKEN_XML });
    const whole = await read(pptx, 'deck.pptx', null);
    expect(whole.metadata).toMatchObject({ pages: 4, failed_sections: [{ name: 'ppt/slides/slide1.xml', error: expect.stringMatching(/slide1\.xml is not well-formed/) }] });
    expect(whole.content).not.toContain('Four');
    const result = await read(pptx, 'deck.pptx', [2, 3]);
    expect(result.content).toBe('Two\n\na\tb\n1\t2\n\nThree\n\na\tb\n3\t4\n\nNotes: Say three.');
    expect(result.metadata).toMatchObject({ pages: 2, pages_total: 4, page_unit: 'slide' });
    expect(result.tables.map((t) => t.page)).toEqual([2, 3]);
    expect(result.chunks.map((c) => c.page_start)).toEqual([2, 3]);
  });

  it('merges slide ranges into the whole presentation, keeping tables of adjacent slides apart', async () => {
    const pptx = makePptx(slides);
    const whole = await read(pptx, 'deck.pptx', null, markdown);
    const merged = await inChunks(pptx, 'deck.pptx', [[1, 2], [3, 4]], markdown);
    expect(merged.content).toBe(whole.content);
    expect(merged.chunks).toEqual(whole.chunks);
    // Same columns on the two slides either side of the seam: still two tables, as on a whole read.
    expect(merged.tables).toEqual(whole.tables);
    expect(merged.metadata).toMatchObject({ pages: 4, pages_total: 4 });
  });

  it('counts slides as the presentation lists them, whatever slide parts the package holds', () => {
    const pptx = makePptx(slides, { 'ppt/slides/slide99.xml': BROKEN_XML });
    expect(countPages({ bytes: pptx, filename: 'deck.pptx' })).toBe(4);
  });
});

describe('XLSX sheet selection', () => {
  const sheets = [
    { name: 'Jan', rows: [['Item', 'Qty'], ['bolts', 4]] },
    { name: 'Feb', rows: [['Item', 'Qty'], ['nuts', 9]] },
    { name: 'Mar', rows: [['Item', 'Qty'], ['gears', 2]] },
  ];

  it('reads only the selected sheets, and still names every sheet of the workbook', async () => {
    const xlsx = makeXlsx(sheets, { 'xl/worksheets/sheet2.xml': BROKEN_XML });
    const whole = await read(xlsx, 'book.xlsx', null);
    expect(whole.metadata.failed_sections).toEqual([{ name: 'xl/worksheets/sheet2.xml', error: expect.stringMatching(/sheet2\.xml is not well-formed/) }]);
    expect(whole.tables.map((t) => t.sheet)).toEqual(['Jan', 'Mar']);
    const result = await read(xlsx, 'book.xlsx', [1, 3]);
    expect(result.tables.map((t) => [t.sheet, t.rows[1]])).toEqual([
      ['Jan', ['bolts', '4']],
      ['Mar', ['gears', '2']],
    ]);
    expect(result.metadata).toMatchObject({ pages: 2, pages_total: 3, page_unit: 'sheet', sheets: ['Jan', 'Feb', 'Mar'] });
    expect(result.chunks.map((c) => [c.page_start, c.text.split('\n')[0]])).toEqual([
      [1, 'Jan'],
      [3, 'Mar'],
    ]);
  });

  it('merges sheet ranges into the whole workbook, each sheet its own table', async () => {
    const xlsx = makeXlsx(sheets);
    const whole = await read(xlsx, 'book.xlsx', null, markdown);
    const merged = await inChunks(xlsx, 'book.xlsx', [[1, 1], [2, 3]], markdown);
    expect(merged.content).toBe(whole.content);
    expect(merged.chunks).toEqual(whole.chunks);
    expect(merged.tables).toEqual(whole.tables);
    expect(merged.metadata).toMatchObject({ pages: 3, sheets: ['Jan', 'Feb', 'Mar'] });
  });

  it('counts the sheets the workbook lists, chartsheets included, as extraction reads them', async () => {
    const workbook =
      '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>' +
      '<sheet name="Jan" sheetId="1" r:id="rS1"/><sheet name="Chart" sheetId="9" r:id="rChart"/><sheet name="Feb" sheetId="2" r:id="rS2"/></sheets></workbook>';
    const xlsx = makeXlsx(sheets.slice(0, 2), { 'xl/workbook.xml': workbook });
    expect(countPages({ bytes: xlsx, filename: 'book.xlsx' })).toBe(3);
    expect((await read(xlsx, 'book.xlsx', null)).metadata.pages).toBe(3);
    expect((await read(xlsx, 'book.xlsx', [3])).tables.map((t) => t.sheet)).toEqual(['Feb']);
  });
});

describe('ODS sheet selection', () => {
  const cell = (text: string) => `<table:table-cell><text:p>${text}</text:p></table:table-cell>`;
  const sheet = (name: string, rows: string[][], extra = '') =>
    `<table:table table:name="${name}">${rows.map((r) => `<table:table-row>${r.map(cell).join('')}</table:table-row>`).join('')}${extra}</table:table>`;

  it('parses only the selected sheets of content.xml: a damaged sheet outside the selection is never parsed', async () => {
    const ods = makeOdf(
      'spreadsheet',
      sheet('North', [['Item', 'Cost'], ['Rent', '1,200']]) +
        sheet('Broken', [['x']], '<table:table-row><text:p a=></table:table-row>') +
        // A quoted '>' and a table nested in a cell do not confuse the scan for where sheets start and end.
        sheet('South > East', [['Item', 'Cost'], ['Power', '90']], `<table:table-row><table:table-cell>${sheet('inner', [['nested']])}</table:table-cell></table:table-row>`),
    );
    await expect(read(ods, 'b.ods', null)).rejects.toThrow(/content\.xml is not well-formed/);
    const result = await read(ods, 'b.ods', [1, 3]);
    expect(result.tables.map((t) => [t.sheet, t.rows[1]])).toEqual([
      ['North', ['Rent', '1,200']],
      ['South > East', ['Power', '90']],
    ]);
    expect(result.metadata).toMatchObject({ pages: 2, pages_total: 3, sheets: ['North', 'Broken', 'South > East'] });
    expect(countPages({ bytes: ods, filename: 'b.ods' })).toBe(3);
  });

  it('merges sheet ranges into the whole spreadsheet', async () => {
    const ods = makeOdf('spreadsheet', ['A', 'B', 'C', 'D'].map((n, i) => sheet(n, [['k', 'v'], [n, String(i)]])).join(''));
    const whole = await read(ods, 'c.ods', null);
    const merged = await inChunks(ods, 'c.ods', [[1, 3], [4, 4]]);
    expect(merged.content).toBe(whole.content);
    expect(merged.tables).toEqual(whole.tables);
    expect(merged.metadata).toMatchObject({ pages: 4, pages_total: 4, sheets: ['A', 'B', 'C', 'D'] });
  });

  it('refuses a content.xml with a DOCTYPE even when only some sheets are read', async () => {
    const ods = makeOdf('spreadsheet', sheet('A', [['a', 'b']]));
    const doctype = makeOdf('spreadsheet', '', undefined, {
      'content.xml': '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "boom">]><office:document-content xmlns:office="o" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:body><office:spreadsheet><table:table table:name="A"><table:table-row><table:table-cell><text:p>&e;</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>',
    });
    expect((await read(ods, 'a.ods', [1])).tables).toHaveLength(1);
    await expect(read(doctype, 'a.ods', [1])).rejects.toMatchObject({ code: 'refused_file' });
  });
});

describe('CSV row selection', () => {
  /** Lines of exactly 100 characters with the line break: 30 to a 3,000-character text page. */
  const line = (n: number) => `${n},${'x'.repeat(98 - String(n).length)}`;

  it('reads the rows that start on the selected text pages, never cutting a row', async () => {
    // Rows 1-29 fill page 1 to character 2,900; row 30 is a quoted field with line breaks that starts on
    // page 1 and ends on page 2, so it belongs to page 1; page 2 starts with the next row.
    const long = `30,"${'y'.repeat(80)}\n${'y'.repeat(80)}\n${'y'.repeat(80)}"`;
    const rows = [...range(1, 29).map(line), long, ...range(31, 120).map(line)];
    const csv = new Uint8Array(Buffer.from(rows.join('\n') + '\n'));
    expect(countPages({ bytes: csv, filename: 'data.csv' })).toBe(5);

    const page1 = await read(csv, 'data.csv', [1]);
    expect(page1.content.split('\n').map((l) => l.split('\t')[0])).toEqual(range(1, 30).map(String));
    expect(page1.content.split('\n').at(-1)).toBe(`30\t${['y', 'y', 'y'].map((y) => y.repeat(80)).join(' ')}`);
    const page2 = await read(csv, 'data.csv', [2]);
    expect(page2.content.split('\n')[0]).toBe(`31\t${'x'.repeat(96)}`);
    expect(page2.metadata).toMatchObject({ pages: 1, pages_total: 5, page_unit: 'text_page' });
    // The table of a later page keeps the file's header row; its content does not repeat it.
    expect(page2.tables[0]!.rows[0]).toEqual(['1', 'x'.repeat(97)]);
    expect(page2.tables[0]!.rows[1]![0]).toBe('31');
    expect(page2.content).not.toMatch(/^1\t/m);
  });

  it('merges row ranges into one table with its header once, the content and table of a whole read', async () => {
    const rows = ['id;name;note', ...range(1, 800).map((n) => `${n};item ${n};"line one\nline two; with ""quotes"""`)];
    const csv = new Uint8Array(Buffer.from(rows.join('\r\n')));
    const pages = countPages({ bytes: csv, filename: 'data.csv' });
    expect(pages).toBeGreaterThan(8);
    const chunks: [number, number][] = [[1, 3], [4, 7], [8, pages]];
    for (const config of [DEFAULT_CONFIG, markdown]) {
      const whole = await read(csv, 'data.csv', null, config);
      const merged = await inChunks(csv, 'data.csv', chunks, config);
      expect(merged.content).toBe(whole.content);
      expect(merged.tables).toEqual(whole.tables);
      expect(merged.tables[0]!.rows).toHaveLength(801);
      expect(merged.content.match(/id\s*\|?\s*name/g)).toHaveLength(1);
      expect(merged.metadata).toMatchObject({ format: 'csv', pages, pages_total: pages, failed_page_ranges: [] });
      // Chunk offsets point into the merged content.
      for (const chunk of merged.chunks) expect(merged.content.slice(chunk.char_start, chunk.char_end)).toBe(chunk.text);
    }
  });

  it('keeps the header when the chunk holding it failed, and reads TSV the same way', async () => {
    const tsv = new Uint8Array(Buffer.from(['a\tb', ...range(1, 200).map((n) => `${n}\t${'v'.repeat(40)}`)].join('\n')));
    const second = await read(tsv, 'data.tsv', [2, 3]);
    const merged = mergeParts([
      { first_page: 1, last_page: 1, ok: false, error: 'lost' },
      { first_page: 2, last_page: 3, ok: true, result: second },
    ], rulesOf('tsv'))!;
    expect(merged.tables[0]!.rows[0]).toEqual(['a', 'b']);
    expect(merged.metadata.failed_page_ranges).toEqual([{ first_page: 1, last_page: 1, error: 'lost' }]);
  });
});

describe('legacy XLS and PPT selection', () => {
  it('merges sheet ranges of an XLS into the whole workbook', async () => {
    const xls = makeXls(biff.sst(['Q1', 'Q2', 'Q3']), [1, 2, 3].map((n) => ({ name: `Sheet ${n}`, records: [biff.labelSst(0, 0, n - 1), biff.rk(1, 0, n * 10)] })));
    const whole = await read(xls, 'book.xls', null, markdown);
    const merged = await inChunks(xls, 'book.xls', [[1, 2], [3, 3]], markdown);
    expect(merged.content).toBe(whole.content);
    expect(merged.chunks).toEqual(whole.chunks);
    expect(merged.tables).toEqual(whole.tables);
    expect(countPages({ bytes: xls, filename: 'book.xls' })).toBe(3);
  });

  it('merges slide ranges of a PPT into the whole presentation', async () => {
    const ppt = makePpt([1, 2, 3, 4].map((n) => ({ title: `Slide ${n}`, body: `Point ${n}`, notes: `Note ${n}` })));
    const whole = await read(ppt, 'deck.ppt', null);
    const merged = await inChunks(ppt, 'deck.ppt', [[1, 3], [4, 4]]);
    expect(merged.content).toBe(whole.content);
    expect(merged.chunks).toEqual(whole.chunks);
    expect(whole.metadata.pages).toBe(4);
    expect(countPages({ bytes: ppt, filename: 'deck.ppt' })).toBe(4);
  });
});
