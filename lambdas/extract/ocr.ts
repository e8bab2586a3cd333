// OCR with tesseract.js and the English model shipped in the
// @tesseract.js-data/eng npm package: nothing is downloaded at run time (the
// model path is a local directory and the cache is off). One tesseract worker
// per extraction worker, started on the first image and reused after.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExtractionError } from './types.ts';

type TesseractWorker = Awaited<ReturnType<typeof import('tesseract.js')['createWorker']>>;

let starting: Promise<TesseractWorker> | undefined;

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
    return createWorker('eng', OEM.LSTM_ONLY, {
      langPath: modelDir(),
      cacheMethod: 'none',
      gzip: true,
      logger: () => {},
      // The failed job's promise is rejected either way; without a handler tesseract.js also throws it out of an event listener, killing the thread.
      errorHandler: () => {},
    });
  })().catch((err: unknown) => {
    starting = undefined;
    throw new ExtractionError('corrupt_file', `OCR is unavailable: ${err instanceof Error ? err.message : String(err)}`);
  });
  return starting;
}

/** The text tesseract reads in an encoded image (PNG, JPEG, TIFF, BMP). */
export async function ocrImage(image: Uint8Array): Promise<string> {
  const w = await worker();
  const { data } = await w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  return tidy(data.text);
}

function tidy(text: string): string {
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
