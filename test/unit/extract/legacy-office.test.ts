// XLS and PPT (Office 97-2003): our own readers of the compound file and the
// BIFF8 and PowerPoint records inside it, on files built in code.

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { biff, biffRecord, makeCfb, makePpt, makeXls } from '../../support/cfb-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

/** XF 16, the first after the 16 default ones the fixture writes, shows dates as yyyy-mm-dd. */
const DATE_XF = 16;
const dateFormat = [biff.format(164, 'yyyy-mm-dd'), biff.xf(164)];

const cut = (bytes: Uint8Array, share = 0.6) => bytes.slice(0, Math.floor(bytes.length * share));

describe('XLS', () => {
  const longWide = 'x☃' + 'a'.repeat(40);
  const strings = ['Item', 'Amount', 'a shared string long enough to be cut across records', longWide, { text: 'formatted', runs: 3 }, 'last'];
  const xls = makeXls(
    // Records of at most 24 bytes: most strings continue in CONTINUE records.
    [...dateFormat, ...biff.sst(strings, 24)],
    [
      {
        name: 'Sales',
        records: [
          biff.labelSst(0, 0, 0),
          biff.labelSst(0, 1, 1),
          biff.labelSst(1, 0, 2),
          biff.rk(1, 1, 42),
          biff.labelSst(2, 0, 3),
          biff.mulrk(2, 1, [1.25, -7, 123456]),
          biff.labelSst(3, 0, 4),
          biff.rk(3, 1, 45292, DATE_XF),
          biff.labelSst(4, 0, 5),
          biff.number(4, 1, 0.1 + 0.2),
        ],
      },
      {
        name: 'Formulas',
        records: [
          biff.label(0, 0, 'Label cell'),
          biff.formula(0, 1, 'cached text'),
          biff.formula(1, 0, 2.5),
          biff.formula(1, 1, true),
          biff.boolerr(2, 0, false),
          biff.boolerr(2, 1, { error: 0x07 }),
        ],
      },
    ],
  );

  it('reads shared strings across CONTINUE records, RK and MULRK numbers, dates, and sheets in order', async () => {
    const result = await extract({ bytes: xls, filename: 'book.xls' });
    expect(result.metadata).toMatchObject({ format: 'xls', mime_type: 'application/vnd.ms-excel', pages: 2, page_unit: 'sheet', sheets: ['Sales', 'Formulas'] });
    expect(result.tables[0]).toEqual({
      sheet: 'Sales',
      rows: [
        ['Item', 'Amount', '', ''],
        ['a shared string long enough to be cut across records', '42', '', ''],
        [longWide, '1.25', '-7', '123456'],
        ['formatted', '2024-01-01', '', ''],
        ['last', '0.3', '', ''],
      ],
      markdown: expect.stringContaining('| formatted | 2024-01-01 |  |  |'),
    });
    expect(countPages({ bytes: xls, filename: 'book.xls' })).toBe(2);
  });

  it('gives formulas their cached results, a string one from the STRING record after it', async () => {
    const result = await extract({ bytes: xls, filename: 'book.xls' });
    expect(result.tables[1]).toMatchObject({
      sheet: 'Formulas',
      rows: [
        ['Label cell', 'cached text'],
        ['2.5', 'TRUE'],
        ['FALSE', '#DIV/0!'],
      ],
    });
    expect(result.chunks.map((c) => [c.page_start, c.text.split('\n')[0]])).toEqual([
      [1, 'Sales'],
      [2, 'Formulas'],
    ]);
  });

  it("reads a sheet's text boxes and cell comments (TXO records) with their authors after its table", async () => {
    const book = makeXls(biff.sst(['Well', 'N-1']), [
      {
        name: 'Survey',
        records: [
          biff.labelSst(0, 0, 0),
          biff.labelSst(1, 0, 1),
          biff.obj(0x19, 1),
          ...biff.txo('Measured twice\r\nin May', 8),
          biff.obj(0x06, 2),
          ...biff.txo('Depths in metres'),
          // A shape without text leaves nothing.
          biff.obj(0x01, 3),
          biff.note(1, 0, 1, 'Ada'),
        ],
      },
    ]);
    const result = await extract({ bytes: book, filename: 'survey.xls', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe('## Survey\n\n| Well |\n| --- |\n| N-1 |\n\nDepths in metres\n\nA2 (Ada): Measured twice\nin May');
  });

  it('reads only the selected sheets', async () => {
    const result = await extract({ bytes: xls, filename: 'book.xls', config: { ...DEFAULT_CONFIG, pages: [2] } });
    expect(result.content.startsWith('Formulas\n\nLabel cell\tcached text')).toBe(true);
    expect(result.metadata).toMatchObject({ pages: 1, pages_total: 2, sheets: ['Sales', 'Formulas'] });
  });

  it('counts dates from 1904 when the workbook says so', async () => {
    const book = makeXls([biff.dateMode1904(), ...dateFormat], [{ name: 'Mac', records: [biff.rk(0, 0, 0, DATE_XF), biff.number(0, 1, 365, DATE_XF)] }]);
    const result = await extract({ bytes: book, filename: 'mac.xls' });
    expect(result.tables[0]!.rows).toEqual([['1904-01-01', '1904-12-31']]);
  });

  it('reads an Excel 5/95 workbook: a Book stream of byte strings in its code page', async () => {
    const bof = (type: number) => biffRecord(0x0809, Buffer.from([0x00, 0x05, type, 0x00, 0, 0, 0, 0]));
    const name = Buffer.from('Übersicht', 'latin1');
    // "€" is 0x80 in Windows-1252 (code page 1252), which Latin-1 has no place for.
    const text = Buffer.concat([Buffer.from('Grüße ', 'latin1'), Buffer.from([0x80])]);
    const head = Buffer.concat([bof(0x05), biffRecord(0x0042, Buffer.from([0xe4, 0x04])), ...Array.from({ length: 16 }, () => biff.xf(0))]);
    const boundsheet = (offset: number) => biffRecord(0x0085, Buffer.concat([Buffer.from(new Uint32Array([offset]).buffer), Buffer.from([0, 0, name.length]), name]));
    const sheetAt = head.length + boundsheet(0).length + biff.eof().length;
    const stream = Buffer.concat([
      head,
      boundsheet(sheetAt),
      biff.eof(),
      bof(0x10),
      biffRecord(0x0204, Buffer.concat([Buffer.from([0, 0, 0, 0, 15, 0, text.length, 0]), text])),
      biff.number(0, 1, 12.5),
      biff.eof(),
    ]);
    const result = await extract({ bytes: makeCfb([{ name: 'Book', data: stream }]), filename: 'old.xls' });
    expect(result.metadata.sheets).toEqual(['Übersicht']);
    expect(result.tables[0]!.rows).toEqual([['Grüße €', '12.5']]);
  });

  it('is told from other compound files by its streams, whatever its name', async () => {
    const result = await extract({ bytes: xls, filename: 'report.doc', contentType: 'application/msword' });
    expect(result.metadata.format).toBe('xls');
    const other = makeCfb([{ name: 'VisioDocument', data: new Uint8Array(100) }]);
    await expect(extract({ bytes: other, filename: 'drawing.xls' })).rejects.toMatchObject({
      code: 'unsupported_format',
      message: expect.stringMatching(/compound file that is not a Word, Excel, PowerPoint or Outlook document.*Supported formats: .*XLS, PPTX, PPT/),
    });
  });

  it('fails a password-protected workbook as encrypted', async () => {
    const locked = makeXls([biff.filepass(), ...biff.sst(['secret'])], [{ name: 'S', records: [biff.labelSst(0, 0, 0)] }]);
    await expect(extract({ bytes: locked, filename: 'locked.xls' })).rejects.toMatchObject({
      code: 'encrypted_file',
      message: 'The Excel workbook is password-protected; remove the password and resubmit.',
    });
  });

  it('fails a truncated workbook as damaged, saying so', async () => {
    // Big enough for regular sectors (streams under 4 KB live in the mini stream).
    const big = makeXls([], [{ name: 'Numbers', records: Array.from({ length: 600 }, (_, i) => biff.rk(i, 0, i)) }]);
    expect((await extract({ bytes: big, filename: 'big.xls' })).tables[0]!.rows).toHaveLength(600);
    for (const share of [0.3, 0.6, 0.9]) {
      await expect(extract({ bytes: cut(big, share), filename: 'big.xls' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/truncated/) });
    }
    expect(countPages({ bytes: cut(big), filename: 'big.xls' })).toBe(1);
  });

  it('fails a sector chain that loops, instead of following it', async () => {
    const bytes = Buffer.from(makeXls([], [{ name: 'S', records: [biff.rk(0, 0, 1)] }]));
    const dirSector = bytes.readUInt32LE(48);
    const fatAt = (bytes.readUInt32LE(76) + 1) * 512;
    bytes.writeUInt32LE(dirSector, fatAt + 4 * dirSector);
    await expect(extract({ bytes, filename: 'loop.xls' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/sector chain loops/) });
  });

  it('fails a record that runs past the end of the stream', async () => {
    const stream = Buffer.concat([biff.bof('globals'), biffRecord(0x00fc, Buffer.alloc(8))]);
    stream.writeUInt16LE(500, stream.length - 10);
    const bytes = makeCfb([{ name: 'Workbook', data: stream }]);
    await expect(extract({ bytes, filename: 'bad.xls' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/runs past its end/) });
  });

  it('refuses a workbook whose cells repeat one long shared string past the text cap', async () => {
    const long = 'z'.repeat(32_000);
    const cells = Array.from({ length: 1600 }, (_, i) => biff.labelSst(i, 0, 0));
    const bomb = makeXls(biff.sst([long]), [{ name: 'S', records: cells }]);
    await expect(extract({ bytes: bomb, filename: 'bomb.xls' })).rejects.toMatchObject({ code: 'refused_file', message: expect.stringMatching(/more than 50,000,000 characters/) });
  });
});

describe('PPT', () => {
  const slides = [
    { title: 'Welcome', body: 'Agenda\rGoals', textbox: 'Café au lait', notes: 'Say hello first.' },
    { title: 'Zweite Folie ✓', textbox: 'Snow ☃ falls', notes: 'Keep it short.' },
  ];
  // Slide containers are stored last slide first, and an older edit lists the slides the other way round.
  const ppt = makePpt(slides, { stale: true });

  it('reads the live slide list in order, with UTF-16 and Latin-1 text and speaker notes', async () => {
    const result = await extract({ bytes: ppt, filename: 'deck.ppt', config: markdown });
    expect(result.metadata).toMatchObject({ format: 'ppt', mime_type: 'application/vnd.ms-powerpoint', pages: 2, page_unit: 'slide' });
    expect(result.chunks.map((c) => c.text)).toEqual([
      '## Welcome\n\n- Agenda\n- Goals\n\nCafé au lait\n\n**Notes:** Say hello first.',
      '## Zweite Folie ✓\n\nSnow ☃ falls\n\n**Notes:** Keep it short.',
    ]);
    expect(countPages({ bytes: ppt, filename: 'deck.ppt' })).toBe(2);
  });

  it('writes body placeholder paragraphs as list items and gives each element its slide', async () => {
    const { extractPpt } = await import('../../../lambdas/extract/formats/legacy-office/ppt.ts');
    const out = extractPpt(ppt, 'text');
    expect(out.elements!.map((e) => [e.type, e.page])).toEqual([
      ['heading', 0],
      ['list_item', 0],
      ['list_item', 0],
      ['paragraph', 0],
      ['paragraph', 0],
      ['heading', 1],
      ['paragraph', 1],
      ['paragraph', 1],
    ]);
  });

  it('reads only the selected slides', async () => {
    const result = await extract({ bytes: ppt, filename: 'deck.ppt', config: { ...DEFAULT_CONFIG, pages: [2] } });
    expect(result.content).toBe('Zweite Folie ✓\n\nSnow ☃ falls\n\nNotes: Keep it short.');
    expect(result.metadata).toMatchObject({ pages: 1, pages_total: 2 });
  });

  it('fails an encrypted presentation as encrypted', async () => {
    await expect(extract({ bytes: makePpt(slides, { encrypted: true }), filename: 'locked.ppt' })).rejects.toMatchObject({
      code: 'encrypted_file',
      message: 'The PowerPoint presentation is password-protected; remove the password and resubmit.',
    });
  });

  it('fails a truncated presentation as damaged, saying so', async () => {
    const big = makePpt(Array.from({ length: 40 }, (_, i) => ({ title: `Slide ${i + 1}`, body: 'x'.repeat(200) })));
    expect((await extract({ bytes: big, filename: 'big.ppt' })).metadata.pages).toBe(40);
    for (const share of [0.3, 0.6, 0.9]) {
      await expect(extract({ bytes: cut(big, share), filename: 'big.ppt' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/truncated/) });
    }
  });
});
