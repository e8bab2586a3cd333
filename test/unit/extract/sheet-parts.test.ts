import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { mergeParts, mergeRulesOf, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { mergedJson, planMerge } from '../../../lambdas/extract/engine/merge-stream.ts';
import type { PlannedPage } from '../../../lambdas/extract/engine/page-parts.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { DEFAULT_CONFIG, type ExtractionConfig, type ExtractionResult } from '../../../lambdas/extract/engine/types.ts';
import { planSheetParts } from '../../../lambdas/extract/formats/ooxml/sheet-parts.ts';
import { resultJson } from '../../../lambdas/core/job-result.ts';
import { partSource } from '../../support/part-source.ts';
import { makeXlsx, type XlsxCell } from '../../../test/support/office-fixture.ts';

// A sheet too large for one chunk is read as runs of its rows. Each run is
// read as its share of the page, and the merge puts the runs together into
// what a whole read of the workbook gives.

const config = (over: Partial<ExtractionConfig> = {}): ExtractionConfig => ({ ...DEFAULT_CONFIG, ...over });

/** Every planned part of `planned` extracted as a chunk does, in order, as the merge's parts. */
async function partsOf(bytes: Uint8Array, planned: PlannedPage[], cfg: ExtractionConfig): Promise<Part[]> {
  const parts: Part[] = [];
  for (const page of planned) {
    for (const part of page.parts ?? [null]) {
      const result = await extract({ bytes, filename: 'book.xlsx', config: { ...cfg, pages: [page.page] }, ...(part ? { pagePart: part } : {}) });
      parts.push({ first_page: page.page, last_page: page.page, ok: true, result, ...(part ? { pagePart: { first: part.first, continues: part.continues } } : {}) });
    }
  }
  return parts;
}

async function streamedMerge(parts: Part[]): Promise<ExtractionResult> {
  const source = partSource(parts);
  const plan = (await planMerge(source, mergeRulesOf(splitOf('xlsx')!), null))!;
  let json = '';
  for await (const piece of mergedJson(source, plan, 256)) json += piece;
  return JSON.parse(json) as ExtractionResult;
}

/** What a split read must equal in a whole read: everything but the chunks, which each part cuts on its own. */
const comparable = (r: ExtractionResult) => ({ content: r.content, tables: r.tables, elements: r.elements, pages: r.metadata.pages, sheets: r.metadata.sheets, words: r.metadata.word_count, chars: r.metadata.char_count });

async function expectWholeRead(bytes: Uint8Array, cellsPerPart: number, cfg = config(), textPerPart = 1e9): Promise<PlannedPage[]> {
  const planned = await planSheetParts(bytes, null, { part: { cells: cellsPerPart, text: textPerPart } });
  const parts = await partsOf(bytes, planned, cfg);
  const whole = await extract({ bytes, filename: 'book.xlsx', config: cfg });
  const merged = mergeParts(structuredClone(parts), mergeRulesOf(splitOf('xlsx')!))!;
  expect(comparable(merged)).toEqual(comparable(whole));
  // The streamed merge (aggregation) writes what the merge in memory builds.
  expect(await streamedMerge(parts)).toEqual(JSON.parse(Buffer.from(resultJson(merged)).toString()));
  return planned;
}

const rows = (n: number, from = 1): XlsxCell[][] => Array.from({ length: n }, (_, i) => [null, `item ${from + i}`, from + i, (from + i) % 4 === 0 ? `note ${from + i}` : null]);

/** A sheet's XML in place of makeXlsx's, for markup it does not write (prefixes, rows without references). */
const sheetXml = (body: string, prefix = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><${prefix}worksheet xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><${prefix}sheetData>${body}</${prefix}sheetData></${prefix}worksheet>`;

describe('a large sheet read in runs of its rows', () => {
  it('plans parts only for the sheets over the budget, cut at row starts, each knowing the table it belongs to', async () => {
    const book = makeXlsx([
      { name: 'Small', rows: [['a', 'b']] },
      { name: 'Large', rows: [[null, 'Item', 'Qty', 'Note'], ...rows(30)] },
    ]);
    const planned = await planSheetParts(book, null, { part: { cells: 20, text: 1e9 } });
    expect(planned[0]).toEqual({ page: 1, cells: 2, parts: null });
    const parts = planned[1]!.parts!;
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.map((p) => [p.first, p.last, p.continues])).toEqual(parts.map((_, i) => [i === 0, i === parts.length - 1, i > 0]));
    // The table starts at column B (the first column with text) and is three wide; each later part repeats the header row.
    for (const p of parts) expect(p.at).toMatchObject({ kind: 'sheet-rows', column: 1, width: 3 });
    for (const [i, p] of parts.entries()) if (i > 0) expect(p.at.header).toEqual(parts[1]!.at.header);
    expect(parts.map((p) => p.at.end)).toEqual([...parts.slice(1).map((p) => p.at.start), parts.at(-1)!.at.end]);
  });

  it('merges the runs into what a whole read gives, in Markdown and in text, with and without elements', async () => {
    const book = makeXlsx([
      { name: 'First', rows: [['x', 'y'], ['1', '2']] },
      { name: 'Large', rows: [[null, 'Item', 'Qty', 'Note'], ...rows(45), [null, 'wider', 1, 'row', 'at the end']] },
      { name: 'Last', rows: [['z']] },
    ]);
    const planned = await expectWholeRead(book, 25);
    expect(planned[1]!.parts!.length).toBeGreaterThan(3);
    await expectWholeRead(book, 25, config({ output: 'text' }));
    await expectWholeRead(book, 25, config({ elements: false }));
  });

  it('finds the header in a later part when the rows before it hold only empty cells', async () => {
    const empty = Array.from({ length: 40 }, (_, r) => `<row r="${r + 1}">${['A', 'B', 'C'].map((c) => `<c r="${c}${r + 1}" s="0"/>`).join('')}</row>`).join('');
    const data = Array.from({ length: 20 }, (_, i) => `<row r="${41 + i}"><c r="C${41 + i}" t="inlineStr"><is><t>cell ${i}</t></is></c><c r="D${41 + i}"><v>${i}</v></c></row>`).join('');
    const book = makeXlsx([{ name: 'Sparse', rows: [] }], { 'xl/worksheets/sheet1.xml': sheetXml(empty + data) });
    const planned = await expectWholeRead(book, 30);
    const parts = planned[0]!.parts!;
    // The first part holds empty cells only: the part that finds the header starts the table, and only the parts after it continue it.
    expect(parts[0]!.continues).toBe(false);
    expect(parts.some((p) => p.continues)).toBe(true);
    expect(parts[0]!.at).toMatchObject({ column: 2, width: 2 });
  });

  it('reads prefixed markup and rows and cells without references, and cell text split anywhere by inflation', async () => {
    // Several times the 64 kB the sheet inflates in, a cell of 200 kB among them.
    const long = 'long text '.repeat(20_000);
    const body = Array.from({ length: 3000 }, (_, i) => `<x:row><x:c t="inlineStr"><x:is><x:t>${i === 1500 ? long : `r${i} &amp; é`}</x:t></x:is></x:c><x:c><x:v>${i}</x:v></x:c></x:row>`).join('');
    expect(body.length).toBeGreaterThan(5 * 65_536);
    const book = makeXlsx([{ name: 'Prefixed', rows: [] }], { 'xl/worksheets/sheet1.xml': sheetXml(body, 'x:') });
    const planned = await expectWholeRead(book, 700);
    expect(planned[0]!.parts!.length).toBe(9);
  });

  it('cuts a sheet of long text by its text, where its cells are few, counting the shared strings its cells point to', async () => {
    const long = (i: number) => `${'a long note '.repeat(40)}${i}`;
    const inline = Array.from({ length: 300 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${long(i)}</t></is></c></row>`).join('');
    const byText = await planSheetParts(makeXlsx([{ name: 'S', rows: [] }], { 'xl/worksheets/sheet1.xml': sheetXml(inline) }), null, { part: { cells: 1000, text: 30_000 } });
    // 300 cells of about 500 characters: about 150 kB of text, five parts of 30 kB.
    expect(byText[0]!.parts!.length).toBe(6);
    const shared = makeXlsx([{ name: 'S', rows: Array.from({ length: 300 }, (_, i) => [long(i)]) }]);
    const bySharedText = await planSheetParts(shared, null, { part: { cells: 1000, text: 30_000 } });
    expect(bySharedText[0]!.parts!.length).toBeGreaterThanOrEqual(5);
    await expectWholeRead(shared, 1000, config(), 30_000);
  });

  it('refuses a workbook over the cell cap when planning, counting cells with text as a whole read does', async () => {
    const book = (blank: number) => makeXlsx([{ name: 'S', rows: Array.from({ length: 30 }, (_, r) => Array.from({ length: 5 }, (_, c) => (r * 5 + c < blank ? '' : `v${r}.${c}`))) }]);
    // 150 cells with text against a cap of 100.
    await expect(planSheetParts(book(0), null, { part: { cells: 40, text: 1e9 }, maxCells: 100 })).rejects.toMatchObject({ code: 'too_many_pages', message: expect.stringMatching(/more than .* cells/) });
    // 150 cells with a value, 60 of them empty strings: 90 with text, under the cap.
    const planned = await planSheetParts(book(60), null, { part: { cells: 40, text: 1e9 }, maxCells: 100 });
    expect(planned[0]!.parts!.length).toBeGreaterThan(1);
  });

  it('reads only the selected sheets, and a sheet with no rows as a page of its name', async () => {
    const book = makeXlsx([
      { name: 'One', rows: rows(40) },
      { name: 'Empty', rows: [] },
      { name: 'Three', rows: rows(40) },
    ]);
    const planned = await planSheetParts(book, [2, 3], { part: { cells: 30, text: 1e9 } });
    expect(planned.map((p) => [p.page, p.parts === null])).toEqual([
      [2, true],
      [3, false],
    ]);
    await expectWholeRead(book, 30);
  });
});
