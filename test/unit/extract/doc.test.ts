// Word 97-2003 (.doc): our reader of the binary format (doc-text.ts) on the
// compound-file reader, on documents built in code (doc-fixture.ts).

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/index.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { DELETED_END, DELETED_START, makeDoc, ROW_END } from '../../support/doc-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

describe('DOC', () => {
  it('writes headers and footers once as page furniture, notes as footnotes, rows of cells as a table, typed bullets as list items', async () => {
    const bytes = makeDoc({
      body: `Intro line.\rName\x07Qty\x07${ROW_END}Tea\x072\x07${ROW_END}Coffee\x075\x07${ROW_END}• first point\rClosing words.\r`,
      // Two sections, the second repeating the first's header; a footer that is only a page number is no footer.
      headers: ['', 'Company memo\r', '', 'Confidential\r', '', '3\r', '', 'Company memo\r', '', '', '', ''],
      textboxes: 'Boxed\r',
      footnotes: '\x02A footnote.',
      endnotes: '\x02An endnote.',
    });
    const result = await extract({ bytes, filename: 'memo.doc', config: markdown });
    expect(result.metadata.format).toBe('doc');
    expect((result.elements ?? []).map((e) => [e.type, e.text])).toEqual([
      ['page_header', 'Company memo'],
      ['paragraph', 'Intro line.'],
      ['table', 'Name\tQty\nTea\t2\nCoffee\t5'],
      ['list_item', 'first point'],
      ['paragraph', 'Closing words.'],
      ['paragraph', 'Boxed'],
      ['footnote', 'A footnote.'],
      ['footnote', 'An endnote.'],
      ['page_footer', 'Confidential'],
    ]);
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Name', 'Qty'],
        ['Tea', '2'],
        ['Coffee', '5'],
      ],
    ]);
    expect(result.content).toBe('Intro line.\n\n| Name | Qty |\n| --- | --- |\n| Tea | 2 |\n| Coffee | 5 |\n\n- first point\n\nClosing words.\n\nBoxed\n\nA footnote.\n\nAn endnote.');
  });

  it('reads 8-bit pieces as Windows-1252 and UTF-16 pieces as written, typographic characters kept', async () => {
    const bytes = makeDoc({ body: 'Price: 5 € – “quoted”.\rΕλληνικά ✓ and 😀 beyond the BMP.\rSoft\x1fhyphen, non\x1ebreaking.\r' });
    const result = await extract({ bytes, filename: 'text.doc' });
    expect(result.content).toBe('Price: 5 € – “quoted”.\n\nΕλληνικά ✓ and 😀 beyond the BMP.\n\nSofthyphen, non\u2011breaking.');
  });

  it('shows a field by its result only, nested fields too, and leaves out tracked deletions and comment anchors', async () => {
    const bytes = makeDoc({
      body: `Page \x13 PAGE \x14 7\x15 of \x13 NUMPAGES \x15done.\rSee \x13 IF \x13 DATE \x14x\x15 = 1 \x14the outer result\x15.\rKeep ${DELETED_START}this was deleted, ${DELETED_END}the rest.\x05\r`,
      annotations: '\x05A comment.',
    });
    const result = await extract({ bytes, filename: 'fields.doc' });
    expect(result.content).toBe('Page  7 of done.\n\nSee the outer result.\n\nKeep the rest.\n\nA comment.');
  });

  it('fails a damaged document clearly, saying what to do', async () => {
    const cut = makeDoc({ body: 'Some text.\r' }, { clx: Buffer.from([0x02, 0xff, 0xff, 0x00, 0x00]) });
    await expect(extract({ bytes: cut, filename: 'cut.doc' })).rejects.toMatchObject({
      code: 'corrupt_file',
      message: expect.stringMatching(/^The Word document could not be read: the file is truncated or damaged \(its piece table is damaged\)\. Upload the complete file, or open it in Office and save it again\.$/),
    });
    // A piece pointing past the end of the WordDocument stream.
    const plc = Buffer.alloc(16);
    plc.writeUInt32LE(1_000_000, 4);
    const past = makeDoc({ body: 'Some text.\r' }, { clx: Buffer.concat([Buffer.from([0x02, 16, 0, 0, 0]), plc]) });
    await expect(extract({ bytes: past, filename: 'past.doc' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/WordDocument stream ends before the data it points to/) });
  });

  it('refuses text the piece table repeats, rather than multiplying it', async () => {
    const n = 200;
    const plc = Buffer.alloc(4 * (n + 1) + 8 * n);
    for (let i = 0; i <= n; i++) plc.writeUInt32LE(i * 900, 4 * i);
    // Every piece is the same 900 bytes of the stream.
    for (let i = 0; i < n; i++) plc.writeUInt32LE(((1024 * 2) | 0x40000000) >>> 0, 4 * (n + 1) + 8 * i + 2);
    const clx = Buffer.concat([Buffer.from([0x02]), Buffer.from(new Uint32Array([plc.length]).buffer), plc]);
    const bytes = makeDoc({ body: `${'x'.repeat(900)}\r` }, { clx });
    await expect(extract({ bytes, filename: 'forged.doc' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/piece table repeats text/) });
  });

  it('fails a password-protected document as encrypted and a Word 95 one as unsupported', async () => {
    await expect(extract({ bytes: makeDoc({ body: 'x\r' }, { encrypted: true }), filename: 'locked.doc' })).rejects.toMatchObject({
      code: 'encrypted_file',
      message: 'The Word document is password-protected; remove the password and resubmit.',
    });
    await expect(extract({ bytes: makeDoc({ body: 'x\r' }, { nFib: 104 }), filename: 'old.doc' })).rejects.toMatchObject({
      code: 'unsupported_format',
      message: expect.stringMatching(/Word 6\.0\/95 format.*save it as \.docx/),
    });
  });
});
