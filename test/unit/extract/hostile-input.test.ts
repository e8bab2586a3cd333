// Hostile and broken documents, run through the isolated worker pool as
// jobs are: each ends in its own clear result, and the other jobs in the pool
// complete.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractorPool, type Extractor } from '../../../lambdas/extract/engine/pool.ts';
import { SafeZip, ZIP_LIMITS } from '../../../lambdas/extract/containers/zip.ts';
import { parseXml, textContent } from '../../../lambdas/extract/containers/xml.ts';
import type { ExtractionResult } from '../../../lambdas/extract/engine/types.ts';
import { makeDocx, makeEpub, makeOdf, makePptx, makeXlsx, makeZip, W, w } from '../../support/office-fixture.ts';
import { assemblePdf, latin1Bytes, makePdf } from '../../support/pdf-fixture.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

type Outcome = { ok: true; result: ExtractionResult } | { ok: false; code: string; message: string };

let pool: Extractor;
beforeAll(() => {
  pool = createExtractorPool({ size: 2, timeoutMs: 30_000, maxMemoryMb: 512 });
});
afterAll(() => pool.close());

function run(bytes: Uint8Array, filename: string): Promise<Outcome> {
  return pool.extract({ bytes, filename }).then(
    (result) => ({ ok: true, result }),
    (err: { code?: string; message: string }) => ({ ok: false, code: err.code ?? 'none', message: err.message }),
  );
}

/** A member of `mb` megabytes of zeros: it deflates about a thousandfold. */
function zeros(mb: number): Uint8Array {
  return new Uint8Array(mb * 1024 * 1024);
}

function xxeDocx(): Uint8Array {
  const documentXml =
    '<?xml version="1.0"?>\n<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>';
  return makeDocx({ body: '', documentXml });
}

function circularPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    // The page tree's only kid is the tree itself.
    '<< /Type /Pages /Kids [2 0 R] /Count 1 >>',
  ];
  const first = Buffer.from(assemblePdf(objects)).toString('latin1');
  const xrefAt = Number(/startxref\n(\d+)/.exec(first)![1]);
  // ...and the cross-reference section names itself as the previous one.
  return assemblePdf(objects, `/Prev ${xrefAt} `);
}

describe('hostile input', () => {
  it('refuses a zip bomb by its inflated size, not its declared one', async () => {
    const withBomb = makeZip([
      { name: 'word/document.xml', data: zeros(40) },
      { name: '[Content_Types].xml', data: '<Types/>' },
    ]);
    const outcome = await run(withBomb, 'bomb.docx');
    expect(outcome).toMatchObject({ ok: false, code: 'refused_file', message: expect.stringMatching(/inflates more than 200:1/) });
  });

  it('refuses an XXE DOCX because its XML declares a DOCTYPE', async () => {
    const outcome = await run(xxeDocx(), 'xxe.docx');
    expect(outcome).toMatchObject({ ok: false, code: 'refused_file', message: expect.stringMatching(/word\/document\.xml declares a DOCTYPE/) });
  });

  it('ends a PDF with a circular page tree and xref chain in a clear failure', async () => {
    const outcome = await run(circularPdf(), 'circular.pdf');
    expect(outcome).toMatchObject({ ok: false, code: 'corrupt_file', message: expect.stringMatching(/PDF could not be read/) });
  });

  it('says an encrypted archive member is encrypted', async () => {
    const zip = makeZip([{ name: 'secret.txt', data: 'hidden', encrypted: true }]);
    const outcome = await run(zip, 'locked.zip');
    expect(outcome).toMatchObject({ ok: false, message: expect.stringMatching(/"secret\.txt" is encrypted/) });
  });

  it('says a password-protected Office file is password-protected', async () => {
    // Encrypted OOXML is a compound file with an "EncryptedPackage" stream.
    const cfb = new Uint8Array(2048);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
    const outcome = await run(cfb, 'locked.xlsx');
    expect(outcome).toMatchObject({ ok: false, code: 'encrypted_file', message: expect.stringMatching(/password-protected/) });
  });

  it('reads a truncated file of each container format as far as it goes or fails it as damaged, and an empty file as empty, while good jobs complete', async () => {
    const containers: Record<string, Uint8Array> = {
      'a.docx': makeDocx({ body: w.p('hello') }),
      'a.xlsx': makeXlsx([{ name: 'S', rows: [['x']] }]),
      'a.pptx': makePptx([{ title: 'T' }]),
      'a.odt': makeOdf('text', '<text:p>x</text:p>'),
      'a.ods': makeOdf('spreadsheet', '<table:table table:name="S"/>'),
      'a.epub': makeEpub([{ title: 'C', html: '<p>x</p>' }], { title: 'B', author: 'A' }),
      'a.zip': makeZip([{ name: 'x.txt', data: 'x' }]),
    };
    const jobs = Object.entries(containers).map(([name, bytes]) => run(bytes.subarray(0, Math.floor(bytes.length * 0.6)).slice(), name));
    const pdf = makePdf({ pages: ['intact page one', 'intact page two'] });
    const truncatedPdf = run(pdf.slice(0, Math.floor(pdf.length * 0.5)), 'cut.pdf');
    const empty = run(new Uint8Array(0), 'empty.docx');
    const good = [run(utf8('a good text job'), 'ok.txt'), run(makeDocx({ body: w.p('a good docx job') }), 'ok.docx')];

    for (const outcome of await Promise.all(jobs)) {
      // What the members before the cut hold, the loss named; or, cut before the part it needs, a damaged file.
      if (outcome.ok) expect(outcome.result.metadata.failed_sections?.[0]).toEqual({ name: 'end of file', error: expect.stringMatching(/cut short/) });
      else expect(outcome).toMatchObject({ code: 'corrupt_file', message: expect.stringMatching(/truncated|was lost/) });
    }
    // PDFium rebuilds a PDF whose cross-reference table was cut off, so a cut PDF yields what it still holds, or fails as damaged.
    const pdfOutcome = await truncatedPdf;
    if (pdfOutcome.ok) expect(pdfOutcome.result.content).toContain('intact page one');
    else expect(pdfOutcome).toMatchObject({ code: 'corrupt_file' });
    expect(await empty).toMatchObject({ ok: false, code: 'empty_file' });
    const [text, docx] = await Promise.all(good);
    expect(text).toMatchObject({ ok: true, result: { content: 'a good text job' } });
    expect(docx).toMatchObject({ ok: true, result: { content: 'a good docx job' } });
  });
});

describe('ZIP packages cut short', () => {
  /** Random bytes, stored: a picture's worth of data that does not deflate. */
  const picture = (n: number) => new Uint8Array(n).map((_, i) => (i * 2654435761) >>> 24);
  const cutInside = (bytes: Uint8Array, name: string, offset = 40) => bytes.slice(0, Buffer.from(bytes).indexOf(name) + offset);
  const lostEnd = { name: 'end of file', error: expect.stringMatching(/cut short.*Upload the complete file/) };

  it('reads the members before the cut, its directory lost, and names the loss', async () => {
    const docx = makeDocx({ body: w.p('The body survives the cut.'), parts: { 'word/media/image1.png': picture(20_000) } });
    const outcome = await run(cutInside(docx, 'word/media/image1.png', 5_000), 'cut.docx');
    expect(outcome).toMatchObject({ ok: true, result: { content: 'The body survives the cut.', metadata: { failed_sections: [lostEnd] } } });
  });

  it('reads a main part the cut goes through as far as it goes', async () => {
    const paragraphs = Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1} of the body, with words enough to fill its line.`);
    const docx = makeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: `<w:document ${W}><w:body>${paragraphs.map((p) => w.p(p)).join('')}</w:body></w:document>` },
    ]);
    const outcome = await run(docx.slice(0, Math.floor(docx.length / 2)), 'cut.docx');
    expect(outcome).toMatchObject({ ok: true, result: { metadata: { failed_sections: [{ name: 'end of file', error: expect.stringMatching(/the last of them, word\/document\.xml, only as far as the file goes/) }] } } });
    if (!outcome.ok) return;
    const read = outcome.result.content.split('\n\n');
    expect(read.length).toBeGreaterThan(20);
    expect(read.length).toBeLessThan(400);
    // Every paragraph before the cut is whole, in order; the one the cut went through ends where the data does.
    expect(read.slice(0, -1)).toEqual(paragraphs.slice(0, read.length - 1));
  });

  it('fails a document cut before its main part, naming the part', async () => {
    const docx = makeDocx({ body: w.p('lost'), parts: { 'word/media/image1.png': picture(2_000) } });
    const outcome = await run(cutInside(docx, 'word/document.xml', 5), 'cut.docx');
    expect(outcome).toMatchObject({ ok: false, code: 'corrupt_file', message: expect.stringMatching(/DOCX could not be read: its part word\/document\.xml was lost\. The file is cut short/) });
  });

  it('measures members whose sizes follow their data (a data descriptor), deflated and stored', async () => {
    const zip = makeZip([
      { name: 'one.txt', data: 'First member.', descriptor: true },
      { name: 'two.txt', data: 'Second member.', method: 0, descriptor: true },
      { name: 'three.txt', data: 'Third member, cut off. '.repeat(200), descriptor: true },
    ]);
    expect(new SafeZip(zip).damage).toBeNull();
    const cut = cutInside(zip, 'three.txt', 60);
    const archive = new SafeZip(cut);
    // The member the cut goes through is read as far as it goes.
    expect(archive.names()).toEqual(['one.txt', 'two.txt', 'three.txt']);
    expect(archive.readText('two.txt')).toBe('Second member.');
    expect(archive.readText('three.txt')).toMatch(/^Third member, cut off\. (Third|$)/);
    expect(archive.damage).toMatch(/the last of them, three\.txt, only as far as the file goes/);
    const outcome = await run(cut, 'cut.zip');
    expect(outcome).toMatchObject({ ok: true, result: { metadata: { failed_sections: [lostEnd] } } });
    if (outcome.ok) expect(outcome.result.content).toMatch(/First member\.[\s\S]*Second member\.[\s\S]*Third member/);
  });

  it('reads the slides of a presentation cut before its slide list, in their numbers\' order', async () => {
    const slide = (text: string) => `<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
    const pptx = makeZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'ppt/slides/slide2.xml', data: slide('Second slide') },
      { name: 'ppt/slides/slide1.xml', data: slide('First slide') },
      { name: 'ppt/presentation.xml', data: `<p:presentation xmlns:p="p">${' '.repeat(5_000)}</p:presentation>`, method: 0 },
    ]);
    const outcome = await run(cutInside(pptx, 'ppt/presentation.xml', 200), 'cut.pptx');
    expect(outcome).toMatchObject({ ok: true, result: { metadata: { format: 'pptx', pages: 2, failed_sections: [lostEnd] } } });
    if (outcome.ok) expect(outcome.result.content).toMatch(/First slide[\s\S]*Second slide/);
  });

  it('reads the chapters of a book cut before its package document, in the archive\'s order', async () => {
    const chapter = (text: string) => `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>${text}</p></body></html>`;
    const epub = makeZip([
      { name: 'mimetype', data: 'application/epub+zip', method: 0 },
      { name: 'META-INF/container.xml', data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>' },
      { name: 'OEBPS/one.xhtml', data: chapter('Chapter one.') },
      { name: 'OEBPS/two.xhtml', data: chapter('Chapter two.') },
      { name: 'OEBPS/content.opf', data: `<package>${' '.repeat(5_000)}</package>`, method: 0 },
    ]);
    const outcome = await run(cutInside(epub, 'OEBPS/content.opf', 200), 'cut.epub');
    expect(outcome).toMatchObject({ ok: true, result: { content: 'Chapter one.\n\nChapter two.', metadata: { failed_sections: [lostEnd] } } });
  });
});

describe('PDFs cut short', () => {
  it('reads the pages whose objects stand before a cut inside a stream, and names the loss', async () => {
    const pdf = makePdf({ pages: ['intact page one', 'intact page two'], padding: 20_000 });
    const cut = pdf.slice(0, Buffer.from(pdf).indexOf('%%%%%') + 10_000);
    const outcome = await run(cut, 'cut.pdf');
    expect(outcome).toMatchObject({
      ok: true,
      result: {
        content: 'intact page one\n\nintact page two',
        metadata: { pages: 2, failed_sections: [{ name: 'end of file', error: expect.stringMatching(/^The PDF is cut short .* up to byte \d+ of \d+.*Upload the complete file/) }] },
      },
    });
  });
});

describe('PDFs cut before their page tree', () => {
  // As many writers store them: the pages and their contents first, the page tree's root and the catalog last.
  const obj = (n: number, body: string) => `${n} 0 obj\n${body}\nendobj\n`;
  const stream = (text: string) => {
    const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET\n`;
    return `<< /Length ${content.length} >>\nstream\n${content}endstream`;
  };
  const page = (contents: number) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`;
  const pages = obj(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>') + obj(4, page(5)) + obj(5, stream('first page')) + obj(6, page(7)) + obj(7, stream('second page'));
  const tree = obj(2, '<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>');
  const catalog = obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  const cutAfter = (head: string, lost: string) => latin1Bytes(`%PDF-1.4\n${head}${lost.slice(0, 12)}`);

  it('reads the pages found, in file order, where the catalog was lost', async () => {
    const outcome = await run(cutAfter(pages, tree + catalog), 'cut.pdf');
    expect(outcome).toMatchObject({ ok: true, result: { content: 'first page\n\nsecond page', metadata: { pages: 2, failed_sections: [{ name: 'end of file' }] } } });
  });

  it('reads them where the catalog survived and the page tree it names did not', async () => {
    const outcome = await run(cutAfter(pages + catalog, tree), 'cut.pdf');
    expect(outcome).toMatchObject({ ok: true, result: { content: 'first page\n\nsecond page', metadata: { pages: 2, failed_sections: [{ name: 'end of file' }] } } });
  });

  it('still refuses an encrypted PDF cut short: its key needs the trailer the cut took', async () => {
    const encrypted = pages + obj(8, '<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>');
    expect(await run(cutAfter(encrypted, tree + catalog), 'cut.pdf')).toMatchObject({ ok: false, code: 'corrupt_file' });
  });
});

describe('damaged parts of a package', () => {
  it('gives what a member inflates to before its data is damaged', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i} ${(i * 2654435761) >>> 0}`).join('\n');
    const zip = Buffer.from(makeZip([{ name: 'a.txt', data: text }]));
    const dataStart = 30 + 'a.txt'.length;
    const size = zip.readUInt32LE(18);
    for (let k = 0; k < 64; k++) zip[dataStart + Math.floor(size / 2) + k] = (k * 2654435761) >>> 24;
    const archive = new SafeZip(new Uint8Array(zip));
    expect(() => archive.readText('a.txt')).toThrow(/"a\.txt" does not inflate/);
    const before = new TextDecoder().decode(archive.readUpToDamage('a.txt'));
    expect(before.length).toBeGreaterThan(text.length / 5);
    expect(before.length).toBeLessThan(text.length);
    // What inflates before the damage is the text's start, but for its last few bytes.
    expect(text.startsWith(before.slice(0, -100))).toBe(true);
  });

  it('reads a document without a part that does not parse or inflate, and names the part', async () => {
    const docx = makeDocx({ body: w.p('Body text.'), header: 'Running head', parts: { 'word/styles.xml': '<w:styles><w:style a=></w:styles>' } });
    // A header whose deflated data is garbage: it does not inflate.
    const broken = Buffer.from(docx);
    const header = broken.indexOf('word/header1.xml') + 'word/header1.xml'.length;
    broken.fill(0xff, header, header + 8);
    const outcome = await run(new Uint8Array(broken), 'damaged.docx');
    expect(outcome).toMatchObject({
      ok: true,
      result: {
        content: 'Body text.',
        metadata: {
          failed_sections: [
            { name: 'word/styles.xml', error: expect.stringMatching(/not well-formed/) },
            { name: 'word/header1.xml', error: expect.stringMatching(/does not inflate/) },
          ],
        },
      },
    });
  });

  it('fails a document whose main part is damaged before its body, saying so', async () => {
    const docx = makeDocx({ body: w.p('x'), documentXml: `<w:document ${W} a=><w:body>${w.p('x')}</w:body></w:document>` });
    expect(await run(docx, 'damaged.docx')).toMatchObject({ ok: false, code: 'corrupt_file', message: expect.stringMatching(/^The DOCX could not be read: its part word\/document\.xml is damaged \(the part word\/document\.xml is not well-formed XML \(malformed tag at offset 0\)\)\.$/) });
  });

  it('reads a main part up to where its XML stops being well-formed, and names it', async () => {
    const docx = makeDocx({ body: '', documentXml: `<w:document ${W}><w:body>${w.p('One.')}${w.p('Two.')}<w:p a=>${w.p('Three.')}</w:body></w:document>` });
    expect(await run(docx, 'damaged.docx')).toMatchObject({
      ok: true,
      result: { content: 'One.\n\nTwo.', metadata: { failed_sections: [{ name: 'word/document.xml', error: expect.stringMatching(/not well-formed XML \(malformed tag at offset \d+\)/) }] } },
    });
  });

  it('reads a main part up to where its deflated data is damaged, and names it', async () => {
    const paragraphs = Array.from({ length: 300 }, (_, i) => `Paragraph ${i + 1}: ${'abcdefghijklmnopqrstuvwxyz'.slice(i % 20)} ${i * 7919}.`);
    const docx = Buffer.from(makeDocx({ body: paragraphs.map((p) => w.p(p)).join('') }));
    // Overwrite bytes two thirds into word/document.xml's deflated data.
    const header = docx.indexOf('word/document.xml', docx.indexOf('word/_rels/document.xml.rels') + 30);
    const start = header + 'word/document.xml'.length;
    const size = docx.readUInt32LE(header - 30 + 18);
    docx.fill(0xff, start + Math.floor(size * 0.66), start + Math.floor(size * 0.66) + 16);
    const outcome = await run(new Uint8Array(docx), 'damaged.docx');
    // Deflated data overwritten stops inflating, or inflates into markup that is not well-formed: either is where reading stops.
    expect(outcome).toMatchObject({ ok: true, result: { metadata: { failed_sections: [{ name: 'word/document.xml', error: expect.stringMatching(/does not inflate|not well-formed/) }] } } });
    if (!outcome.ok) return;
    const read = outcome.result.content.split('\n\n');
    expect(read.length).toBeGreaterThan(50);
    expect(read.length).toBeLessThan(300);
    expect(read.slice(0, 50)).toEqual(paragraphs.slice(0, 50));
  });
});

describe('truncated text formats', () => {
  it('yield the text they still hold', async () => {
    const cut = (s: string) => utf8(s.slice(0, Math.floor(s.length * 0.7)));
    const html = await run(cut('<html><body><p>First paragraph survives.</p><p>Second paragraph is cut off here</p></body></html>'), 'a.html');
    expect(html).toMatchObject({ ok: true, result: { content: expect.stringContaining('First paragraph survives.') } });
    const rtf = await run(cut('{\\rtf1\\ansi First line survives.\\par Second line is lost\\par}'), 'a.rtf');
    expect(rtf).toMatchObject({ ok: true, result: { content: expect.stringContaining('First line survives.') } });
    const eml = await run(cut('From: a@example.com\nTo: b@example.com\nSubject: Cut\n\nThe body survives in part, the rest is lost.'), 'a.eml');
    expect(eml).toMatchObject({ ok: true, result: { content: expect.stringContaining('Subject: Cut\n\nThe body') } });
    const csv = await run(cut('a,b,c\n1,2,3\n4,5,6\n7,8,9\n'), 'a.csv');
    expect(csv).toMatchObject({ ok: true, result: { tables: [{ rows: [['a', 'b', 'c'], ['1', '2', '3'], ['4', '5', '']] }] } });
  });
});

describe('safe ZIP reader', () => {
  it('refuses more entries than the cap from the directory alone', () => {
    const members = Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `f${i}`, data: '', method: 0 as const }));
    expect(() => new SafeZip(makeZip(members))).toThrow(/entries; the limit is/);
  });

  it('stops inflating at the per-archive budget shared by nested reads', () => {
    const zip = new SafeZip(makeZip([{ name: 'a', data: new Uint8Array(3 * 1024 * 1024).fill(97) }, { name: 'b', data: 'bb' }]), { remaining: 1024 * 1024 });
    expect(() => zip.read('a')).toThrow(/inflates past the size limit/);
  });

  it('streams an entry as it inflates: the same bytes as a whole read, under the same caps, inflating no further than it is read', async () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `line ${i} of the member\n`).join('');
    const zip = () => new SafeZip(makeZip([{ name: 'deflated', data: text }, { name: 'stored', data: new TextEncoder().encode('kept as it is'), method: 0 }]));
    const all = async (z: SafeZip, name: string) => {
      const pieces: Uint8Array[] = [];
      for await (const piece of z.stream(name)) pieces.push(piece);
      return Buffer.concat(pieces).toString();
    };
    expect(await all(zip(), 'deflated')).toBe(text);
    expect(await all(zip(), 'stored')).toBe('kept as it is');
    expect(await all(zip(), 'missing')).toBe('');

    // Stopped after the first piece: only what was inflated is taken from the budget.
    const stopped = zip();
    const before = stopped.budget.remaining;
    for await (const piece of stopped.stream('deflated')) {
      expect(piece.length).toBeLessThan(text.length);
      break;
    }
    expect(before - stopped.budget.remaining).toBeLessThan(text.length / 4);

    const bomb = new SafeZip(makeZip([{ name: 'bomb', data: zeros(40) }]));
    await expect(all(bomb, 'bomb')).rejects.toThrow(/inflates more than 200:1/);
    const small = new SafeZip(makeZip([{ name: 'a', data: text }]), { remaining: 100_000 });
    await expect(all(small, 'a')).rejects.toThrow(/inflates past the size limit/);
    // Within the budget left when it starts, an entry streams whole, however many pieces it inflates in.
    const room = new SafeZip(makeZip([{ name: 'a', data: text }]), { remaining: text.length + 10 });
    expect(await all(room, 'a')).toBe(text);
    expect(room.budget.remaining).toBe(10);
  });
});

describe('XML reader', () => {
  it('refuses an entity bomb by its DOCTYPE before expanding anything', () => {
    const lol = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>';
    expect(() => parseXml(lol, 'the part x.xml')).toThrow(/x\.xml declares a DOCTYPE/);
  });

  it('decodes the predefined entities and character references only', () => {
    const el = parseXml('<a t="&lt;&#65;&#x42;&quot;">x &amp; y &unknown;</a>');
    expect(el).toEqual({ name: 'a', attrs: { t: '<AB"' }, children: ['x & y &unknown;'] });
  });

  it('hands streamed elements over as they close and keeps them out of the tree', () => {
    const seen: string[] = [];
    const xml = '<s:sheet xmlns:s="x"><s:data><s:row r="1"><c>a</c></s:row><s:row r="2"/><!-- <s:row r="9"> --><s:row r="3"><c>b</c></s:data><tail/></s:sheet>';
    const doc = parseXml(xml, 'the part s.xml', { name: 'row', visit: (row) => seen.push(`${row.attrs.r}:${row.children.length}`) });
    // Row 3 is closed by its parent's end tag, as the tolerant reader closes mismatches.
    expect(seen).toEqual(['1:1', '2:0', '3:1']);
    expect(doc).toEqual({ name: 'sheet', attrs: { s: 'x' }, children: [{ name: 'data', attrs: {}, children: [] }, { name: 'tail', attrs: {}, children: [] }] });
  });

  it('hands over the rows of a truncated part and still refuses a DOCTYPE when streaming', () => {
    const seen: string[] = [];
    parseXml('<sheet><data><row r="1"><c>a</c></row><row r="2"><c>b', 'the part s.xml', { name: 'row', visit: (row) => seen.push(row.attrs.r!) });
    expect(seen).toEqual(['1', '2']);
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "b">]><sheet><row/></sheet>', 'the part s.xml', { name: 'row', visit: () => {} })).toThrow(/DOCTYPE/);
  });

  it('reads a part cut inside a tag up to the tag, and still refuses a malformed tag inside the text', () => {
    const doc = parseXml('<body><p>whole</p><p>cut <b attr="v', 'the part d.xml');
    expect(textContent(doc)).toBe('wholecut ');
    expect(() => parseXml('<body><p a=>x</p></body>', 'the part d.xml')).toThrow(/malformed tag/);
  });
});
