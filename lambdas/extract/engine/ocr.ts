// OCR with tesseract.js and the English model shipped in the
// @tesseract.js-data/eng npm package: nothing is downloaded at run time (the
// model path is a local directory and the cache is off). One tesseract worker
// per extraction worker, started on the first image and reused after.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExtractionError, type DraftElement } from './types.ts';

type TesseractWorker = Awaited<ReturnType<typeof import('tesseract.js')['createWorker']>>;

let starting: Promise<TesseractWorker> | undefined;

/** Mean confidence (0-100) below which a line is left out of the lines a layout is read from. */
const MIN_LINE_CONFIDENCE = 40;

/**
 * How a page is read. The library reads the page as one block of text unless told otherwise (tesseract's
 * command line finds the blocks itself): two columns would be read across, a line of each at a time. Mode 3
 * is tesseract.js's PSM.AUTO; no character is left out.
 */
const PAGE_SETTINGS = { tessedit_pageseg_mode: '3', tessedit_char_whitelist: '' };
/** tesseract.js's PSM.SINGLE_LINE: a snippet is read as one line of text. */
const PSM_SINGLE_LINE = '7';

/** Images larger than this many pixels are refused before decoding (a decompression bomb in an image). */
export const MAX_OCR_PIXELS = 80_000_000;

function modelDir(): string {
  // The integer-quantised "best" model: as accurate as "best", a quarter of the size.
  const pkg = fileURLToPath(import.meta.resolve('@tesseract.js-data/eng/package.json'));
  return join(dirname(pkg), '4.0.0_best_int');
}

function worker(): Promise<TesseractWorker> {
  starting ??= (async () => {
    // Resolved when first needed, never bundled: tesseract.js starts its own worker from a script
    // and loads its WebAssembly core from its package folder, so it only runs from an installed
    // node_modules (a bundle that inlined it could not start it, and would carry ~1 MB for nothing).
    const specifier = 'tesseract.js';
    const { createWorker, OEM } = (await import(specifier)) as typeof import('tesseract.js');
    const w = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: modelDir(),
      cacheMethod: 'none',
      gzip: true,
      logger: () => {},
      // The failed job's promise is rejected either way; without a handler tesseract.js also throws it out of an event listener, killing the thread.
      errorHandler: () => {},
    });
    await w.setParameters(PAGE_SETTINGS as never);
    return w;
  })().catch((err: unknown) => {
    starting = undefined;
    throw new ExtractionError('corrupt_file', `OCR is unavailable: ${err instanceof Error ? err.message : String(err)}`);
  });
  return starting;
}

/** A paragraph tesseract found, its lines joined, with its box in the image's pixels ([x0, y0, x1, y1], top-left origin). */
export interface OcrParagraph {
  text: string;
  bbox: [number, number, number, number];
}

/**
 * A line tesseract found, in the image's pixels (top-left origin): its words'
 * boxes, where its baseline runs, and the height of its row (ascender to
 * descender: about the font size), which is what a reader of its layout needs.
 */
export interface OcrLine {
  bbox: [number, number, number, number];
  /** The baseline from its left end to its right end: [x0, y0, x1, y1]. */
  baseline: [number, number, number, number];
  rowHeight: number;
  descenders: number;
  words: Array<{ text: string; bbox: [number, number, number, number] }>;
}

/** The text tesseract reads in an encoded image (PNG, JPEG, TIFF, BMP): whole, by its own paragraphs, and by its lines and their words in reading order. */
export async function ocrImage(image: Uint8Array): Promise<{ text: string; paragraphs: OcrParagraph[]; lines: OcrLine[] }> {
  const w = await worker();
  const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: true, blocks: true });
  const paragraphs: OcrParagraph[] = [];
  const lines: OcrLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const p of block.paragraphs) {
      for (const l of p.lines) {
        // A line tesseract is this unsure of is a picture's texture or a rule read as letters ("ul oR"), not text.
        if (l.confidence < MIN_LINE_CONFIDENCE) continue;
        const words = l.words.filter((word) => word.text.trim() !== '').map((word) => ({ text: word.text.trim(), bbox: box(word.bbox) }));
        if (words.length === 0) continue;
        const bbox = box(l.bbox);
        const { rowAttributes: row, baseline: base } = l;
        // A line tesseract gives no baseline (a lone mark) sits on its box's foot.
        const baseline: OcrLine['baseline'] = base && base.x1 > base.x0 ? [base.x0, base.y0, base.x1, base.y1] : [bbox[0], bbox[3], bbox[2], bbox[3]];
        const rowHeight = row && row.rowHeight > 0 ? row.rowHeight : bbox[3] - bbox[1];
        lines.push({ bbox, baseline, rowHeight, descenders: Math.abs(row?.descenders ?? 0), words });
      }
      const text = p.lines
        .map((l) => l.text.trim())
        .filter((l) => l !== '')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      if (text) paragraphs.push({ text, bbox: [p.bbox.x0, p.bbox.y0, p.bbox.x1, p.bbox.y1] });
    }
  }
  return { text: tidy(data.text), paragraphs, lines };
}

const box = (b: { x0: number; y0: number; x1: number; y1: number }): [number, number, number, number] => [b.x0, b.y0, b.x1, b.y1];

/**
 * The text of small encoded images, each read as one line of the characters `alphabet` holds (a list's
 * numbers that the page's reading dropped), by the same worker, whose page settings are restored after.
 */
export async function ocrSnippets(images: readonly Uint8Array[], alphabet: string): Promise<string[]> {
  if (images.length === 0) return [];
  const w = await worker();
  const texts: string[] = [];
  await w.setParameters({ tessedit_pageseg_mode: PSM_SINGLE_LINE as never, tessedit_char_whitelist: alphabet });
  try {
    for (const image of images) {
      const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
      texts.push(data.text.trim());
    }
  } finally {
    await w.setParameters(PAGE_SETTINGS as never);
  }
  return texts;
}

/**
 * A page read by OCR as text and element drafts: tesseract's paragraphs a
 * blank line apart, boxes scaled from pixels to points by `pixelsPerPoint`.
 */
export function ocrPage(paragraphs: OcrParagraph[], pixelsPerPoint: number): { text: string; elements: DraftElement[] } {
  let text = '';
  const elements: DraftElement[] = [];
  for (const p of paragraphs) {
    if (text !== '') text += '\n\n';
    const [x0, y0, x1, y1] = p.bbox.map((v) => Math.round((v / pixelsPerPoint) * 100) / 100) as [number, number, number, number];
    elements.push({ type: 'paragraph', page: 0, start: text.length, end: text.length + p.text.length, bbox: [x0, y0, x1, y1] });
    text += p.text;
  }
  return { text, elements };
}

function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
