import { describe, expect, it } from 'vitest';
import { detect } from '../../../lambdas/extract/engine/detect.ts';
import { ExtractionError } from '../../../lambdas/extract/engine/types.ts';
import { makeZip } from '../../support/office-fixture.ts';
import { makePdf } from '../../support/pdf-fixture.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Deterministic noise, so the test never depends on luck. */
function noise(length: number, seed = 42): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function rejection(fn: () => unknown): ExtractionError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ExtractionError) return err;
    throw err;
  }
  throw new Error('expected an ExtractionError');
}

describe('detect', () => {
  it('recognises a PDF by its header whatever the name says', () => {
    expect(detect({ bytes: makePdf({ pages: ['x'] }), filename: 'notes.txt', contentType: 'text/plain' })).toEqual({
      format: 'pdf',
      mime_type: 'application/pdf',
    });
  });

  it('reads text content as text even when named .pdf', () => {
    expect(detect({ bytes: utf8('just words'), filename: 'report.pdf', contentType: 'application/pdf' }).format).toBe('text');
  });

  it.each([
    ['README.md', null],
    ['notes.MARKDOWN', null],
    ['notes', 'text/markdown; charset=utf-8'],
  ])('treats text as Markdown when named %s with type %s', (filename, contentType) => {
    expect(detect({ bytes: utf8('# Title\n\nBody'), filename, contentType })).toEqual({ format: 'markdown', mime_type: 'text/markdown' });
  });

  it('treats other text as plain text', () => {
    expect(detect({ bytes: utf8('# Title'), filename: 'a.txt' })).toEqual({ format: 'text', mime_type: 'text/plain' });
  });

  it('refuses binary garbage as unsupported, naming the supported formats', () => {
    const err = rejection(() => detect({ bytes: noise(4096), filename: 'data.txt', contentType: 'text/plain' }));
    expect(err.code).toBe('unsupported_format');
    expect(err.message).toMatch(/Supported formats: PDF, DOCX, DOC, XLSX, XLS, PPTX, PPT, .*Markdown, plain text, PNG\/JPEG\/TIFF images/);
  });

  it('says what a known but unsupported file is', () => {
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, ...noise(100)]);
    const err = rejection(() => detect({ bytes: gif, filename: 'report.docx' }));
    expect(err.code).toBe('unsupported_format');
    expect(err.message).toMatch(/GIF image/);
  });

  it('calls a ZIP whose first member is a stored PDF a ZIP, not a PDF (issue #18 item 8)', () => {
    const zip = makeZip([
      { name: 'a.pdf', data: makePdf({ pages: ['inside'] }), method: 0 },
      { name: 'b.txt', data: 'more' },
    ]);
    expect(Buffer.from(zip.subarray(0, 1024)).toString('latin1')).toMatch(/%PDF-\d\.\d/);
    expect(detect({ bytes: zip, filename: 'bundle.zip' }).format).toBe('zip');
  });

  it('calls a ZIP signature without a readable directory a damaged archive', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...noise(100)]);
    const err = rejection(() => detect({ bytes: zip, filename: 'report.docx' }));
    expect(err.code).toBe('corrupt_file');
    expect(err.message).toMatch(/truncated or not a ZIP/);
  });

  it('refuses a zero-byte file as empty', () => {
    expect(rejection(() => detect({ bytes: new Uint8Array(0), filename: 'a.txt' })).code).toBe('empty_file');
  });

  it('refuses text-like data with NULs outside UTF-16/32', () => {
    const bytes = utf8('abc\0def\0\0ghi'.repeat(20));
    expect(rejection(() => detect({ bytes, filename: 'a.txt' })).code).toBe('unsupported_format');
  });

  it('reads a flat OpenDocument text (.fodt) as ODT, whatever it is called, not as the XML text it is', async () => {
    const fodt = utf8(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
        'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">' +
        '<office:body><office:text><text:h text:outline-level="1">Minutes</text:h><text:p>The meeting opened at nine.</text:p></office:text></office:body>' +
        '</office:document>',
    );
    expect(detect({ bytes: fodt, filename: 'minutes.xml' }).format).toBe('odt');
    const { extract } = await import('../../../lambdas/extract/engine/extract.ts');
    const result = await extract({ bytes: fodt, filename: 'minutes.xml' });
    expect(result.content).toBe('Minutes\n\nThe meeting opened at nine.');
    expect(result.elements!.map((e) => e.type)).toEqual(['heading', 'paragraph']);
  });
});
