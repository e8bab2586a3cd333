// Hostile PDFs for the page-count budget: tiny files that cost a naive counter
// a lot of memory and time.

import { deflateSync } from 'node:zlib';

/** A PDF without a /Root whose one object stream inflates to `inflatedBytes` of blanks (a ~47 KB file for 48 MB). */
export function inflatingPdf(inflatedBytes = 48 * 1024 * 1024): Uint8Array {
  const data = deflateSync(Buffer.alloc(inflatedBytes, 0x20), { level: 9 });
  const head = Buffer.from(`%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Size 2 >>\n%%EOF\n', 'latin1');
  return new Uint8Array(Buffer.concat([head, data, tail]));
}

/** A PDF without a /Root whose object stream declares `objects` tiny objects. */
export function manyObjectsPdf(objects: number): Uint8Array {
  let header = '';
  let body = '';
  for (let i = 0; i < objects; i++) {
    header += `${i + 2} ${body.length} `;
    body += '1 ';
  }
  const data = deflateSync(Buffer.from(header + body, 'latin1'));
  const head = Buffer.from(`%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N ${objects} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Size 2 >>\n%%EOF\n', 'latin1');
  return new Uint8Array(Buffer.concat([head, data, tail]));
}
