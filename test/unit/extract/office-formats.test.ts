import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { SafeZip } from '../../../lambdas/extract/containers/zip.ts';
import { makeDocx, makeEpub, makeOdf, makePptx, makeXlsx, makeZip, w, XML } from '../../support/office-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

describe('DOCX', () => {
  const docx = makeDocx({
    title: 'Quarterly report',
    author: 'Ada Lovelace',
    created: '2024-03-01T10:00:00Z',
    header: 'ACME Confidential',
    footer: 'Page footer text',
    body: [
      w.p('Overview', 'Heading1'),
      w.p('Revenue grew in every region.'),
      w.li('first point', 1),
      w.li('second point', 1),
      w.li('step one', 2),
      w.li('step two', 2),
      w.table([
        ['Region', 'Revenue'],
        ['North', '1,200'],
      ]),
    ].join(''),
  });

  it('keeps headings, lists and tables in Markdown, and the document properties', async () => {
    const result = await extract({ bytes: docx, filename: 'report.docx', config: markdown });
    expect(result.content).toContain('# Overview\n\nRevenue grew in every region.');
    expect(result.content).toContain('- first point\n- second point');
    expect(result.content).toContain('1. step one\n2. step two');
    expect(result.content).toContain('| Region | Revenue |\n| --- | --- |\n| North | 1,200 |');
    expect(result.tables).toEqual([{ rows: [['Region', 'Revenue'], ['North', '1,200']], markdown: expect.stringContaining('| North | 1,200 |') }]);
    expect(result.metadata).toMatchObject({
      format: 'docx',
      mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      title: 'Quarterly report',
      author: 'Ada Lovelace',
      created_at: '2024-03-01T10:00:00Z',
      page_unit: 'text_page',
    });
  });

  it('keeps the header and footer as elements, out of plain text content unless asked, then first and last', async () => {
    const { content, elements } = await extract({ bytes: docx, filename: 'report.docx' });
    expect(content.startsWith('Overview\n\n')).toBe(true);
    expect(content).not.toContain('ACME Confidential');
    expect(content).toContain('Region\tRevenue\nNorth\t1,200');
    expect(elements!.filter((e) => e.type === 'page_header' || e.type === 'page_footer').map((e) => [e.type, e.text])).toEqual([
      ['page_header', 'ACME Confidential'],
      ['page_footer', 'Page footer text'],
    ]);
    const kept = await extract({ bytes: docx, filename: 'report.docx', config: { ...DEFAULT_CONFIG, keep_page_furniture: true } });
    expect(kept.content.startsWith('ACME Confidential\n\nOverview\n\n')).toBe(true);
    expect(kept.content.endsWith('Page footer text')).toBe(true);
  });

  it('adds review comments after the body, with their author and the text they are on, only when asked', async () => {
    const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const commented = makeDocx({
      body:
        '<w:p><w:r><w:t xml:space="preserve">The budget is </w:t></w:r><w:commentRangeStart w:id="0"/><w:r><w:t>final</w:t></w:r>' +
        '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r><w:r><w:t xml:space="preserve"> for 2025.</w:t></w:r></w:p>',
      rels: [{ id: 'rC', type: 'comments', target: 'comments.xml' }],
      parts: {
        'word/comments.xml': `${XML}<w:comments ${W_NS}><w:comment w:id="0" w:author="Grace Hopper"><w:p><w:r><w:t>Not until the board signs.</w:t></w:r></w:p></w:comment></w:comments>`,
      },
    });
    const plain = await extract({ bytes: commented, filename: 'budget.docx' });
    expect(plain.content).toBe('The budget is final for 2025.');
    const asked = await extract({ bytes: commented, filename: 'budget.docx', config: { ...markdown, comments: true } });
    expect(asked.content).toBe('The budget is final for 2025.\n\n**Comment by Grace Hopper on “final”:** Not until the board signs.');
    expect(asked.elements!.at(-1)).toMatchObject({ type: 'paragraph', text: 'Comment by Grace Hopper on “final”: Not until the board signs.' });
  });

  it('is detected by content, whatever the file is called', async () => {
    const result = await extract({ bytes: docx, filename: 'upload.bin', contentType: 'application/octet-stream' });
    expect(result.metadata.format).toBe('docx');
  });
});

describe('XLSX', () => {
  const xlsx = makeXlsx([
    {
      name: 'Sales',
      rows: [
        ['Date', 'Amount', 'Share', 'Paid'],
        [{ n: 45292, fmt: 'yyyy-mm-dd' }, { n: 1234.5, fmt: '#,##0.00' }, { n: 0.256, fmt: '0.0%' }, true],
        [{ n: 45293.5, fmt: 'd mmm yyyy h:mm' }, 42, { n: -3, fmt: '0.00;(0.00)' }, false],
      ],
    },
    { name: 'Notes', rows: [['Second sheet text']] },
  ]);

  it('returns each sheet\'s table, with numbers and dates as displayed, and a sheet\'s lone cell as a one-cell table', async () => {
    const result = await extract({ bytes: xlsx, filename: 'book.xlsx' });
    expect(result.tables).toHaveLength(2);
    expect(result.tables[1]).toMatchObject({ sheet: 'Notes', rows: [['Second sheet text']] });
    expect(result.tables[0]).toMatchObject({
      sheet: 'Sales',
      rows: [
        ['Date', 'Amount', 'Share', 'Paid'],
        ['2024-01-01', '1,234.50', '25.6%', 'TRUE'],
        ['2 Jan 2024 12:00', '42', '(3.00)', 'FALSE'],
      ],
    });
    expect(result.elements!.filter((e) => e.page === 2).map((e) => [e.type, e.text])).toEqual([
      ['heading', 'Notes'],
      ['table', 'Second sheet text'],
    ]);
    expect(result.metadata).toMatchObject({ format: 'xlsx', pages: 2, page_unit: 'sheet', sheets: ['Sales', 'Notes'] });
    expect(countPages({ bytes: xlsx, filename: 'book.xlsx' })).toBe(2);
  });

  it('chunks one sheet per page', async () => {
    const { chunks } = await extract({ bytes: xlsx, filename: 'book.xlsx' });
    expect(chunks.map((c) => [c.page_start, c.text.split('\n')[0]])).toEqual([
      [1, 'Sales'],
      [2, 'Notes'],
    ]);
  });
});

describe('PPTX', () => {
  const pptx = makePptx([
    { title: 'Welcome', bullets: ['Agenda', 'Goals'], notes: 'Say hello first.' },
    { title: 'Numbers', table: [['Q1', 'Q2'], ['10', '20']] },
    { title: 'Thanks' },
  ]);

  it('reads slides in presentation order with their notes and tables', async () => {
    const result = await extract({ bytes: pptx, filename: 'deck.pptx', config: markdown });
    expect(result.metadata).toMatchObject({ format: 'pptx', pages: 3, page_unit: 'slide' });
    expect(result.chunks.map((c) => c.text.split('\n')[0])).toEqual(['## Welcome', '## Numbers', '## Thanks']);
    expect(result.chunks[0]!.text).toContain('- Agenda\n- Goals');
    expect(result.chunks[0]!.text).toContain('Say hello first.');
    expect(result.tables).toEqual([{ page: 2, rows: [['Q1', 'Q2'], ['10', '20']], markdown: '| Q1 | Q2 |\n| --- | --- |\n| 10 | 20 |' }]);
    expect(countPages({ bytes: pptx, filename: 'deck.pptx' })).toBe(3);
  });

  it("reads a slide's shapes in the order they are shown, not the order they were added", async () => {
    // Made with python-pptx by test/fixtures/slide-reading-order.py (test/fixtures/README.md).
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/slide-reading-order.pptx', import.meta.url)));
    const result = await extract({ bytes, filename: 'order.pptx', config: markdown });
    const slide = (page: number) => result.elements!.filter((e) => e.page === page).map((e) => e.text);
    // A banner added last over the content added first.
    expect(slide(1)).toEqual(['Field survey summary', 'Wells surveyed this season: forty-two in the northern field.']);
    // Cards whose headings were added before their bodies, the last card first: card by card, left to right.
    expect(slide(2)).toEqual(['Region A', 'Findings of region A in one sentence.', 'Region B', 'Findings of region B in one sentence.', 'Region C', 'Findings of region C in one sentence.']);
    // A group moved after its shapes were drawn: its children are where the move put them, above the notes.
    expect(slide(3)).toEqual(['Group heading', 'Group body text.', 'Notes under the group.']);
    // The content placeholder has no place of its own on the slide; its layout puts it under the lead-in.
    expect(slide(4)).toEqual(['Placement', 'Lead-in above the content.', 'A bullet in the content placeholder']);
  });

  it('keeps the stored order where shapes overlap or one has no place to be found', async () => {
    const textBox = (text: string, x: number, y: number) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="9" name="Box"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="4000000" cy="900000"/></a:xfrm></p:spPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const deck = makePptx([
      // Drawn over one another: nothing says which is read first but the order they were added in.
      { title: 'Overlap', shapes: textBox('Lower box added first', 500000, 1500000) + textBox('Upper box over it', 700000, 1200000) },
      // The body placeholder has no layout to place it: the slide keeps the order stored.
      { title: 'Unplaced', bullets: ['Body bullet'], shapes: textBox('Box at the top', 500000, 100000) },
      { title: 'Placed', shapes: textBox('Second by place', 500000, 3000000) + textBox('First by place', 500000, 1000000) },
    ]);
    const result = await extract({ bytes: deck, filename: 'deck.pptx', config: markdown });
    const slide = (page: number) => result.elements!.filter((e) => e.page === page).map((e) => e.text);
    expect(slide(1)).toEqual(['Overlap', 'Lower box added first', 'Upper box over it']);
    expect(slide(2)).toEqual(['Unplaced', 'Body bullet', 'Box at the top']);
    expect(slide(3)).toEqual(['Placed', 'First by place', 'Second by place']);
  });

  it('extracts only the selected slides and counts only those', async () => {
    const result = await extract({ bytes: pptx, filename: 'deck.pptx', config: { ...DEFAULT_CONFIG, pages: [2, 3, 9] } });
    expect(result.content.startsWith('Numbers')).toBe(true);
    expect(result.metadata).toMatchObject({ pages: 2, pages_total: 3 });
    expect(result.chunks.map((c) => c.page_start)).toEqual([2, 3]);
  });
});

describe('OpenDocument', () => {
  it('reads ODT headings, paragraphs, lists and tables', async () => {
    const odt = makeOdf(
      'text',
      '<text:h text:outline-level="1">Intro</text:h><text:p>Plain<text:s text:c="2"/>words.</text:p>' +
        '<text:list><text:list-item><text:p>alpha</text:p></text:list-item><text:list-item><text:p>beta</text:p></text:list-item></text:list>' +
        '<table:table table:name="T"><table:table-row><table:table-cell><text:p>a</text:p></table:table-cell><table:table-cell><text:p>b</text:p></table:table-cell></table:table-row></table:table>',
      'An ODT',
    );
    const result = await extract({ bytes: odt, filename: 'a.odt', config: markdown });
    expect(result.content).toBe('# Intro\n\nPlain  words.\n\n- alpha\n- beta\n\n| a | b |\n| --- | --- |');
    expect(result.metadata).toMatchObject({ format: 'odt', title: 'An ODT' });
  });

  it('reads ODP slides: titles as headings, shapes in reading order, outlines as lists, tables, notes, not the furniture', async () => {
    const frame = (cls: string | null, x: number, y: number, inner: string) =>
      `<draw:frame ${cls ? `presentation:class="${cls}" ` : ''}svg:x="${x}cm" svg:y="${y}cm" svg:width="20cm" svg:height="2cm">${inner}</draw:frame>`;
    const box = (...paras: string[]) => `<draw:text-box>${paras.map((p) => `<text:p>${p}</text:p>`).join('')}</draw:text-box>`;
    const odp = makeOdf(
      'presentation',
      '<draw:page draw:name="p1">' +
        frame('subtitle', 2, 5, box('Field season 2024')) +
        frame('title', 2, 1, '<draw:text-box><text:list><text:list-header><text:p>Well survey</text:p></text:list-header></text:list></draw:text-box>') +
        frame('page-number', 20, 18, box('1')) +
        '</draw:page>' +
        '<draw:page draw:name="p2">' +
        frame('title', 2, 1, box('Findings')) +
        frame('outline', 2, 8, '<draw:text-box><text:list><text:list-item><text:p>Forty wells</text:p><text:list><text:list-item><text:p>Ten dry</text:p></text:list-item></text:list></text:list-item></text:list></draw:text-box>') +
        // Drawn after the outline, above it: read before it.
        '<draw:custom-shape svg:x="2cm" svg:y="4cm" svg:width="20cm" svg:height="2cm"><text:p>Summary first</text:p></draw:custom-shape>' +
        frame(null, 2, 12, '<table:table><table:table-row><table:table-cell><text:p>Well</text:p></table:table-cell><table:table-cell><text:p>Depth</text:p></table:table-cell></table:table-row></table:table>') +
        frame(null, 2, 15, '<draw:image/><svg:desc>Map of the northern wells</svg:desc>') +
        '<presentation:notes><draw:frame presentation:class="notes" svg:x="1cm" svg:y="10cm" svg:width="15cm" svg:height="10cm"><draw:text-box><text:p>Mention the dry wells.</text:p></draw:text-box></draw:frame></presentation:notes>' +
        '</draw:page>',
      'Survey deck',
    );
    const result = await extract({ bytes: odp, filename: 'deck.odp', config: markdown });
    expect(result.metadata).toMatchObject({ format: 'odp', pages: 2, page_unit: 'slide', title: 'Survey deck' });
    expect(result.content).toBe(
      '## Well survey\n\nField season 2024\n\n## Findings\n\nSummary first\n\n- Forty wells\n  - Ten dry\n\n| Well | Depth |\n| --- | --- |\n\n**Notes:** Mention the dry wells.',
    );
    // A picture is a figure element, by its description; its text is no part of the content.
    expect(result.elements!.filter((e) => e.type === 'figure').map((e) => [e.text, e.page])).toEqual([['Map of the northern wells', 2]]);
    expect(result.tables).toEqual([expect.objectContaining({ page: 2, rows: [['Well', 'Depth']] })]);
    const second = await extract({ bytes: odp, filename: 'deck.odp', config: { ...markdown, pages: [2] } });
    expect(second.content.startsWith('## Findings')).toBe(true);
    expect(second.metadata).toMatchObject({ pages: 1, pages_total: 2 });
  });

  it('fails a password-protected ODT or ODS as encrypted, saying so', async () => {
    // LibreOffice encrypts the parts and says so in the manifest; content.xml is then no XML to read.
    const manifest = `<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"/></manifest:file-entry></manifest:manifest>`;
    for (const [kind, name] of [['text', 'a.odt'], ['spreadsheet', 'a.ods']] as const) {
      const locked = makeOdf(kind, '', undefined, { 'META-INF/manifest.xml': manifest, 'content.xml': '\u0001\u0002 ciphertext' });
      await expect(extract({ bytes: locked, filename: name })).rejects.toMatchObject({ code: 'encrypted_file', message: expect.stringMatching(/password-protected/) });
    }
  });

  it('recognises an ODT whose mimetype member is stored compressed', async () => {
    const odt = makeOdf('text', '<text:p>Compressed name.</text:p>');
    const zip = new SafeZip(odt);
    const members = zip.entries.map((e) => ({ name: e.name, data: zip.readEntry(e), method: 8 as const }));
    const result = await extract({ bytes: makeZip(members), filename: 'upload' });
    expect(result.metadata.format).toBe('odt');
    expect(result.content).toBe('Compressed name.');
  });

  it('adds ODT review comments (annotations) after the body only when asked', async () => {
    const odt = makeOdf(
      'text',
      '<text:p>The plan is <office:annotation><dc:creator>Ada Lovelace</dc:creator><text:p>Check the dates.</text:p></office:annotation>ready<office:annotation-end/>.</text:p>',
    );
    expect((await extract({ bytes: odt, filename: 'plan.odt' })).content).toBe('The plan is ready.');
    const asked = await extract({ bytes: odt, filename: 'plan.odt', config: { ...DEFAULT_CONFIG, comments: true } });
    expect(asked.content).toBe('The plan is ready.\n\nComment by Ada Lovelace: Check the dates.');
  });

  it('reads ODS sheets as displayed, without expanding empty repeated cells', async () => {
    const ods = makeOdf(
      'spreadsheet',
      '<table:table table:name="Budget"><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16384"/></table:table-row>' +
        '<table:table-row><table:table-cell><text:p>Rent</text:p></table:table-cell><table:table-cell office:value-type="currency" office:value="1200"><text:p>€1,200.00</text:p></table:table-cell></table:table-row>' +
        '<table:table-row table:number-rows-repeated="1048574"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>',
    );
    const result = await extract({ bytes: ods, filename: 'b.ods' });
    expect(result.tables).toEqual([{ sheet: 'Budget', rows: [['Item', 'Cost'], ['Rent', '€1,200.00']], markdown: expect.any(String) }]);
    expect(result.metadata).toMatchObject({ format: 'ods', pages: 1, page_unit: 'sheet' });
  });
});

describe('EPUB', () => {
  it('reads chapters in spine order as sections, with the package metadata', async () => {
    const epub = makeEpub(
      [
        { title: 'Chapter One', html: '<p>It was a dark night.</p><script>alert(1)</script>' },
        { title: 'Chapter Two', html: '<p>Morning came.</p>' },
      ],
      { title: 'A Book', author: 'Some Writer', language: 'en-GB' },
    );
    const result = await extract({ bytes: epub, filename: 'book.epub', config: { ...DEFAULT_CONFIG, chunking: { strategy: 'section', max_chars: 4000, overlap: 0 } } });
    expect(result.content).toBe('Chapter One\n\nIt was a dark night.\n\nChapter Two\n\nMorning came.');
    expect(result.chunks.map((c) => c.text)).toEqual(['Chapter One\n\nIt was a dark night.\n\n', 'Chapter Two\n\nMorning came.']);
    expect(result.metadata).toMatchObject({ format: 'epub', title: 'A Book', author: 'Some Writer', language: 'en' });
  });
});
