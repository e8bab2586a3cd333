import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { makeDocx, makeZip, w } from '../../support/office-fixture.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

describe('HTML', () => {
  const page = `<!doctype html><html lang="de-AT"><head><title>Die Seite</title><meta name="author" content="Eva"><style>p { color: red }</style>
    <script>document.write('tracking')</script></head><body>
    <h1>Willkommen</h1><p>Erster&nbsp;Absatz &amp; mehr.</p><div hidden>versteckt</div><p style="display:none">auch versteckt</p>
    <ul><li>eins</li><li>zwei</li></ul>
    <table><tr><th>Name</th><th>Wert</th></tr><tr><td>a</td><td>1</td></tr></table>
    <pre>  code  block</pre><noscript>kein JS</noscript></body></html>`;

  it('keeps the visible text, headings, lists and tables, and drops scripts, styles and hidden elements', async () => {
    const result = await extract({ bytes: utf8(page), filename: 'page.html', config: markdown });
    expect(result.content).toBe(
      '# Willkommen\n\nErster\u00a0Absatz & mehr.\n\n- eins\n- zwei\n\n| Name | Wert |\n| --- | --- |\n| a | 1 |\n\n```\n  code  block\n```',
    );
    expect(result.tables).toEqual([{ rows: [['Name', 'Wert'], ['a', '1']], markdown: '| Name | Wert |\n| --- | --- |\n| a | 1 |' }]);
    expect(result.metadata).toMatchObject({ format: 'html', title: 'Die Seite', author: 'Eva', language: 'de' });
  });

  it('decodes the charset the page declares when the bytes are not UTF-8', async () => {
    const head = utf8('<html><head><meta charset="iso-8859-7"></head><body><p>');
    const bytes = new Uint8Array([...head, 0xe1, 0xe2, 0xe3, ...utf8('</p></body></html>')]);
    const result = await extract({ bytes, filename: 'greek.html' });
    expect(result.content).toBe('αβγ');
    expect(result.metadata.encoding).toBe('iso-8859-7');
  });
});

describe('CSV and TSV', () => {
  it('detects a semicolon delimiter and keeps quoted delimiters and line breaks in their field', async () => {
    const csv = 'name;note;amount\n"Smith; J.";"two\nlines";"1,5"\nDoe;plain;2\n';
    const result = await extract({ bytes: utf8(csv), filename: 'data.csv' });
    expect(result.tables[0]!.rows).toEqual([
      ['name', 'note', 'amount'],
      ['Smith; J.', 'two lines', '1,5'],
      ['Doe', 'plain', '2'],
    ]);
    expect(result.metadata).toMatchObject({ format: 'csv', mime_type: 'text/csv', encoding: 'utf-8' });
  });

  it('reads a UTF-16 TSV', async () => {
    const tsv = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tb\nç\td\n', 'utf16le')]);
    const result = await extract({ bytes: new Uint8Array(tsv), filename: 'data.tsv' });
    expect(result.tables[0]!.rows).toEqual([
      ['a', 'b'],
      ['ç', 'd'],
    ]);
    expect(result.metadata).toMatchObject({ format: 'tsv', encoding: 'utf-16le' });
  });
});

describe('EML', () => {
  const boundary = 'XYZ';
  const attachment = Buffer.from(makeDocx({ body: w.p('Attached contract text') })).toString('base64');
  const eml = [
    'From: Alice Example <alice@example.com>',
    'To: Bob <bob@example.com>',
    'Cc: carol@example.com',
    'Subject: =?UTF-8?B?w5xiZXJzaWNodA==?=',
    'Date: Tue, 01 Oct 2024 12:34:56 +0000',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hello Bob, the contract is attached.',
    `--${boundary}`,
    'Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document; name="contract.docx"',
    'Content-Disposition: attachment; filename="contract.docx"',
    'Content-Transfer-Encoding: base64',
    '',
    attachment,
    `--${boundary}`,
    'Content-Type: application/octet-stream; name="broken.pdf"',
    'Content-Disposition: attachment; filename="broken.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from('%PDF-1.7\n1 0 obj\n<<').toString('base64'),
    `--${boundary}--`,
    '',
  ].join('\r\n');

  it('returns the headers as metadata, the body, and each attachment as a section', async () => {
    const result = await extract({ bytes: utf8(eml), filename: 'message.eml' });
    expect(result.metadata).toMatchObject({
      format: 'eml',
      mime_type: 'message/rfc822',
      title: 'Übersicht',
      author: 'Alice Example <alice@example.com>',
      created_at: '2024-10-01T12:34:56Z',
      email: { from: 'Alice Example <alice@example.com>', to: 'Bob <bob@example.com>', cc: 'carol@example.com', subject: 'Übersicht' },
    });
    expect(result.content).toContain('Hello Bob, the contract is attached.');
    expect(result.content).toContain('Attachment: contract.docx\n\nAttached contract text');
    expect(result.metadata.failed_sections).toEqual([{ name: 'broken.pdf', error: expect.stringMatching(/PDF could not be read/) }]);
  });

  it('fails an encrypted e-mail saying it is encrypted', async () => {
    const pgp = [
      'From: a@example.com',
      'To: b@example.com',
      'Subject: secret',
      'Content-Type: multipart/encrypted; boundary=foo; protocol="application/pgp-encrypted"',
      '',
      '--foo',
      'Content-Type: application/pgp-encrypted',
      '',
      'Version: 1',
      '--foo',
      'Content-Type: application/octet-stream',
      '',
      '-----BEGIN PGP MESSAGE-----',
      'hIwDY32hYGCE8MkBA/wOu7d45aUxF4Q0RKJprD3v5Z9K1YcRJ2fve87lMlDlx4Oj',
      '-----END PGP MESSAGE-----',
      '--foo--',
      '',
    ].join('\r\n');
    await expect(extract({ bytes: utf8(pgp), filename: 'secret.eml' })).rejects.toMatchObject({ code: 'encrypted_file', message: expect.stringMatching(/e-mail is encrypted/) });
  });

  it('recognises an Outlook MSG by its property streams and fails a damaged one clearly', async () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(Buffer.from('__substg1.0_0037001F', 'utf16le'), 1024);
    await expect(extract({ bytes: cfb, filename: 'mail.msg' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/^The MSG e-mail could not be read/) });
  });

  it('recognises a Word 97-2003 file by its WordDocument stream and fails a damaged one clearly', async () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(Buffer.from('WordDocument', 'utf16le'), 1024);
    await expect(extract({ bytes: cfb, filename: 'old.doc' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/^The Word document could not be read/) });
  });

  it('is detected by its headers even when named .txt', async () => {
    const result = await extract({ bytes: utf8('From: a@example.com\nTo: b@example.com\nSubject: Hi\n\nBody text\n'), filename: 'mail.txt' });
    expect(result.metadata.format).toBe('eml');
    expect(result.content).toContain('Body text');
  });
});

describe('mbox', () => {
  it('reads each message of a mailbox as a section, a quoted "From " line as its message wrote it', async () => {
    const mbox =
      'From ada@example.com Mon Jun  1 10:00:00 2009\n' +
      'From: Ada <ada@example.com>\nTo: team@example.com\nSubject: Survey dates\nContent-Type: text/html; charset=utf-8\n\n' +
      '<html><body><p>We start on <b>Monday</b>.</p></body></html>\n\n' +
      'From bob@example.com Tue Jun  2 09:30:00 2009\n' +
      'From: Bob <bob@example.com>\nSubject: Re: Survey dates\n\nAgreed.\n>From the office, Bob\n';
    const result = await extract({ bytes: utf8(mbox), filename: 'archive' });
    expect(result.metadata).toMatchObject({ format: 'mbox', mime_type: 'application/mbox', page_unit: 'text_page', failed_sections: [] });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => e.text)).toEqual(['Message 1: Survey dates', 'Message 2: Re: Survey dates']);
    expect(result.content).toContain('We start on Monday.');
    expect(result.content).toContain('Agreed.\nFrom the office, Bob');
  });

  it('reads a message named .eml as e-mail even where its HTML body opens early', async () => {
    const eml = 'From: a@example.com\nSubject: Hi\nContent-Type: text/html\n\n<html><body><p>Body text</p></body></html>\n';
    const result = await extract({ bytes: utf8(eml), filename: 'note.eml' });
    expect(result.metadata.format).toBe('eml');
    expect(result.content).toContain('Body text');
  });
});

describe('RTF', () => {
  it('reads the body with code-page and Unicode escapes, tables and the info group', async () => {
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Times;}}{\\info{\\title The Title}{\\author Jo}}' +
      '{\\*\\generator Writer}\\pard Caf\\\'e9 au lait\\par \\u8364?5 only\\par' +
      '\\trowd\\cellx1000\\cellx2000\\intbl A1\\cell B1\\cell\\row\\trowd\\intbl A2\\cell B2\\cell\\row\\pard After table\\par}';
    const result = await extract({ bytes: utf8(rtf), filename: 'doc.rtf' });
    expect(result.content).toBe('Café au lait\n\n€5 only\n\nA1\tB1\nA2\tB2\n\nAfter table');
    expect(result.tables[0]!.rows).toEqual([
      ['A1', 'B1'],
      ['A2', 'B2'],
    ]);
    expect(result.metadata).toMatchObject({ format: 'rtf', title: 'The Title', author: 'Jo' });
  });

  it("reads byte escapes in the code page of their font's character set", async () => {
    // As Word and WordPad write them: a Western document (\ansicpg1252) whose Russian, Czech and Japanese runs are
    // set in fonts of those character sets, the Japanese one's characters two bytes each; a font's \cpg outranks its set.
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss\\fcharset0 Arial;}{\\f1\\fswiss\\fcharset204 Arial;}' +
      '{\\f2\\fcharset238 Calibri;}{\\f3\\fnil\\fcharset128 MS Gothic;}{\\f4\\fcharset0\\cpg1253 Greek;}}' +
      "\\pard{\\f1 \\'d3\\'e2\\'e0\\'e6\\'e0\\'e5\\'ec\\'fb\\'e9 \\'ea\\'eb\\'e8\\'e5\\'ed\\'f2!}\\par" +
      "\\f2 \\'c8l\\'e1nek t\\'fddne\\par" +
      "\\f3 \\'82\\'b1\\'82\\'f1\\'82\\'c9\\'82\\'bf\\'82\\'cd\\par" +
      "\\f4 \\'e1\\'e2\\'e3\\par" +
      "\\f0 Caf\\'e9\\par}";
    const result = await extract({ bytes: utf8(rtf), filename: 'letters.rtf' });
    expect(result.content).toBe('Уважаемый клиент!\n\nČlánek týdne\n\nこんにちは\n\nαβγ\n\nCafé');
  });
});

describe('XML', () => {
  it("reads an element's text as a block, its inline children's within it, not the markup", async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- exported -->\n<!DOCTYPE catalog [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n' +
      '<catalog><book id="b1"><title>River &amp; Stone</title><price currency="EUR">12.50</price></book>' +
      '<note>Ships in <em>two</em> days &lol2;.</note><empty/></catalog>';
    const result = await extract({ bytes: utf8(xml), filename: 'export' });
    expect(result.metadata).toMatchObject({ format: 'xml', mime_type: 'application/xml' });
    // The DOCTYPE is passed over: its entities are never expanded.
    expect(result.content).toBe('River & Stone\n\n12.50\n\nShips in two days &lol2;.');
  });

  it('reads Word 2003 XML as its paragraphs, headings, tables and footnotes, its header as furniture, without reviewers\' comments', async () => {
    const w = 'xmlns:w="http://schemas.microsoft.com/office/word/2003/wordml" xmlns:aml="http://schemas.microsoft.com/aml/2001/core"';
    const xml =
      `<?xml version="1.0"?><?mso-application progid="Word.Document"?><w:wordDocument ${w}><w:body><w:sect>` +
      '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Survey</w:t></w:r></w:p>' +
      '<w:p><w:r><w:t>Forty </w:t></w:r><w:r><w:t>wells</w:t></w:r><w:r><w:footnote><w:p><w:r><w:t>Counted in May.</w:t></w:r></w:p></w:footnote></w:r>' +
      '<aml:annotation w:type="Word.Comment"><aml:content><w:p><w:r><w:t>Check this</w:t></w:r></w:p></aml:content></aml:annotation><w:r><w:t>.</w:t></w:r></w:p>' +
      '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Well</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Depth</w:t></w:r></w:p></w:tc></w:tr>' +
      '<w:tr><w:tc><w:p><w:r><w:t>N-1</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>40 m</w:t></w:r></w:p></w:tc></w:tr></w:tbl>' +
      '<w:sectPr><w:hdr w:type="odd"><w:p><w:r><w:t>Field notes</w:t></w:r></w:p></w:hdr></w:sectPr></w:sect></w:body></w:wordDocument>';
    const result = await extract({ bytes: utf8(xml), filename: 'report.xml', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe('# Survey\n\nForty wells.\n\n| Well | Depth |\n| --- | --- |\n| N-1 | 40 m |\n\nCounted in May.');
    // The header is page furniture: an element, out of the content.
    expect(result.elements!.map((e) => e.type)).toEqual(['page_header', 'heading', 'paragraph', 'table', 'footnote']);
  });

  it('reads Excel 2003 XML as a table per worksheet, cells where their indexes put them, numbers in General form', async () => {
    const ss = 'xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet"';
    const xml =
      `<?xml version="1.0"?><Workbook ${ss}><Worksheet ss:Name="Wells"><Table>` +
      '<Row><Cell><Data ss:Type="String">Well</Data></Cell><Cell><Data ss:Type="String">Depth</Data></Cell><Cell><Data ss:Type="String">Dug</Data></Cell></Row>' +
      '<Row ss:Index="3"><Cell><Data ss:Type="String">N-1</Data></Cell><Cell ss:Index="3"><Data ss:Type="DateTime">2016-04-27T00:00:00.000</Data></Cell></Row>' +
      '<Row><Cell ss:MergeAcross="1"><Data ss:Type="String">N-2</Data></Cell><Cell><Data ss:Type="Number">1.1000000000000001</Data></Cell></Row>' +
      '</Table></Worksheet></Workbook>';
    const result = await extract({ bytes: utf8(xml), filename: 'wells.xml', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe('## Wells\n\n| Well | Depth | Dug |\n| --- | --- | --- |\n| N-1 |  | 2016-04-27 |\n| N-2 |  | 1.1 |');
  });

  it('reads a file that looks like XML but does not parse as plain text, losing nothing', async () => {
    // FrameMaker's MIF opens like an element and keeps its text inside its tags.
    const mif = "<MIFFile 2019> # Generated by FrameMaker\n<Para <ParaLine <String `Wells of the north'>>>\n\n<Para <ParaLine <String `Depths'>>>";
    const result = await extract({ bytes: utf8(mif), filename: 'book.mif' });
    expect(result.metadata.format).toBe('xml');
    expect(result.content).toContain("<String `Wells of the north'>");
    expect(result.content).toContain("<String `Depths'>");
  });
});

describe('ZIP archives', () => {
  it('extracts each member as its own section and names the members that failed', async () => {
    const zip = makeZip([
      { name: 'notes/readme.txt', data: 'Plain notes here.' },
      { name: 'report.docx', data: makeDocx({ body: w.p('Report body') }) },
      { name: 'broken.docx', data: 'PK\u0003\u0004 not really a docx' },
      { name: 'folder/', data: '' },
    ]);
    const result = await extract({ bytes: zip, filename: 'bundle.zip' });
    expect(result.metadata.format).toBe('zip');
    expect(result.content).toBe('notes/readme.txt\n\nPlain notes here.\n\nreport.docx\n\nReport body');
    expect(result.metadata.failed_sections).toEqual([{ name: 'broken.docx', error: expect.stringMatching(/archive could not be read/) }]);
    expect(result.metadata.pages).toBe(2);
  });

  it('reads a ZIP64 archive: its end record and its members\' sizes and offsets in ZIP64 fields', async () => {
    // As Windows' packaging writes every archive: the classic fields at their maximum, the values in ZIP64 records.
    const members = [
      { name: 'a.txt', data: Buffer.from('First member text.') },
      { name: 'b.txt', data: Buffer.from('Second member text.') },
    ];
    const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(n >>> 0);
      return b;
    };
    const u64 = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(BigInt(n));
      return b;
    };
    const locals: Buffer[] = [];
    const central: Buffer[] = [];
    let offset = 0;
    for (const m of members) {
      const name = Buffer.from(m.name);
      const crc = crc32(m.data);
      const local = Buffer.concat([u32(0x04034b50), u16(45), u16(0), u16(0), u32(0), u32(crc), u32(m.data.length), u32(m.data.length), u16(name.length), u16(0), name, m.data]);
      const extra = Buffer.concat([u16(1), u16(24), u64(m.data.length), u64(m.data.length), u64(offset)]);
      central.push(Buffer.concat([u32(0x02014b50), u16(45), u16(45), u16(0), u16(0), u32(0), u32(crc), u32(0xffffffff), u32(0xffffffff), u16(name.length), u16(extra.length), u16(0), u16(0), u16(0), u32(0), u32(0xffffffff), name, extra]));
      locals.push(local);
      offset += local.length;
    }
    const directory = Buffer.concat(central);
    const zip64End = Buffer.concat([u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(members.length), u64(members.length), u64(directory.length), u64(offset)]);
    const locator = Buffer.concat([u32(0x07064b50), u32(0), u64(offset + directory.length), u32(1)]);
    const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(0xffff), u16(0xffff), u32(0xffffffff), u32(0xffffffff), u16(0)]);
    const bytes = new Uint8Array(Buffer.concat([...locals, directory, zip64End, locator, end]));
    const result = await extract({ bytes, filename: 'bundle.zip' });
    expect(result.content).toBe('a.txt\n\nFirst member text.\n\nb.txt\n\nSecond member text.');
  });

  it('refuses an XPS document as such, not as an archive of its parts', async () => {
    const xps = makeZip([
      { name: 'FixedDocSeq.fdseq', data: '<FixedDocumentSequence/>' },
      { name: 'Documents/1/Pages/1.fpage', data: '<FixedPage><Glyphs UnicodeString="Hello"/></FixedPage>' },
    ]);
    await expect(extract({ bytes: xps, filename: 'print.xps' })).rejects.toMatchObject({ code: 'unsupported_format', message: expect.stringMatching(/XPS document .*print it to PDF/) });
  });

  it('refuses an Excel binary workbook as such, not as an archive of binary parts', async () => {
    const xlsb = makeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'xl/workbook.bin', data: new Uint8Array([0x83, 0x01, 0x00]) },
    ]);
    await expect(extract({ bytes: xlsb, filename: 'book.xlsb' })).rejects.toMatchObject({ code: 'unsupported_format', message: expect.stringMatching(/\.xlsb.*save it as \.xlsx/) });
  });

  it('fails when no member can be read', async () => {
    const zip = makeZip([{ name: 'a.bin', data: new Uint8Array([0x47, 0x49, 0x46, 0x38, 1, 2, 3]) }]);
    await expect(extract({ bytes: zip, filename: 'x.zip' })).rejects.toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/a\.bin .*GIF image/) });
  });
});
