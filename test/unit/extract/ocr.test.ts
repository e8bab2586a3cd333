// OCR with the English model shipped as an npm package, on images of known
// text (test/support/text-image.ts).

import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';
import { scannedPdf, textImagePng } from '../../support/text-image.ts';

describe('OCR', () => {
  it('reads the text of a PNG image, offline, and says the page was OCR\'d', async () => {
    const result = await extract({ bytes: await textImagePng('Invoice number 4711'), filename: 'scan.png' });
    expect(result.content).toBe('Invoice number 4711');
    expect(result.metadata).toMatchObject({ format: 'png', mime_type: 'image/png', pages: 1, ocr_pages: [1] });
    // Tesseract's paragraph is the element, boxed in the image's pixels (the page size is the image's).
    const [size] = result.metadata.page_sizes!;
    const [paragraph] = result.elements!;
    expect(paragraph).toMatchObject({ type: 'paragraph', text: 'Invoice number 4711', page: 1, char_start: 0, char_end: 19 });
    const [x0, y0, x1, y1] = paragraph!.bbox!;
    expect(0 <= x0 && x0 < x1 && x1 <= size!.width && 0 <= y0 && y0 < y1 && y1 <= size!.height).toBe(true);
  });

  it('reads a PDF page that has no text layer, and only with OCR allowed', async () => {
    const pdf = scannedPdf(await textImagePng('Scanned contract page'));
    const read = await extract({ bytes: pdf.slice(), filename: 'scan.pdf' });
    expect(read.content).toBe('Scanned contract page');
    expect(read.metadata.ocr_pages).toEqual([1]);
    // The box is in the page's points: the text was drawn 15 points from the left of a 450-point page.
    const box = read.elements!.find((e) => e.type === 'paragraph')!.bbox!;
    expect(box[0]).toBeGreaterThan(5);
    expect(box[0]).toBeLessThan(40);
    expect(box[2]).toBeLessThanOrEqual(read.metadata.page_sizes![0]!.width);
    const never = await extract({ bytes: pdf.slice(), filename: 'scan.pdf', config: { ...DEFAULT_CONFIG, ocr: 'never' } });
    expect(never.content).toBe('');
    expect(never.metadata.ocr_pages).toEqual([]);
  });

  it('refuses an image whose header claims more pixels than the cap, before decoding it', async () => {
    const png = await textImagePng('x');
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 100_000);
    view.setUint32(20, 100_000);
    await expect(extract({ bytes: png, filename: 'huge.png' })).rejects.toMatchObject({ code: 'refused_file', message: expect.stringMatching(/100000 x 100000 pixels/) });
  });
});
