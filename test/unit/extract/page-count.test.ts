import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { makePdf } from '../../support/pdf-fixture.ts';

/**
 * A PDF 1.5 whose catalog, page tree and pages live in a FlateDecoded object
 * stream, indexed by a cross-reference stream: nothing about pages is visible
 * in the file without inflating.
 */
function objectStreamPdf(texts: string[], opts: { withRoot?: boolean } = {}): Uint8Array {
  const n = texts.length;
  // 1 catalog, 2 pages, 3 font, 4..3+n pages: compressed. Then n content streams, the ObjStm, the xref stream.
  const pageId = (i: number) => 4 + i;
  const contentId = (i: number) => 4 + n + i;
  const objStmId = 4 + 2 * n;
  const xrefId = objStmId + 1;
  const compressed = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${texts.map((_, i) => `${pageId(i)} 0 R`).join(' ')}] /Count ${n} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...texts.map(
      (_, i) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId(i)} 0 R >>`,
    ),
  ];
  let header = '';
  let body = '';
  compressed.forEach((obj, i) => {
    header += `${i + 1} ${body.length} `;
    body += obj + '\n';
  });
  const objStmData = deflateSync(Buffer.from(header + body, 'latin1'));

  const parts: Buffer[] = [];
  let length = 0;
  const offsets = new Map<number, number>();
  const push = (b: Buffer) => {
    parts.push(b);
    length += b.length;
  };
  const object = (id: number, dict: string, stream?: Buffer) => {
    offsets.set(id, length);
    push(Buffer.from(`${id} 0 obj\n${dict}\n`, 'latin1'));
    if (stream) push(Buffer.concat([Buffer.from('stream\n'), stream, Buffer.from('\nendstream\n')]));
    push(Buffer.from('endobj\n'));
  };

  push(Buffer.from('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  texts.forEach((text, i) => {
    const content = Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`, 'latin1');
    object(contentId(i), `<< /Length ${content.length} >>`, content);
  });
  object(objStmId, `<< /Type /ObjStm /N ${compressed.length} /First ${header.length} /Filter /FlateDecode /Length ${objStmData.length} >>`, objStmData);

  // Cross-reference stream, W [1 4 2]: type, offset or ObjStm number, generation or index.
  offsets.set(xrefId, length);
  const rows = Buffer.alloc((xrefId + 1) * 7);
  const row = (id: number, type: number, a: number, b: number) => {
    rows.writeUInt8(type, id * 7);
    rows.writeUInt32BE(a, id * 7 + 1);
    rows.writeUInt16BE(b, id * 7 + 5);
  };
  row(0, 0, 0, 65535);
  compressed.forEach((_, i) => row(i + 1, 2, objStmId, i));
  for (let id = compressed.length + 1; id <= xrefId; id++) row(id, 1, offsets.get(id)!, 0);
  const root = opts.withRoot === false ? '' : '/Root 1 0 R ';
  object(xrefId, `<< /Type /XRef /Size ${xrefId + 1} /W [1 4 2] ${root}/Length ${rows.length} >>`, rows);
  push(Buffer.from(`startxref\n${offsets.get(xrefId)}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

describe('countPages', () => {
  it('reads /Count from a page tree hidden in a compressed object stream', async () => {
    const pdf = objectStreamPdf(['one', 'two', 'three', 'four']);
    expect(Buffer.from(pdf).toString('latin1')).not.toMatch(/\/Count|\/Type \/Page/);
    expect(countPages({ bytes: pdf, filename: 'x.pdf' })).toBe(4);
    // PDFium agrees, and reads the text through the same structure.
    const result = await extract({ bytes: pdf, filename: 'x.pdf' });
    expect(result.metadata.pages).toBe(4);
    expect(result.content).toBe('one\n\ntwo\n\nthree\n\nfour');
  });

  it('counts the page objects inside object streams when the root cannot be found', () => {
    expect(countPages({ bytes: objectStreamPdf(['a', 'b', 'c'], { withRoot: false }), filename: 'x.pdf' })).toBe(3);
  });

  it('counts /Type /Page objects (not /Pages) when the root has no /Count', () => {
    const text = Buffer.from(makePdf({ pages: ['a', 'b', 'c', 'd', 'e'] })).toString('latin1').replace(/\/Count \d+/, '');
    expect(countPages({ bytes: new Uint8Array(Buffer.from(text, 'latin1')), filename: 'x.pdf' })).toBe(5);
  });

  it('takes the page tree of the newest revision after an incremental update', () => {
    const original = Buffer.from(makePdf({ pages: ['a', 'b'] })).toString('latin1');
    const update =
      '2 0 obj\n<< /Type /Pages /Kids [5 0 R 7 0 R 5 0 R] /Count 3 >>\nendobj\n' +
      'xref\n2 1\n0000000000 00000 n \ntrailer\n<< /Size 9 /Root 1 0 R /Prev 0 >>\nstartxref\n0\n%%EOF\n';
    expect(countPages({ bytes: new Uint8Array(Buffer.from(original + update, 'latin1')), filename: 'x.pdf' })).toBe(3);
  });

  it('skips an attached PDF stored uncompressed by its /Length, direct or indirect, not taking its page tree for the document\'s', () => {
    // The attachment's objects have the outer file's numbers; its page tree has one page, the document three.
    const outer = Buffer.from(makePdf({ pages: ['a', 'b', 'c'] })).toString('latin1');
    // Written as many writers do, the page tree after the content streams.
    const inner =
      '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n4 0 obj\n<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 712 Td (attached) Tj ET\n\nendstream\nendobj\n' +
      '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';
    const beforeXref = outer.lastIndexOf('xref');
    const attach = (length: string, extra = '') =>
      `${outer.slice(0, beforeXref)}90 0 obj\n<< /Type /EmbeddedFile /Length ${length} >>\nstream\n${inner}\nendstream\nendobj\n${extra}${outer.slice(beforeXref)}`;
    const count = (text: string) => countPages({ bytes: new Uint8Array(Buffer.from(text, 'latin1')), filename: 'x.pdf' });
    expect(count(attach(String(inner.length + 1)))).toBe(3);
    expect(count(attach('91 0 R', `91 0 obj\n${inner.length + 1}\nendobj\n`))).toBe(3);
  });

  it('never throws on garbage: at least one page', () => {
    const inputs = [
      new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37]), // "%PDF-1.7" and nothing else
      new Uint8Array(Buffer.from('%PDF-1.5\n1 0 obj << /Type /ObjStm /N 9 /First 99 /Filter /FlateDecode >> stream\n\x01\x02garbage', 'latin1')),
      new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj << /Pages 2 0 R >> endobj 2 0 obj << /Count -4 >> endobj trailer << /Root 1 0 R >>')),
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]),
      new Uint8Array(0),
    ];
    for (const bytes of inputs) expect(countPages({ bytes, filename: 'x.pdf' })).toBe(1);
  });

  it('counts one page per 3,000 characters of decoded text, at least one', () => {
    const page = (chars: number, ch = 'a') => ({ bytes: new TextEncoder().encode(ch.repeat(chars)), filename: 'a.txt' });
    expect(countPages(page(1))).toBe(1);
    expect(countPages(page(3000))).toBe(1);
    expect(countPages(page(3001))).toBe(2);
    // Characters, not bytes: 3,000 four-byte emoji are one page.
    expect(countPages(page(3000, '😀'))).toBe(1);
  });
});
