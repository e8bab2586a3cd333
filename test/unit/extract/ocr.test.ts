// OCR with the English model shipped as an npm package, on images of known
// text (test/support/text-image.ts).

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';
import { assemblePdf, layoutPdf, pdfString } from '../../support/pdf-fixture.ts';
import { countTiffPages } from '../../../lambdas/extract/formats/image/tiff.ts';
import { grayPixels, writePng } from '../../support/png-writer.ts';
import { writeTiff } from '../../support/tiff-writer.ts';
import { pageImages, scannedPdf, scanOf, textImagePng } from '../../support/text-image.ts';

const BODY = ['The survey of the northern districts found that most of the', 'households relied on wells dug before the war, and that the', 'water table had fallen by a third in the last decade.'];

/** A report's page: its title, a paragraph of three lines, a numbered list of two items. */
const reportPage = () =>
  layoutPdf([
    {
      texts: [
        { x: 72, y: 700, text: 'Water in the North', size: 22, bold: true },
        ...BODY.map((text, i) => ({ x: 72, y: 660 - i * 16, text, size: 12 })),
        { x: 72, y: 590, text: '1.', size: 12 },
        { x: 90, y: 590, text: 'Survey every well', size: 12 },
        { x: 72, y: 572, text: '2.', size: 12 },
        { x: 90, y: 572, text: 'Repair the pumps', size: 12 },
      ],
    },
  ]);
const REPORT_MARKDOWN = ['# Water in the North', BODY.join(' '), '1. Survey every well\n2. Repair the pumps'].join('\n\n');

/** A US Letter page drawn by `content`, a content stream with Helvetica as /F1. */
const helveticaPage = (content: string) =>
  assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ]);

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

  it('reads a picture of a page as a scanned page: a title, a paragraph over its lines, list items, boxes in its pixels', async () => {
    const [picture] = await pageImages(reportPage());
    const result = await extract({ bytes: picture!.png, filename: 'page.png', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe(REPORT_MARKDOWN);
    expect(result.elements!.map((e) => e.type)).toEqual(['title', 'paragraph', 'list_item', 'list_item']);
    expect(result.metadata).toMatchObject({ format: 'png', ocr_pages: [1] });
    // The title's box in the picture's pixels (rendered at about 200 dpi): 72 points in is about 200 pixels.
    const [size] = result.metadata.page_sizes!;
    const [x0, , x1] = result.elements![0]!.bbox!;
    expect(Math.abs(x0 - 200)).toBeLessThan(10);
    expect(x1).toBeLessThanOrEqual(size!.width);
  });

  it('reads a screenshot with a clear background, a 16-bit interlaced picture and a palette one as scanned pages, not bare paragraphs', async () => {
    const [picture] = await pageImages(reportPage());
    const { width, height, pixels } = grayPixels(picture!.png);
    const gray = (x: number, y: number) => pixels[y * width + x]!;
    const variants = {
      // Black ink on nothing: the white paper is transparent black, as a screenshot tool saves a clear background.
      rgba: writePng({ width, height, colour: 6, depth: 8, pixel: (x, y) => [0, 0, 0, 255 - gray(x, y)] }),
      grayAlpha16: writePng({ width, height, colour: 4, depth: 16, interlaced: true, pixel: (x, y) => [gray(x, y) * 257, 65535] }),
      palette: writePng({ width, height, colour: 3, depth: 8, palette: Uint8Array.from({ length: 768 }, (_, i) => Math.floor(i / 3)), pixel: (x, y) => [gray(x, y)] }),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const result = await extract({ bytes, filename: `${name}.png`, config: { ...DEFAULT_CONFIG, output: 'markdown' } });
      expect({ name, content: result.content }).toEqual({ name, content: REPORT_MARKDOWN });
      expect(result.elements!.map((e) => e.type)).toEqual(['title', 'paragraph', 'list_item', 'list_item']);
    }
  });

  it("reads a fax's pages (Group 4, in strips, from Pillow) each as a scanned page, the first page's title the document's", async () => {
    // test/fixtures/README.md: two pages drawn by PDFium at 200 dpi, thresholded to black and white.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/fax-g4.tif', import.meta.url)));
    const result = await extract({ bytes, filename: 'fax.tif', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    const second = '# Costs of the Repairs\n\nThe pumps of the eastern district will be repaired first, before the rains of the autumn.';
    expect(result.content).toBe(`${REPORT_MARKDOWN}\n\n${second}`);
    expect(result.elements!.map((e) => [e.page, e.type])).toEqual([
      [1, 'title'],
      [1, 'paragraph'],
      [1, 'list_item'],
      [1, 'list_item'],
      [2, 'heading'],
      [2, 'paragraph'],
    ]);
    expect(result.metadata).toMatchObject({ format: 'tiff', pages: 2, ocr_pages: [1, 2] });
    expect(result.metadata.page_sizes).toEqual([
      { page: 1, width: 1700, height: 2200 },
      { page: 2, width: 1700, height: 2200 },
    ]);
    // Boxes in the page's pixels: the title starts an inch in, at 200 dpi.
    expect(Math.abs(result.elements![0]!.bbox![0] - 200)).toBeLessThan(10);
  });

  it('reads a TIFF page stored as LZW (Pillow), uncompressed and inverted, PackBits, Deflate with the predictor, with a palette or an alpha channel, in strips', async () => {
    const [picture] = await pageImages(reportPage());
    const { width, height, pixels } = grayPixels(picture!.png);
    const row = (y: number, map: (g: number) => number[]) => Uint8Array.from([...pixels.subarray(y * width, (y + 1) * width)].flatMap(map));
    const rows = (map: (g: number) => number[]) => Array.from({ length: height }, (_, y) => row(y, map));
    // 1-bit rows: eight pixels a byte, the first the highest bit.
    const bitRows = Array.from({ length: height }, (_, y) => {
      const out = new Uint8Array(Math.ceil(width / 8));
      for (let x = 0; x < width; x++) if (pixels[y * width + x]! > 160) out[x >> 3]! |= 0x80 >> (x & 7);
      return out;
    });
    const gray = Array.from({ length: 256 }, (_, i) => i * 257);
    const variants = {
      lzw: new Uint8Array(fs.readFileSync(new URL('../../fixtures/gray-lzw.tif', import.meta.url))),
      whiteIsZero: writeTiff([{ width, height, compression: 1, photometric: 0, bits: 8, samples: 1, rowsPerStrip: 600, rows: rows((g) => [255 - g]) }]),
      packBits: writeTiff([{ width, height, compression: 32773, photometric: 1, bits: 1, samples: 1, rowsPerStrip: 300, rows: bitRows }]),
      deflateRgb: writeTiff([{ width, height, compression: 8, photometric: 2, bits: 8, samples: 3, predictor: 2, rowsPerStrip: 500, rows: rows((g) => [g, g, g]) }]),
      palette: writeTiff([{ width, height, compression: 8, photometric: 3, bits: 8, samples: 1, colorMap: [...gray, ...gray, ...gray], rows: rows((g) => [g]) }]),
      // Black ink on a clear background, as a screen capture is saved.
      alpha: writeTiff([{ width, height, compression: 8, photometric: 2, bits: 8, samples: 4, extraSamples: 2, rowsPerStrip: 700, rows: rows((g) => [0, 0, 0, 255 - g]) }]),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const result = await extract({ bytes, filename: `${name}.tif`, config: { ...DEFAULT_CONFIG, output: 'markdown' } });
      expect({ name, content: result.content }).toEqual({ name, content: REPORT_MARKDOWN });
    }
  });

  it('refuses a TIFF of more pages than it reads, counting them when the file is submitted', async () => {
    const page = { width: 1, height: 1, compression: 1 as const, photometric: 1 as const, bits: 8 as const, samples: 1 as const, rows: [Uint8Array.of(255)] };
    const bytes = writeTiff(Array.from({ length: 1001 }, () => page));
    expect(countTiffPages(bytes)).toBe(1001);
    await expect(extract({ bytes, filename: 'long.tif' })).rejects.toMatchObject({ code: 'too_many_pages', message: 'The TIFF has 1,001 pages; the limit is 1,000.' });
    // A directory chain that comes back on itself ends the count.
    const looped = Buffer.from(writeTiff([page, page]));
    const first = looped.readUInt32LE(4);
    looped.writeUInt32LE(first, first + 2 + 12 * looped.readUInt16LE(first));
    expect(countTiffPages(looped)).toBe(1);
  });

  it("reads a CMYK JPEG (Photoshop's and Pillow's, its inks stored inverted under Adobe's mark) as a scanned page", async () => {
    // test/fixtures/README.md: the report page's upper part, saved as CMYK by Pillow.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/cmyk-adobe.jpg', import.meta.url)));
    const result = await extract({ bytes, filename: 'cmyk.jpg', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe(REPORT_MARKDOWN);
    expect(result.metadata.page_sizes).toEqual([{ page: 1, width: 1700, height: 800 }]);
  });

  it('reads a photo taken on its side as its Exif orientation shows it, its size and boxes as shown', async () => {
    // test/fixtures/README.md: three lines of text, stored turned a quarter anticlockwise, Exif orientation 6.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/sideways-exif6.jpg', import.meta.url)));
    const result = await extract({ bytes, filename: 'photo.jpg', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe('# Field report of the northern wells\n\nMost wells were dry by the end of May.\n\nThe pumps of the eastern district failed.');
    // Stored 556 pixels wide and 1167 high; shown 1167 wide.
    expect(result.metadata.page_sizes).toEqual([{ page: 1, width: 1167, height: 556 }]);
    for (const e of result.elements!) {
      const [x0, y0, x1, y1] = e.bbox!;
      expect(x1 - x0 > y1 - y0 && x1 <= 1167 && y1 <= 556).toBe(true);
    }
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

  it('reads a page whose text layer is unreadable (its font maps letters to punctuation) from its picture, unless OCR is off', async () => {
    // A ToUnicode map that gives arrows for capitals and punctuation for small letters: the page shows Helvetica's
    // letters, its text layer gives none.
    const cmap = [
      '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Garbled def /CMapType 2 def',
      '1 begincodespacerange <00> <FF> endcodespacerange',
      '2 beginbfrange <41> <5A> <2190> <61> <7A> <2030> endbfrange',
      'endcmap CMapName currentdict /CMap defineresource pop end end',
    ].join('\n');
    const lines = ['Water in the North', 'The survey of the northern districts found', 'that most households relied on old wells.'];
    const content = lines.map((t, i) => `BT /F1 ${i === 0 ? 24 : 16} Tf 72 ${700 - i * 30} Td (${t}) Tj ET`).join('\n');
    const pdf = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>',
      `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
    ]);
    const read = await extract({ bytes: pdf.slice(), filename: 'garbled.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(read.content).toBe('# Water in the North\n\nThe survey of the northern districts found\n\nthat most households relied on old wells.');
    expect(read.metadata.ocr_pages).toEqual([1]);
    const never = await extract({ bytes: pdf.slice(), filename: 'garbled.pdf', config: { ...DEFAULT_CONFIG, ocr: 'never' } });
    expect(never.content).not.toMatch(/[a-z]/i);
    expect(never.metadata.ocr_pages).toEqual([]);
  });

  it('reads a scanned page as a text page is read: the title by its size, a paragraph over its lines, numbered list items, with boxes in points', async () => {
    const scan = await scanOf(reportPage());
    const result = await extract({ bytes: scan, filename: 'scan.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.metadata.ocr_pages).toEqual([1]);
    expect(result.elements!.map((e) => e.type)).toEqual(['title', 'paragraph', 'list_item', 'list_item']);
    expect(result.content).toBe(REPORT_MARKDOWN);
    // Boxes in the page's points, top-left origin: the title stands about 70 points from the top.
    const [x0, y0] = result.elements![0]!.bbox!;
    expect(Math.abs(x0 - 72)).toBeLessThan(4);
    expect(Math.abs(y0 - (792 - 700 - 22))).toBeLessThan(8);
  });

  it('takes a scanned line set bold in the body\'s size for a heading, by the width of its strokes', async () => {
    const para = (y: number) => BODY.map((text, i) => ({ x: 72, y: y - i * 16, text, size: 12 }));
    const scan = await scanOf(layoutPdf([{ texts: [...para(720), { x: 72, y: 650, text: 'Scope and Purpose', size: 12, bold: true }, ...para(620)] }]));
    const result = await extract({ bytes: scan, filename: 'bold-scan.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.elements!.map((e) => [e.type, e.text.slice(0, 17)])).toEqual([
      ['paragraph', BODY[0]!.slice(0, 17)],
      ['heading', 'Scope and Purpose'],
      ['paragraph', BODY[0]!.slice(0, 17)],
    ]);
  });

  it('takes a lone mark a tab before a scanned line\'s text for a bullet, whatever letter tesseract reads it as', async () => {
    // Tesseract reads a round bullet as "e" more often than not: drawn as an "e" here, it is read as one.
    const items = ['Survey every well in the district', 'Repair the broken pumps'];
    const texts = items.flatMap((text, i) => [
      { x: 72, y: 700 - i * 18, text: 'e', size: 12 },
      { x: 92, y: 700 - i * 18, text, size: 12 },
    ]);
    const result = await extract({ bytes: await scanOf(layoutPdf([{ texts }])), filename: 'bullets-scan.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe(items.map((t) => `- ${t}`).join('\n'));
  });

  it('finds in the picture the bullets tesseract leaves out of a scanned list, and reads a full stop or an indent as no bullet', async () => {
    const items = ['Survey every well in the district', 'Repair the broken pumps', 'Report to the council'];
    // A small round bullet (a disc 4 points across, on the lower-case letters' middle), a tab before each item's text.
    const disc = (x: number, y: number, r: number) => {
      const k = 0.5523 * r;
      return `${x + r} ${y} m ${x + r} ${y + k} ${x + k} ${y + r} ${x} ${y + r} c ${x - k} ${y + r} ${x - r} ${y + k} ${x - r} ${y} c ${x - r} ${y - k} ${x - k} ${y - r} ${x} ${y - r} c ${x + k} ${y - r} ${x + r} ${y - k} ${x + r} ${y} c f`;
    };
    const bullets = items.map((text, i) => `${disc(76, 640 - i * 18 + 3.4, 2)} BT /F1 12 Tf 90 ${640 - i * 18} Td ${pdfString(text)} Tj ET`);
    const prose = BODY.map((text, i) => `BT /F1 12 Tf ${i === 0 ? 90 : 72} ${700 - i * 16} Td ${pdfString(text)} Tj ET`);
    // A line whose text follows a full stop a tab away: the stop stands on the baseline, no bullet.
    const stop = `BT /F1 12 Tf 72 570 Td (.) Tj ET BT /F1 12 Tf 90 570 Td ${pdfString('Signed for the council')} Tj ET`;
    const content = [...prose, ...bullets, stop].join(' ');
    const pdf = helveticaPage(content);
    const result = await extract({ bytes: await scanOf(pdf), filename: 'list-scan.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'list_item', 'list_item', 'list_item', 'paragraph']);
    expect(result.content).toBe([BODY.join(' '), items.map((t) => `- ${t}`).join('\n'), result.elements![4]!.text].join('\n\n'));
    expect(result.elements![4]!.text).toMatch(/Signed for the council$/);
  });

  it('reads the numbers of a scanned list set a tab before their items, which tesseract\'s reading of the page loses, from the picture', async () => {
    const items = ['Survey every well in the district', 'Repair the broken pumps', 'Report to the council', 'Train the new keepers', 'Test the water twice a year', 'Publish what the tests find', 'Plant trees by the rivers', 'Close the dry wells', 'Build two new tanks'];
    const texts = [
      ...BODY.map((text, i) => ({ x: 72, y: 720 - i * 16, text, size: 12 })),
      ...items.flatMap((text, i) => [
        { x: 90, y: 660 - i * 20, text: `${i + 1}.`, size: 12 },
        { x: 126, y: 660 - i * 20, text, size: 12 },
      ]),
    ];
    const result = await extract({ bytes: await scanOf(layoutPdf([{ texts }])), filename: 'numbered-scan.pdf', config: { ...DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toBe([BODY.join(' '), items.map((t, i) => `${i + 1}. ${t}`).join('\n')].join('\n\n'));
  });

  it('reads a scanned table by the grid its picture shows', async () => {
    const rows = [
      ['Region', 'Wells', 'Dry'],
      ['North', '120', '14'],
      ['South', '86', '3'],
    ];
    // A grid of 0.75-point lines, 150 by 30 points a cell, with each cell's text inside it.
    const [left, top, w, h] = [72, 700, 150, 30];
    const grid = [
      ...[0, 1, 2, 3].map((r) => `${left} ${top - r * h} m ${left + 3 * w} ${top - r * h} l S`),
      ...[0, 1, 2, 3].map((c) => `${left + c * w} ${top} m ${left + c * w} ${top - 3 * h} l S`),
    ].join(' ');
    const text = rows.flatMap((row, r) => row.map((cell, c) => `BT /F1 12 Tf ${left + c * w + 8} ${top - r * h - 20} Td ${pdfString(cell)} Tj ET`)).join(' ');
    const content = `0.75 w ${grid} ${text}`;
    const pdf = helveticaPage(content);
    const result = await extract({ bytes: await scanOf(pdf), filename: 'table-scan.pdf' });
    expect(result.metadata.ocr_pages).toEqual([1]);
    expect(result.tables.map((t) => t.rows)).toEqual([rows]);
  });

  it('renders a page for OCR with its resolution written in the PNG, so tesseract need not guess it', async () => {
    const [page] = await pageImages(layoutPdf([{ texts: [{ x: 72, y: 700, text: 'Resolution' }] }]));
    const png = Buffer.from(page!.png);
    const at = png.indexOf('pHYs');
    expect(at).toBeGreaterThan(0);
    // Pixels per metre, both ways, for the render's dots per inch (US Letter at about 200 dpi).
    const perMetre = png.readUInt32BE(at + 4);
    expect(png.readUInt32BE(at + 8)).toBe(perMetre);
    expect(png[at + 12]).toBe(1);
    expect(Math.round(perMetre * 0.0254)).toBe(200);
  });

  it('reads a scanned page of two columns column by column', async () => {
    const left = ['The left column opens the story and it', 'runs on for three lines of plain text', 'until it stops at the foot of the column.'];
    const right = ['The right column carries on the story', 'for three more lines of plain text until', 'it reaches the end of the page at last.'];
    const lines = (x: number, texts: string[]) => texts.map((text, i) => ({ x, y: 700 - i * 16, text, size: 12 }));
    // A gutter of about three ems, as columns are set.
    const scan = await scanOf(layoutPdf([{ texts: [...lines(60, left), ...lines(300, right)] }]));
    const result = await extract({ bytes: scan, filename: 'columns-scan.pdf' });
    expect(result.content).toBe(`${left.join(' ')}\n\n${right.join(' ')}`);
  });

  it('refuses an image whose header claims more pixels than the cap, before decoding it', async () => {
    const png = await textImagePng('x');
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 100_000);
    view.setUint32(20, 100_000);
    await expect(extract({ bytes: png, filename: 'huge.png' })).rejects.toMatchObject({ code: 'refused_file', message: expect.stringMatching(/100000 x 100000 pixels/) });
  });
});
