// Peak resident memory of extracting one document in the worker pool, one
// fresh process per file so each figure stands alone (the process's peak RSS
// bounds the worker's, which shares it).
//
//   npm run bench:rss [-- file ...]   (default: the two large corpus documents)

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { extractFresh } from './fresh-extraction.ts';

const corpus = join(import.meta.dirname, '..', '..', 'shared', 'corpus');

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(corpus, 'pdf/pdf2image-memory-error-test-400p.pdf'), join(corpus, 'handbook-872p.docx')];
for (const file of files) {
  if (!existsSync(file)) {
    console.log(`${file}: not found, skipped`);
    continue;
  }
  const { pages, seconds, peakRssMb, error } = extractFresh(file, { memoryMb: 1024, timeoutMs: 300_000 });
  if (error) throw new Error(`${file}: ${error}`);
  console.log(`${file.split('/').slice(-2).join('/')}: ${pages} pages in ${seconds.toFixed(1)} s, peak RSS of the process ${peakRssMb} MB`);
}
