// A sheet as a reader sees it: its tables apart, lone cells and title lines
// as paragraphs, merged cells repeated, comment threads with their authors,
// hidden sheets left out; the same for XLSX, XLS and ODS (and for ODT tables'
// spanning cells), on files built in code.

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { sheetsOutput, type Sheet } from '../../../lambdas/extract/engine/sheets.ts';
import { DEFAULT_CONFIG, type FormatOutput } from '../../../lambdas/extract/engine/types.ts';
import type { CellRange } from '../../../lambdas/extract/engine/merged-cells.ts';
import { extractXlsx } from '../../../lambdas/extract/formats/ooxml/xlsx.ts';
import { planSheetParts } from '../../../lambdas/extract/formats/ooxml/sheet-parts.ts';
import { extractOds, extractOdt } from '../../../lambdas/extract/formats/odf/odf.ts';
import { biff, biffRecord, makeXls } from '../../support/cfb-fixture.ts';
import { makeOdf, makeXlsx, rels, xmlEscape, XML } from '../../support/office-fixture.ts';

const markdown = { ...DEFAULT_CONFIG, output: 'markdown' as const };

/** A grid from rows of cells, '' for an empty cell. */
const grid = (lines: string[]) => lines.map((l) => l.split('|').map((c) => c.trim()));

/** One sheet written by the shared sheet writer, as Markdown. */
function sheetPage(rows: string[][], merges: CellRange[] = []): FormatOutput {
  return sheetsOutput([{ name: 'S', rows, merges }], 'markdown', {}, { names: ['S'], kept: [1], selected: false });
}

/** The blocks of a page after its heading: [type, text] with tables as their rows. */
function blocksOf(out: FormatOutput): Array<[string, string | string[][]]> {
  return (out.elements ?? [])
    .filter((e) => e.type !== 'heading')
    .map((e) => (e.type === 'table' ? ['table', out.tables![e.table!]!.rows] : [e.type, out.pages[e.page ?? 0]!.slice(e.start, e.end)]));
}

/** A worksheet of inline-string cells ("B2": "text"), with merged ranges. */
function sheetXml(cells: Record<string, string>, merges: string[] = []): string {
  const byRow = new Map<number, string[]>();
  for (const [ref, text] of Object.entries(cells)) {
    const row = Number(/\d+/.exec(ref)![0]);
    byRow.set(row, [...(byRow.get(row) ?? []), `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(text)}</t></is></c>`]);
  }
  const rows = [...byRow.entries()].sort((a, b) => a[0] - b[0]).map(([r, cs]) => `<row r="${r}">${cs.join('')}</row>`);
  const merged = merges.length > 0 ? `<mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>` : '';
  return XML + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData>${merged}</worksheet>`;
}

describe('a sheet cut into the blocks a reader sees', () => {
  it('writes tables apart where empty rows and columns separate them, in reading order: top to bottom, side by side left to right', () => {
    const out = sheetPage(
      grid([
        'Region | Sales |  |  | Item | Qty',
        'North | 10 |  |  | Pens | 4',
        'South | 20 |  |  |  | ',
        'East | 30 |  |  |  | ',
        ' |  |  |  |  | ',
        ' |  |  |  |  | ',
        ' | Code | Name |  |  | ',
        ' | K-1 | Kiln |  |  | ',
      ]),
    );
    expect(blocksOf(out)).toEqual([
      ['table', [['Region', 'Sales'], ['North', '10'], ['South', '20'], ['East', '30']]],
      ['table', [['Item', 'Qty'], ['Pens', '4']]],
      ['table', [['Code', 'Name'], ['K-1', 'Kiln']]],
    ]);
    expect(out.tables!.map((t) => t.sheet)).toEqual(['S', 'S', 'S']);
  });

  it('writes a lone cell as the one-cell table it is, and cells touching only at a corner as blocks of their own', () => {
    const out = sheetPage(grid(['Python is great | ', ' | Machine learning', ' | ', 'Note: figures in EUR | ']));
    expect(blocksOf(out)).toEqual([
      ['table', [['Python is great']]],
      ['table', [['Machine learning']]],
      ['table', [['Note: figures in EUR']]],
    ]);
    expect(out.tables!.map((t) => t.rows)).toEqual([[['Python is great']], [['Machine learning']], [['Note: figures in EUR']]]);
  });

  it('writes a title line over a wider table, a cell or a merged row at its left edge, as a paragraph before it', () => {
    const out = sheetPage(grid(['Reading List |  | ', 'Catalogue 2024 |  | ', '# | Title | Author', '1 | Emma | Austen']));
    expect(blocksOf(out)).toEqual([
      ['paragraph', 'Reading List'],
      ['paragraph', 'Catalogue 2024'],
      ['table', [['#', 'Title', 'Author'], ['1', 'Emma', 'Austen']]],
    ]);
    const merged = sheetPage(grid(['Reading List |  | ', '# | Title | Author', '1 | Emma | Austen']), [{ top: 0, left: 0, bottom: 0, right: 2 }]);
    expect(blocksOf(merged)).toEqual([
      ['paragraph', 'Reading List'],
      ['table', [['#', 'Title', 'Author'], ['1', 'Emma', 'Austen']]],
    ]);
  });

  it('keeps a column of one value a row as a one-column table, and rows of labels merged across the sheet as lines of text', () => {
    expect(blocksOf(sheetPage(grid(['Names', 'Ann', 'Bo'])))).toEqual([['table', [['Names'], ['Ann'], ['Bo']]]]);
    const banners = sheetPage(grid(['Source |  | ', 'http://example.com/a.xls |  | ']), [
      { top: 0, left: 0, bottom: 0, right: 2 },
      { top: 1, left: 0, bottom: 1, right: 2 },
    ]);
    expect(blocksOf(banners)).toEqual([
      ['paragraph', 'Source'],
      ['paragraph', 'http://example.com/a.xls'],
    ]);
  });

  it('keeps a table whole across its empty spacer columns when the blocks either side run down the same rows, and drops the empty columns', () => {
    const out = sheetPage(
      grid([
        'Topic | Period |  |  | Page',
        'Revenue | FY 23 |  |  | 1',
        'Customers | FY 23 |  |  | 6',
        'Churn | Q2 |  |  | 11',
      ]),
    );
    expect(blocksOf(out)).toEqual([
      [
        'table',
        [
          ['Topic', 'Period', 'Page'],
          ['Revenue', 'FY 23', '1'],
          ['Customers', 'FY 23', '6'],
          ['Churn', 'Q2', '11'],
        ],
      ],
    ]);
  });

  it('cuts at an empty column between blocks that start or end on other rows', () => {
    const out = sheetPage(grid(['a | b |  | ', 'c | d |  | ', 'e | f |  | x', ' |  |  | y', ' |  |  | z']));
    expect(blocksOf(out)).toEqual([
      ['table', [['a', 'b'], ['c', 'd'], ['e', 'f']]],
      ['table', [['x'], ['y'], ['z']]],
    ]);
  });

  it('keeps a blank row inside a table when the rows under it are figures of the same columns (a header over its figures, a long list), not a wider gap', () => {
    const out = sheetPage(
      grid([
        'In CHF |  | 2023',
        ' | Sales | Profit',
        ' |  | ',
        'Zone NA | 12,553 | (81)',
        'Zone EUR | 9,467 | (197)',
        ' |  | ',
        'Total | 22,020 | (278)',
        ' |  | ',
        ' |  | ',
        '2024 | 9 | 10',
      ]),
    );
    expect(blocksOf(out)).toEqual([
      [
        'table',
        [
          ['In CHF', '', '2023'],
          ['', 'Sales', 'Profit'],
          ['Zone NA', '12,553', '(81)'],
          ['Zone EUR', '9,467', '(197)'],
          ['Total', '22,020', '(278)'],
        ],
      ],
      ['table', [['2024', '9', '10']]],
    ]);
  });

  it('cuts at a blank row under which a new table starts with its own header, and at a wider gap', () => {
    const out = sheetPage(grid(['Item | Qty', 'Pens | 4', ' | ', 'Name | Role', 'Ann | Lead', ' | ', ' | ', '5 | 6', '7 | 8']));
    expect(blocksOf(out)).toEqual([
      ['table', [['Item', 'Qty'], ['Pens', '4']]],
      ['table', [['Name', 'Role'], ['Ann', 'Lead']]],
      ['table', [['5', '6'], ['7', '8']]],
    ]);
  });

  it("takes a table's stray cell in with it, though its neighbours are all empty, where a cell off its corner is apart", () => {
    const out = sheetPage(grid(['Task | Mon | Tue | Wed | ', 'Dig |  |  |  | ', 'Plant |  | x |  | ', 'Water |  |  |  | ', ' |  |  |  | Done by Friday']));
    expect(blocksOf(out)).toEqual([
      ['table', [['Task', 'Mon', 'Tue', 'Wed'], ['Dig', '', '', ''], ['Plant', '', 'x', ''], ['Water', '', '', '']]],
      ['table', [['Done by Friday']]],
    ]);
  });

  it("repeats a merged cell's value over the cells it covers, and writes no row that only continues cells merged down into it", () => {
    const out = sheetPage(grid(['Region | Month | Units', 'North | Jan | 5', ' | Feb | 6', 'South | Jan | 7', ' |  | ']), [
      { top: 1, left: 0, bottom: 2, right: 0 },
      { top: 3, left: 0, bottom: 4, right: 2 },
    ]);
    expect(blocksOf(out)).toEqual([
      [
        'table',
        [
          ['Region', 'Month', 'Units'],
          ['North', 'Jan', '5'],
          ['North', 'Feb', '6'],
          ['South', 'South', 'South'],
        ],
      ],
    ]);
  });

  it('refuses a merge over more cells than a workbook may hold', () => {
    const rows: string[][] = [['a'], ...Array.from({ length: 199 }, () => [] as string[]), ['b']];
    expect(() => sheetPage(rows, [{ top: 0, left: 0, bottom: 200, right: 16383 }])).toThrow(expect.objectContaining({ code: 'too_many_pages' }));
  });

  it('writes nothing for a hidden sheet, which still counts as a page and is still named', () => {
    const sheets: Sheet[] = [
      { name: 'Shown', rows: grid(['a | b']) },
      { name: 'Secret', hidden: true, rows: grid(['c | d']), comments: [{ ref: 'A1', text: 'note' }] },
    ];
    const out = sheetsOutput(sheets, 'markdown', {}, { names: ['Shown', 'Secret'], kept: [1, 2], selected: false });
    expect(out.pages).toEqual(['## Shown\n\n| a | b |\n| --- | --- |', '']);
    expect(out.tables).toHaveLength(1);
    expect(out.metadata.sheets).toEqual(['Shown', 'Secret']);
  });
});

describe('XLSX sheets', () => {
  const book = (sheetXmls: string[], workbookSheets?: string, extra: Record<string, string> = {}) =>
    makeXlsx(
      sheetXmls.map((_, i) => ({ name: `S${i + 1}`, rows: [] })),
      {
        ...Object.fromEntries(sheetXmls.map((x, i) => [`xl/worksheets/sheet${i + 1}.xml`, x])),
        ...(workbookSheets
          ? {
              'xl/workbook.xml':
                XML +
                `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${workbookSheets}</sheets></workbook>`,
            }
          : {}),
        ...extra,
      },
    );

  it('reads mergeCells: a merged title row as a paragraph, a merged label repeated down its rows', () => {
    const xlsx = book([
      sheetXml({ A1: 'Fleet', A2: 'Depot', B2: 'Van', C2: 'Trips', A3: 'Leeds', B3: 'V1', C3: '4', B4: 'V2', C4: '7' }, ['A1:C1', 'A3:A4']),
    ]);
    const out = extractXlsx(xlsx, 'markdown');
    expect(out.pages[0]).toBe('## S1\n\nFleet\n\n| Depot | Van | Trips |\n| --- | --- | --- |\n| Leeds | V1 | 4 |\n| Leeds | V2 | 7 |');
    expect(out.tables![0]!.sheet).toBe('S1');
  });

  it('leaves out the content of hidden and very hidden sheets, keeping them as pages named in metadata.sheets', async () => {
    const xlsx = book(
      [sheetXml({ A1: 'seen', B1: 'too' }), sheetXml({ A1: 'hidden', B1: 'cells' }), sheetXml({ A1: 'very', B1: 'hidden' })],
      '<sheet name="Open" sheetId="1" r:id="rS1"/><sheet name="Back" sheetId="2" state="hidden" r:id="rS2"/><sheet name="Vault" sheetId="3" state="veryHidden" r:id="rS3"/>',
    );
    const result = await extract({ bytes: xlsx, filename: 'book.xlsx', config: markdown });
    expect(result.content.trim()).toBe('## Open\n\n| seen | too |\n| --- | --- |');
    expect(result.tables.map((t) => t.sheet)).toEqual(['Open']);
    expect(result.elements!.map((e) => e.text)).toEqual(['Open', 'seen\ttoo']);
    expect(result.metadata).toMatchObject({ pages: 3, sheets: ['Open', 'Back', 'Vault'] });
  });

  it('writes nothing for a hidden sheet read in runs of its rows either', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [`item ${i}`, i]);
    const xlsx = makeXlsx([{ name: 'Log', rows }], {
      'xl/workbook.xml':
        XML +
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Log" sheetId="1" state="hidden" r:id="rS1"/></sheets></workbook>',
    });
    const parts = (await planSheetParts(xlsx, null, { part: { cells: 20, text: 1e9 } }))[0]!.parts!;
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      const result = await extract({ bytes: xlsx, filename: 'log.xlsx', config: { ...markdown, pages: [1] }, pagePart: part });
      expect([result.content, result.tables]).toEqual(['', []]);
    }
  });

  it("reads a comment thread (the comment, then each reply, by its person's display name) in place of the note Excel writes for older versions, and a plain note with its author", () => {
    const placeholder =
      '[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n    Too low?\nReply:\n    No';
    const comments =
      XML +
      '<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>John Reviewer</author><author>tc={T1}</author></authors><commentList>' +
      '<comment ref="A1" authorId="0"><text><r><rPr><b/></rPr><t>John Reviewer:</t></r><r><t xml:space="preserve">\nWhy this year?</t></r></text></comment>' +
      `<comment ref="B2" authorId="1"><text><t>${xmlEscape(placeholder)}</t></text></comment></commentList></comments>`;
    const threads =
      XML +
      '<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">' +
      '<threadedComment ref="B2" dT="2026-06-18T17:12:37.41" personId="{P1}" id="{T1}"><text>Too low?</text></threadedComment>' +
      '<threadedComment ref="B2" dT="2026-06-18T17:15:52.31" personId="{P2}" id="{T2}" parentId="{T1}"><text>No, it is right</text></threadedComment></ThreadedComments>';
    const persons =
      XML +
      '<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"><person displayName="Jane Smith" id="{P1}" userId="js" providerId="None"/><person displayName="Marcus Sterling" id="{P2}" userId="ms" providerId="None"/></personList>';
    const xlsx = makeXlsx([{ name: 'Ducks', rows: [['Year', 'Count'], [2024, 180]] }], {
      'xl/_rels/workbook.xml.rels': rels([
        { id: 'rS1', type: 'worksheet', target: 'worksheets/sheet1.xml' },
        { id: 'rSST', type: 'sharedStrings', target: 'sharedStrings.xml' },
        { id: 'rStyles', type: 'styles', target: 'styles.xml' },
        { id: 'rP', type: 'person', target: 'persons/person.xml' },
      ]),
      'xl/worksheets/_rels/sheet1.xml.rels': rels([
        { id: 'rK', type: 'comments', target: '../comments1.xml' },
        { id: 'rT', type: 'threadedComment', target: '../threadedComments/threadedComment1.xml' },
      ]),
      'xl/comments1.xml': comments,
      'xl/threadedComments/threadedComment1.xml': threads,
      'xl/persons/person.xml': persons,
    });
    const out = extractXlsx(xlsx, 'markdown');
    expect(blocksOf(out).filter(([type]) => type === 'paragraph')).toEqual([
      ['paragraph', 'A1 (John Reviewer): Why this year?'],
      ['paragraph', 'B2 (Jane Smith): Too low?'],
      ['paragraph', 'B2 (reply by Marcus Sterling): No, it is right'],
    ]);
    expect(out.pages[0]).not.toContain('Threaded comment');
  });
});

describe('ODS sheets', () => {
  const NS =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';
  const cell = (t: string, attrs = '') => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;

  it('repeats a cell spanning columns and rows over the covered cells, and reads a comment with its author', () => {
    const sheet =
      '<table:table table:name="Plan">' +
      row(cell('Q1 plan', ' table:number-columns-spanned="2"'), '<table:covered-table-cell/>') +
      row(cell('Team'), cell('Task')) +
      row(cell('Ops', ' table:number-rows-spanned="2"'), `<table:table-cell><office:annotation><dc:creator>Bo</dc:creator><text:p>Due in March</text:p></office:annotation><text:p>Audit</text:p></table:table-cell>`) +
      row('<table:covered-table-cell/>', cell('Hiring')) +
      '</table:table>';
    const out = extractOds(makeOdf('spreadsheet', sheet), 'markdown');
    expect(out.pages[0]).toBe('## Plan\n\nQ1 plan\n\n| Team | Task |\n| --- | --- |\n| Ops | Audit |\n| Ops | Hiring |\n\nB3 (Bo): Due in March');
  });

  it('leaves out a sheet whose table style hides it, and tells one blank row from a run of repeated empty rows', () => {
    const content =
      XML +
      `<office:document-content ${NS}><office:automatic-styles><style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style>` +
      '<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style></office:automatic-styles><office:body><office:spreadsheet>' +
      `<table:table table:name="Open" table:style-name="ta1">${row(cell('Item'), cell('Qty'))}${row(cell('Pens'), cell('4'))}<table:table-row table:number-rows-repeated="1"><table:table-cell table:number-columns-repeated="2"/></table:table-row>${row(cell('Ink'), cell('5'))}` +
      `<table:table-row table:number-rows-repeated="40"><table:table-cell table:number-columns-repeated="2"/></table:table-row>${row(cell('Glue'), cell('6'))}</table:table>` +
      `<table:table table:name="Back" table:style-name="ta2">${row(cell('secret'), cell('cells'))}</table:table>` +
      '</office:spreadsheet></office:body></office:document-content>';
    const out = extractOds(makeOdf('spreadsheet', '', undefined, { 'content.xml': content }), 'markdown');
    expect(out.pages).toEqual(['## Open\n\n| Item | Qty |\n| --- | --- |\n| Pens | 4 |\n| Ink | 5 |\n\n| Glue | 6 |\n| --- | --- |', '']);
    expect(out.metadata.sheets).toEqual(['Open', 'Back']);
  });
});

describe('XLS sheets', () => {
  const mergedCells = (ranges: Array<[number, number, number, number]>) =>
    biffRecord(0x00e5, Buffer.concat([Buffer.from(new Uint16Array([ranges.length]).buffer), ...ranges.map((r) => Buffer.from(new Uint16Array(r).buffer))]));

  it('reads MERGEDCELLS as merged cells, leaves a hidden sheet out, and writes a note by its author without the name Excel puts before it', async () => {
    const xls = makeXls(biff.sst(['Fleet', 'Depot', 'Van', 'Leeds', 'V1', 'V2']), [
      {
        name: 'Vans',
        records: [
          biff.labelSst(0, 0, 0),
          biff.labelSst(1, 0, 1),
          biff.labelSst(1, 1, 2),
          biff.labelSst(2, 0, 3),
          biff.labelSst(2, 1, 4),
          biff.labelSst(3, 1, 5),
          // Rows 0-0 and columns 0-1; rows 2-3 of column 0.
          mergedCells([
            [0, 0, 0, 1],
            [2, 3, 0, 0],
          ]),
          biff.obj(0x19, 1),
          ...biff.txo('Ada:\nServiced in May'),
          biff.note(2, 1, 1, 'Ada'),
        ],
      },
      { name: 'Old', hidden: true, records: [biff.labelSst(0, 0, 0), biff.labelSst(0, 1, 1)] },
    ]);
    const result = await extract({ bytes: xls, filename: 'fleet.xls', config: markdown });
    expect(result.content.trim()).toBe('## Vans\n\nFleet\n\n| Depot | Van |\n| --- | --- |\n| Leeds | V1 |\n| Leeds | V2 |\n\nB3 (Ada): Serviced in May');
    expect(result.metadata).toMatchObject({ pages: 2, sheets: ['Vans', 'Old'] });
  });
});

describe('ODT tables', () => {
  it("repeats a spanning cell's text over the cells it covers, and reads a table nested in a cell as the cell's text", () => {
    const body =
      '<table:table table:name="T">' +
      '<table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Both</text:p></table:table-cell><table:covered-table-cell/><table:table-cell><text:p>C</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell table:number-rows-spanned="2"><text:p>Tall</text:p></table:table-cell><table:table-cell><text:p>b</text:p></table:table-cell>' +
      '<table:table-cell><table:table><table:table-row><table:table-cell><text:p>x</text:p></table:table-cell><table:table-cell><text:p>y</text:p></table:table-cell></table:table-row></table:table></table:table-cell></table:table-row>' +
      '<table:table-row><table:covered-table-cell/><table:table-cell><text:p>d</text:p></table:table-cell><table:table-cell><text:p>e</text:p></table:table-cell></table:table-row>' +
      '</table:table>';
    const out = extractOdt(makeOdf('text', body), 'markdown');
    expect(out.tables![0]!.rows).toEqual([
      ['Both', 'Both', 'C'],
      ['Tall', 'b', 'x y'],
      ['Tall', 'd', 'e'],
    ]);
  });
});
