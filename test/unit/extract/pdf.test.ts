import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/index.ts';
import { countPages } from '../../../lambdas/extract/page-count.ts';
import { parsePdfDate } from '../../../lambdas/extract/pdf.ts';
import { ExtractionError } from '../../../lambdas/extract/types.ts';
import { assemblePdf, makePdf, pdfString } from '../../support/pdf-fixture.ts';

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

describe('PDF extraction', () => {
  const bytes = () =>
    makePdf({
      pages: ['First page\nsecond line', 'Middle (page) with \\ backslash', 'Last page'],
      info: {
        Title: 'Quarterly report',
        Author: 'Ada Lovelace',
        Subject: 'Numbers',
        Producer: 'docex tests',
        CreationDate: "D:20240102030405+01'00'",
      },
    });

  it('returns the text of every page in order, pages separated by a blank line', async () => {
    const result = await extract({ bytes: bytes(), filename: 'r.pdf' });
    expect(result.content).toBe('First page\nsecond line\n\nMiddle (page) with \\ backslash\n\nLast page');
    expect(result.metadata).toMatchObject({ format: 'pdf', mime_type: 'application/pdf', pages: 3, ocr_pages: [], encoding: null });
    expect(result.metadata.word_count).toBe(11);
    expect(result.metadata.char_count).toBe(result.content.length);
    expect(result.tables).toEqual([]);
  });

  it('makes one chunk per page with offsets into content', async () => {
    const { content, chunks } = await extract({ bytes: bytes(), filename: 'r.pdf' });
    expect(chunks.map((c) => [c.index, c.page_start, c.page_end])).toEqual([
      [0, 1, 1],
      [1, 2, 2],
      [2, 3, 3],
    ]);
    for (const chunk of chunks) expect(content.slice(chunk.char_start, chunk.char_end)).toBe(chunk.text);
  });

  it('reports the document info with dates in ISO 8601', async () => {
    const { metadata } = await extract({ bytes: bytes(), filename: 'r.pdf' });
    expect(metadata).toMatchObject({
      title: 'Quarterly report',
      author: 'Ada Lovelace',
      subject: 'Numbers',
      producer: 'docex tests',
      keywords: null,
      created_at: '2024-01-02T02:04:05Z',
      modified_at: null,
    });
  });

  it('counts the same pages at submission as the extractor reports', async () => {
    for (const pages of [['one'], ['a', 'b', 'c'], Array.from({ length: 40 }, (_, i) => `p${i}`)]) {
      const pdf = makePdf({ pages });
      const counted = countPages({ bytes: pdf, filename: 'x.pdf' });
      const { metadata } = await extract({ bytes: pdf, filename: 'x.pdf' });
      expect(counted).toBe(metadata.pages);
      expect(counted).toBe(pages.length);
    }
  });

  it('refuses a PDF over 5,000 pages before extracting text', async () => {
    const pdf = makePdf({ pages: Array.from({ length: 5001 }, () => '') });
    const err = await failure(extract({ bytes: pdf, filename: 'big.pdf' }));
    expect(err.code).toBe('too_many_pages');
    expect(err.message).toMatch(/5,001 pages/);
  });

  it('refuses a password-protected PDF with a clear message', async () => {
    const hex = (n: number) => '<' + '7a'.repeat(n) + '>';
    const pdf = assemblePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
        // Standard security handler; O and U match no empty password, so a password is required.
        `<< /Filter /Standard /V 1 /R 2 /O ${hex(32)} /U ${hex(32)} /P -4 >>`,
      ],
      `/Encrypt 4 0 R /ID [${hex(16)} ${hex(16)}] `,
    );
    const err = await failure(extract({ bytes: pdf, filename: 'secret.pdf' }));
    expect(err.code).toBe('encrypted_file');
    expect(err.message).toBe('The PDF is password-protected; remove the password and resubmit.');
  });

  it('refuses a truncated PDF as corrupt, saying why', async () => {
    const whole = makePdf({ pages: ['Alpha page', 'Beta page', 'Gamma page'] });
    // Cut inside the last page: PDFium finds no trailer to rebuild the file from.
    const cut = whole.subarray(0, Buffer.from(whole).toString('latin1').indexOf('(Gamma page)'));
    const err = await failure(extract({ bytes: cut, filename: 'cut.pdf' }));
    expect(err.code).toBe('corrupt_file');
    expect(err.message).toBe('The PDF could not be read: it is not a PDF or is damaged beyond repair.');
  });

  it('recovers every page when only the cross-reference offsets are wrong', async () => {
    const whole = Buffer.from(makePdf({ pages: ['Alpha page', 'Beta page', 'Gamma page'] })).toString('latin1');
    const shifted = whole.replace(/(\d{10}) 00000 n/g, (_, offset: string) => `${String(Number(offset) + 7).padStart(10, '0')} 00000 n`);
    const result = await extract({ bytes: new Uint8Array(Buffer.from(shifted, 'latin1')), filename: 'shifted.pdf' });
    expect(result.content).toBe('Alpha page\n\nBeta page\n\nGamma page');
  });
});

describe('parsePdfDate', () => {
  it.each([
    ["D:20240102030405+01'00'", '2024-01-02T02:04:05Z'],
    ["D:20240102030405-05'30'", '2024-01-02T08:34:05Z'],
    ['D:20240102030405Z', '2024-01-02T03:04:05Z'],
    ['D:2024', '2024-01-01T00:00:00Z'],
    ['20240102', '2024-01-02T00:00:00Z'],
  ])('reads %s as %s', (input, iso) => {
    expect(parsePdfDate(input)).toBe(iso);
  });

  it.each([['D:20241340'], ['yesterday'], [42], [undefined]])('gives null for %s', (input) => {
    expect(parsePdfDate(input)).toBeNull();
  });
});

describe('PDF tables', () => {
  /** Text placed at absolute positions, one Tj per cell: how PDF tables are usually drawn. */
  function positionedPdf(cells: Array<{ x: number; y: number; text: string }>): Uint8Array {
    const ops = cells.map((c) => `BT /F1 10 Tf 1 0 0 1 ${c.x} ${c.y} Tm ${pdfString(c.text)} Tj ET`).join('\n');
    return assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    ]);
  }

  it('finds a table from text aligned in three or more columns, and leaves two-column prose alone', async () => {
    const grid = [
      ['Region', 'Units', 'Revenue'],
      ['North', '12', '1,200'],
      ['South', '7', '640'],
    ];
    const cells = grid.flatMap((row, r) => row.map((text, c) => ({ x: 72 + c * 150, y: 700 - r * 14, text })));
    const prose = [
      { x: 72, y: 500, text: 'Left column text runs here' },
      { x: 320, y: 500, text: 'Right column text runs here' },
      { x: 72, y: 486, text: 'and carries on below it' },
      { x: 320, y: 486, text: 'and carries on as well' },
      { x: 72, y: 472, text: 'for a third line' },
      { x: 320, y: 472, text: 'for a third line too' },
    ];
    const result = await extract({ bytes: positionedPdf([...cells, ...prose]), filename: 'table.pdf' });
    expect(result.tables).toEqual([{ page: 1, rows: grid, markdown: '| Region | Units | Revenue |\n| --- | --- | --- |\n| North | 12 | 1,200 |\n| South | 7 | 640 |' }]);
  });
});
