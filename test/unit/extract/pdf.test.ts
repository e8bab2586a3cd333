import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { tableText } from '../../../lambdas/extract/engine/blocks.ts';
import { parsePdfDate } from '../../../lambdas/extract/formats/pdf/extract.ts';
import { DEFAULT_CONFIG, ExtractionError } from '../../../lambdas/extract/engine/types.ts';
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
    // The two lines of the first page are one paragraph.
    expect(result.content).toBe('First page second line\n\nMiddle (page) with \\ backslash\n\nLast page');
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

  it('reads a PDF cut short, its trailer lost, from the objects before the cut', async () => {
    const whole = makePdf({ pages: ['Alpha page', 'Beta page', 'Gamma page'] });
    // Cut inside the last page's content: no cross-reference table, no trailer to name the catalog.
    const cut = whole.subarray(0, Buffer.from(whole).toString('latin1').indexOf('(Gamma page)'));
    const result = await extract({ bytes: cut, filename: 'cut.pdf' });
    expect(result.content).toContain('Alpha page');
    expect(result.content).toContain('Beta page');
    expect(result.content).not.toContain('Gamma');
  });

  it('refuses a PDF cut before its catalog as corrupt, saying why', async () => {
    const whole = makePdf({ pages: ['Alpha page'] });
    const cut = whole.subarray(0, Buffer.from(whole).toString('latin1').indexOf('/Type /Catalog') - 12);
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
  /**
   * Text placed at absolute positions, one Tj per cell: how PDF tables are
   * usually drawn; `lines` is drawn on the page and `formLines` inside a form
   * XObject the page places with `formMatrix`.
   */
  function positionedPdf(
    cells: Array<{ x: number; y: number; text: string }>,
    drawing: { lines?: string; formLines?: string; formMatrix?: string } = {},
  ): Uint8Array {
    const text = cells.map((c) => `BT /F1 10 Tf 1 0 0 1 ${c.x} ${c.y} Tm ${pdfString(c.text)} Tj ET`).join('\n');
    const form = drawing.formLines ? `q ${drawing.formMatrix ?? '1 0 0 1 0 0'} cm /Fm1 Do Q` : '';
    const ops = [drawing.lines ?? '', form, text].join('\n');
    const formBody = drawing.formLines ?? '';
    return assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
      `<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Length ${formBody.length} >>\nstream\n${formBody}\nendstream`,
    ]);
  }

  /** Stroked lines, one `m l S` each, from [x0, y0, x1, y1]. */
  const strokes = (segments: number[][]) => segments.map(([x0, y0, x1, y1]) => `${x0} ${y0} m ${x1} ${y1} l S`).join('\n');

  it('finds a table from text aligned in three or more columns, and leaves two-column prose alone', async () => {
    const grid = [
      ['Region', 'Units', 'Revenue'],
      ['North', '12', '1,200'],
      ['South', '7', '640'],
    ];
    const cells = grid.flatMap((row, r) => row.map((text, c) => ({ x: 72 + c * 150, y: 700 - r * 14, text })));
    // Lines filling columns about 200 points wide, a gutter of a few ems apart.
    const prose = [
      { x: 72, y: 500, text: 'Left column text runs here on a line as wide' },
      { x: 285, y: 500, text: 'Right column text runs here on a line as wide' },
      { x: 72, y: 486, text: 'as its column and carries on below it for a' },
      { x: 285, y: 486, text: 'as its column and carries on as well for a' },
      { x: 72, y: 472, text: 'third line of its own at the foot of it.' },
      { x: 285, y: 472, text: 'third line of its own at the foot of it too.' },
    ];
    const result = await extract({ bytes: positionedPdf([...cells, ...prose]), filename: 'table.pdf' });
    expect(result.tables).toEqual([{ page: 1, rows: grid, markdown: '| Region | Units | Revenue |\n| --- | --- | --- |\n| North | 12 | 1,200 |\n| South | 7 | 640 |' }]);
    // The two columns of prose, drawn a row of each at a time, are not read as rows either.
    expect(result.content).not.toContain('as wide Right column');
  });

  it('reads a table set in one column of a two-column page without the other column\'s lines on its baselines', async () => {
    const grid = [
      ['Site', 'Samples', 'Mean'],
      ['Harbour', '14', '2.31'],
      ['Bridge', '9', '1.87'],
      ['Station', '21', '3.02'],
    ];
    // The right column (from x = 302) holds the table, then prose; the left column (72 to about 290) is prose
    // whose lines share the table rows' baselines, 12 points (a TeX column gap) from the table's first column.
    const left = Array.from({ length: 10 }, (_, i) => ({ x: 72, y: 700 - i * 14, text: `Left column line ${i + 1} of running prose text` }));
    const table = grid.flatMap((row, r) => row.map((text, c) => ({ x: 302 + c * 80, y: 700 - r * 14, text })));
    const right = Array.from({ length: 5 }, (_, i) => ({ x: 302, y: 630 - i * 14, text: `Right column line ${i + 1} of running prose text` }));
    const result = await extract({ bytes: positionedPdf([...left, ...table, ...right]), filename: 'columns.pdf' });
    expect(result.tables.map((t) => t.rows)).toEqual([grid]);
    for (let i = 1; i <= 10; i++) expect(result.content).toContain(`Left column line ${i} of running prose text`);
  });

  it('takes the lines over an aligned table whose pieces stand over its columns for its header, a header cell wrapped over two lines joined', async () => {
    const header = [
      { x: 72, y: 720, text: 'Inhibitor' },
      { x: 222, y: 720, text: 'Ecorr (V)' },
      { x: 372, y: 720, text: 'Polarization' },
      { x: 72, y: 708, text: 'concentration (g)' },
      { x: 372, y: 708, text: 'resistance (ohm)' },
    ];
    const rows = [
      ['0', '0.9393', '24.0910'],
      ['2', '0.8276', '121.440'],
      ['4', '0.8825', '42.121'],
    ];
    const cells = rows.flatMap((row, r) => row.map((text, c) => ({ x: 72 + c * 150, y: 690 - r * 14, text })));
    const result = await extract({ bytes: positionedPdf([{ x: 72, y: 750, text: 'Table 1. Polarization data for steel in sulphuric acid.' }, ...header, ...cells]), filename: 'header.pdf' });
    expect(result.tables[0]!.rows).toEqual([['Inhibitor concentration (g)', 'Ecorr (V)', 'Polarization resistance (ohm)'], ...rows]);
    // The header lines are the table's, not paragraphs of their own.
    expect(result.content).toBe(`Table 1. Polarization data for steel in sulphuric acid.\n\n${tableText(result.tables[0]!.rows)}`);
  });

  it('reads a two-column table drawn as ruled boxes, cell by cell, joining the lines of a wrapped cell', async () => {
    // Rows 30 pt high from y = 700 down; columns at x = 100, 220, 420. Each cell a rectangle (re), as many generators draw them.
    // A fourth row in the frame holds a note whose sentence runs across the column line: not part of the table.
    const boxes = [0, 1, 2, 3].flatMap((r) => [`100 ${670 - r * 30} 120 30 re S`, `220 ${670 - r * 30} 200 30 re S`]).join('\n');
    const cells = [
      { x: 106, y: 682, text: 'Term' },
      { x: 226, y: 682, text: 'Meaning' },
      { x: 106, y: 652, text: 'ER+' },
      { x: 226, y: 658, text: 'Cancer cells with' },
      { x: 226, y: 646, text: 'oestrogen receptors' },
      { x: 106, y: 622, text: 'PR+' },
      { x: 226, y: 622, text: 'Progesterone receptors' },
      { x: 106, y: 592, text: '* Receptor status is tested on the biopsy' },
    ];
    // Drawn shifted by a transform (cm), as a generator's coordinate system often is.
    const shifted = cells.map((c) => ({ ...c, x: c.x + 50 }));
    const result = await extract({ bytes: positionedPdf(shifted, { lines: `q 1 0 0 1 50 0 cm\n${boxes}\nQ` }), filename: 'ruled.pdf' });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Term', 'Meaning'],
        ['ER+', 'Cancer cells with oestrogen receptors'],
        ['PR+', 'Progesterone receptors'],
      ],
    ]);
    // The words are in the content as well, once each, the note included.
    expect(result.content.match(/Progesterone/g)).toHaveLength(1);
    expect(result.content).toContain('* Receptor status is tested on the biopsy');
  });

  it('reads a table ruled only between columns and under its header one row per line, with lines drawn in a form XObject', async () => {
    const columns = [72, 200, 300];
    const grid = [
      ['Dataset', 'Base', 'Notes'],
      ['PubLayNet', 'F / M', 'Modern papers'],
      // An empty cell: the line is still a row, and text-layout detection could not take it (two cells where the others have three).
      ['PRImA', '', 'Magazines'],
      ['Newspaper', 'F', 'US newspapers'],
    ];
    const cells = grid.flatMap((row, r) => row.flatMap((text, c) => (text ? [{ x: columns[c]!, y: r === 0 ? 700 : 680 - (r - 1) * 12, text }] : [])));
    // Top rule, header rule, bottom rule; short bars between the columns, one per line, no outer border.
    const rules = strokes([
      [60, 714, 420, 714],
      [60, 694, 420, 694],
      [60, 642, 420, 642],
      ...[196, 296].flatMap((x) => [0, 1, 2].map((i) => [x, 693 - i * 12, x, 681 - i * 12])),
      [196, 712, 196, 696],
      [296, 712, 296, 696],
    ]);
    // The form draws in its own space, moved into place by the page.
    const formLines = rules.replace(/(\d+) (\d+) (m|l)/g, (_, x, y, op) => `${Number(x) - 10} ${Number(y) - 20} ${op}`);
    const result = await extract({ bytes: positionedPdf(cells, { formLines, formMatrix: '1 0 0 1 10 20' }), filename: 'booktabs.pdf' });
    expect(result.tables.map((t) => t.rows)).toEqual([grid]);
  });

  /** A two-by-two table in a fully ruled grid. */
  const keyValue = {
    grid: strokes([
      [100, 700, 300, 700],
      [100, 680, 300, 680],
      [100, 660, 300, 660],
      [100, 660, 100, 700],
      [200, 660, 200, 700],
      [300, 660, 300, 700],
    ]),
    cells: [
      { x: 106, y: 686, text: 'Key' },
      { x: 206, y: 686, text: 'Value' },
      { x: 106, y: 666, text: 'alpha' },
      { x: 206, y: 666, text: 'one' },
    ],
    rows: [
      ['Key', 'Value'],
      ['alpha', 'one'],
    ],
  };

  it('reads a page drawing more than 5,000 path segments as a drawing: its text, no ruled table', async () => {
    const ruled = await extract({ bytes: positionedPdf(keyValue.cells, { lines: keyValue.grid }), filename: 'grid.pdf' });
    expect(ruled.tables.map((t) => t.rows)).toEqual([keyValue.rows]);
    // 5,000 tiny hatch strokes in one path beside the same grid: a chart, not a table.
    const hatch = `${Array.from({ length: 2_500 }, (_, i) => `${400 + (i % 50) * 2} ${100 + Math.floor(i / 50) * 2} m ${401 + (i % 50) * 2} ${101 + Math.floor(i / 50) * 2} l`).join(' ')} S`;
    const drawing = await extract({ bytes: positionedPdf(keyValue.cells, { lines: `${keyValue.grid}\n${hatch}` }), filename: 'chart.pdf' });
    expect(drawing.tables).toEqual([]);
    expect(drawing.content).toContain('alpha');
  });

  it('writes a table in its place in Markdown output, also one whose words the content stream interleaves with other text', async () => {
    const heading = { x: 100, y: 720, text: 'Settings' };
    const after = { x: 100, y: 640, text: 'Values apply at once.' };
    const inOrder = positionedPdf([heading, ...keyValue.cells, after], { lines: keyValue.grid });
    const markdown = await extract({ bytes: inOrder, filename: 'md.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(markdown.content).toBe('Settings\n\n| Key | Value |\n| --- | --- |\n| alpha | one |\n\nValues apply at once.');
    const text = await extract({ bytes: inOrder, filename: 'md.pdf' });
    expect(text.content).not.toContain('|');
    expect(text.content).toContain('alpha');
    expect(text.tables.map((t) => t.markdown)).toEqual([markdown.tables[0]!.markdown]);

    // The sentence is drawn between the table's cells: the table's words leave the text, and the table stands where it starts.
    const interleaved = positionedPdf([heading, ...keyValue.cells.slice(0, 2), after, ...keyValue.cells.slice(2)], { lines: keyValue.grid });
    const mixed = await extract({ bytes: interleaved, filename: 'md.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(mixed.content).toBe(markdown.content);
    expect(mixed.tables.map((t) => t.rows)).toEqual([keyValue.rows]);
  });

  it('takes neither a box around a paragraph nor lines drawn over running text for a table', async () => {
    const paragraph = [
      { x: 80, y: 700, text: 'A boxed note that runs over two lines' },
      { x: 80, y: 686, text: 'and says nothing tabular at all.' },
    ];
    const box = '70 676 300 40 re S';
    // A grid of lines laid over a sentence: a column line falls in a word space.
    const sentence = { x: 80, y: 500, text: 'I would like the story of this company told' };
    const overText = strokes([
      [70, 520, 300, 520],
      [70, 496, 300, 496],
      [70, 470, 300, 470],
      [70, 470, 70, 520],
      [96, 470, 96, 520],
      [300, 470, 300, 520],
    ]);
    const below = { x: 80, y: 476, text: 'beside it' };
    const result = await extract({ bytes: positionedPdf([...paragraph, sentence, below], { lines: `${box}\n${overText}` }), filename: 'boxes.pdf' });
    expect(result.tables).toEqual([]);
  });
});
