// Documents inserted into others as objects (containers/ole-objects.ts,
// engine/embedded.ts): Word 97-2003's ObjectPool and OOXML's embedded parts,
// built in code, and a Word-made document from Apache Tika's test files.

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/index.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { biff, biffWorkbook, makeCfb } from '../../support/cfb-fixture.ts';
import { makeDoc } from '../../support/doc-fixture.ts';
import { makeDocx, makePptx, makeXlsx, rels, w } from '../../support/office-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

/** An Object Packager stream ([MS-OLEDS] 2.3.6): a file inserted as an object, with its label and path. */
function packaged(name: string, data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data);
  const ansiz = (s: string) => Buffer.from(`${s}\0`, 'latin1');
  const temp = ansiz(`C:\\Temp\\${name}`);
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const body = Buffer.concat([Buffer.from([2, 0]), ansiz(name), ansiz(`C:\\Users\\ada\\${name}`), Buffer.from([0, 0, 3, 0]), u32(temp.length), temp, u32(bytes.length), bytes]);
  return Buffer.concat([u32(body.length), body]);
}

const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(28, 1)]);

describe('objects in a Word 97-2003 document', () => {
  const doc = makeDoc(
    { body: 'The survey report.\r' },
    {
      objects: [
        // Word names each object's storage for its id: numerically, 99 comes before 100.
        { name: '_100', children: [{ name: '\u0001Ole10Native', data: packaged('notes.txt', 'Packaged notes about the survey.') }] },
        { name: '_101', children: [{ name: 'CONTENTS', data: Buffer.from('{\\rtf1\\ansi An RTF object inserted in the report.\\par}') }] },
        { name: '_102', children: [{ name: '\u0001Ole10Native', data: packaged('chime.wav', WAV) }] },
        { name: '_99', children: [{ name: 'Package', data: makeDocx({ body: w.p('A Word document inserted first.') }) }] },
        // An Excel 97 workbook Word keeps as storages of its own: written out as a file and read as one.
        { name: '_103', children: [{ name: 'Workbook', data: biffWorkbook(biff.sst(['Wells', 'North']), [{ name: 'Counts', records: [biff.labelSst(0, 0, 0), biff.labelSst(1, 0, 1), biff.rk(1, 1, 42)] }]) }] },
        // A damaged one fails as that object alone.
        { name: '_105', children: [{ name: 'Workbook', data: Buffer.alloc(64) }] },
        // A workbook whose one sheet is empty says nothing but the sheet's name.
        { name: '_104', children: [{ name: 'Package', data: makeXlsx([{ name: 'Empty', rows: [] }]) }] },
      ],
    },
  );

  it('reads each inserted file after the text, as a section under its name, in the order Word numbered them', async () => {
    const result = await extract({ bytes: doc, filename: 'report.doc', config: markdown });
    expect(result.content).toBe(
      'The survey report.\n\n## Embedded: object 1\n\nA Word document inserted first.\n\n## Embedded: notes.txt\n\nPackaged notes about the survey.\n\n## Embedded: object 3\n\nAn RTF object inserted in the report.\n\n## Embedded: object 5\n\n## Counts\n\nWells\n\n| North | 42 |\n| --- | --- |',
    );
    // The sound and the empty sheet hold nothing to read: they are passed over, not failures.
    expect(result.metadata.failed_sections).toEqual([{ name: 'Embedded: object 7', error: expect.stringMatching(/Excel workbook could not be read/) }]);
    expect(result.metadata).toMatchObject({ format: 'doc', page_unit: 'text_page' });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => e.text)).toEqual(['Embedded: object 1', 'Embedded: notes.txt', 'Embedded: object 3', 'Embedded: object 5', 'Counts']);
  });

  it('reads the document alone when pages are selected', async () => {
    const result = await extract({ bytes: doc, filename: 'report.doc', config: { ...markdown, pages: [1] } });
    expect(result.content).toBe('The survey report.');
  });

  it('reads the packaged archive a Word-made document holds, to the nesting limit', async () => {
    // Apache Tika's test_recursive_embedded.doc (test/fixtures/README.md): a ZIP packaged into the document,
    // holding text files and ZIPs nested four deep.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/test_recursive_embedded.doc', import.meta.url)));
    const result = await extract({ bytes, filename: 'nested.doc', config: markdown });
    for (const text of ['embed_0', 'embed_1a', 'embed_1b', 'embed_2a', 'embed_2b']) expect(result.content).toContain(text);
    expect(result.content).toContain('## Embedded: embed1.zip');
    expect(result.metadata.failed_sections).toEqual([
      { name: 'Embedded: embed1.zip/embed1/embed2.zip/embed2/embed3.zip', error: expect.stringMatching(/nested more than 3 levels deep/) },
    ]);
  });
});

describe('objects in OOXML documents', () => {
  it("reads a DOCX's inserted objects, not the workbooks that hold its charts' data", async () => {
    const docx = makeDocx({
      body: w.p('Memo with an attachment.'),
      rels: [
        { id: 'rO', type: 'oleObject', target: 'embeddings/oleObject1.bin' },
        { id: 'rC', type: 'chart', target: 'charts/chart1.xml' },
      ],
      parts: {
        'word/embeddings/oleObject1.bin': makeCfb([{ name: '\u0001Ole10Native', data: packaged('memo.txt', 'Memo text inside the object.') }]),
        'word/charts/chart1.xml': '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"/>',
        'word/charts/_rels/chart1.xml.rels': rels([{ id: 'rP', type: 'package', target: '../embeddings/Microsoft_Excel_Worksheet.xlsx' }]),
        'word/embeddings/Microsoft_Excel_Worksheet.xlsx': makeXlsx([{ name: 'Data', rows: [['Chart data only']] }]),
      },
    });
    const result = await extract({ bytes: docx, filename: 'memo.docx', config: markdown });
    expect(result.content).toBe('Memo with an attachment.\n\n## Embedded: memo.txt\n\nMemo text inside the object.');
  });

  it("reads a slide's inserted workbook after the slides", async () => {
    const pptx = makePptx([{ title: 'Budget', rels: [{ id: 'rO', type: 'package', target: '../embeddings/Microsoft_Excel_Worksheet1.xlsx' }] }], {
      'ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx': makeXlsx([{ name: 'Costs', rows: [['Item', 'Cost'], ['Pumps', 1200]] }]),
    });
    const result = await extract({ bytes: pptx, filename: 'budget.pptx', config: markdown });
    expect(result.content).toBe('## Budget\n\n## Embedded: Microsoft_Excel_Worksheet1.xlsx\n\n## Costs\n\n| Item | Cost |\n| --- | --- |\n| Pumps | 1200 |');
    expect(result.metadata).toMatchObject({ page_unit: 'slide', pages: 2 });
  });
});

describe('objects in Excel and PowerPoint 97-2003 files', () => {
  it("reads a workbook's objects, each in its MBD storage", async () => {
    const xls = makeCfb([
      { name: 'Workbook', data: biffWorkbook(biff.sst(['Totals']), [{ name: 'Sheet1', records: [biff.labelSst(0, 0, 0)] }]) },
      { name: 'MBD00A1B2C3', children: [{ name: 'Package', data: makeDocx({ body: w.p('Terms inserted into the workbook.') }) }] },
    ]);
    const result = await extract({ bytes: xls, filename: 'book.xls', config: markdown });
    expect(result.content).toBe('## Sheet1\n\n| Totals |\n| --- |\n\n## Embedded: object 1\n\nTerms inserted into the workbook.');
  });

  it("reads a presentation's objects, inflated from their records", async () => {
    // Apache Tika's testPPT_oleWorkbook.ppt (test/fixtures/README.md): a slide with an Excel workbook inserted, stored compressed.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/testPPT_oleWorkbook.ppt', import.meta.url)));
    const result = await extract({ bytes, filename: 'ole.ppt', config: markdown });
    // Its first slide is empty, and keeps its place.
    expect(result.content).toBe('\n\n## MFL\n\n## Embedded: object 1\n\n## Sheet1\n\n| 1 | 5 | 9 |\n| --- | --- | --- |\n| 2 | 6 | 0 |\n| 3 | 7 | A |\n| 4 | 8 | B |');
  });
});
