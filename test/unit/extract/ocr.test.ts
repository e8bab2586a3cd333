// OCR with the English model shipped as an npm package. The images are drawn
// here with @napi-rs/canvas (installed with pdfjs-dist), so the test knows
// exactly what text they hold.

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/index.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/types.ts';
import { assemblePdf } from '../../support/pdf-fixture.ts';

interface Canvas {
  getContext(kind: '2d'): { fillStyle: string; font: string; fillRect(x: number, y: number, w: number, h: number): void; fillText(t: string, x: number, y: number): void };
  toBuffer(mime: string): Buffer;
}
const { createCanvas } = createRequire(import.meta.url)('@napi-rs/canvas') as { createCanvas(w: number, h: number): Canvas };

function drawText(text: string, mime: 'image/png' | 'image/jpeg'): Uint8Array {
  const canvas = createCanvas(900, 200);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'white';
  ctx.fillRect(0, 0, 900, 200);
  ctx.fillStyle = 'black';
  ctx.font = '64px sans-serif';
  ctx.fillText(text, 30, 120);
  return new Uint8Array(canvas.toBuffer(mime));
}

/** A one-page PDF whose only content is a JPEG: a scan, with no text layer. */
function scannedPdf(jpeg: Uint8Array): Uint8Array {
  const data = Buffer.from(jpeg).toString('latin1');
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 450 100] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>',
    '<< /Length 31 >>\nstream\nq 450 0 0 100 0 0 cm /Im0 Do Q\nendstream',
    `<< /Type /XObject /Subtype /Image /Width 900 /Height 200 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${data.length} >>\nstream\n${data}\nendstream`,
  ]);
}

describe('OCR', () => {
  it('reads the text of a PNG image, offline, and says the page was OCR\'d', async () => {
    const result = await extract({ bytes: drawText('Invoice number 4711', 'image/png'), filename: 'scan.png' });
    expect(result.content).toBe('Invoice number 4711');
    expect(result.metadata).toMatchObject({ format: 'png', mime_type: 'image/png', pages: 1, ocr_pages: [1] });
  });

  it('reads a PDF page that has no text layer, and only with OCR allowed', async () => {
    const pdf = scannedPdf(drawText('Scanned contract page', 'image/jpeg'));
    const read = await extract({ bytes: pdf.slice(), filename: 'scan.pdf' });
    expect(read.content).toBe('Scanned contract page');
    expect(read.metadata.ocr_pages).toEqual([1]);
    const never = await extract({ bytes: pdf.slice(), filename: 'scan.pdf', config: { ...DEFAULT_CONFIG, ocr: 'never' } });
    expect(never.content).toBe('');
    expect(never.metadata.ocr_pages).toEqual([]);
  });

  it('refuses an image whose header claims more pixels than the cap, before decoding it', async () => {
    const png = drawText('x', 'image/png');
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 100_000);
    view.setUint32(20, 100_000);
    await expect(extract({ bytes: png, filename: 'huge.png' })).rejects.toMatchObject({ code: 'refused_file', message: expect.stringMatching(/100000 x 100000 pixels/) });
  });
});
