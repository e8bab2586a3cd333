// Peak resident memory of extracting one document in the worker pool, one
// fresh process per file so each figure stands alone (the process's peak RSS
// bounds the worker's, which shares it).
//
//   npm run bench:rss [-- file ...]   (default: the two large corpus documents)

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';

const corpus = join(import.meta.dirname, '..', '..', 'shared', 'corpus');

if (process.env.DOCEX_RSS_CHILD) {
  const file = process.argv[2]!;
  const pool = createExtractorPool({ size: 1, timeoutMs: 300_000, maxMemoryMb: 1024 });
  const started = Date.now();
  const result = await pool.extract({ bytes: new Uint8Array(readFileSync(file)), filename: file.split('/').pop()! });
  const seconds = (Date.now() - started) / 1000;
  await pool.close();
  // maxRSS is in kilobytes.
  console.log(JSON.stringify({ pages: result.metadata.pages, seconds, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
} else {
  const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(corpus, 'pdf/pdf2image-memory-error-test-400p.pdf'), join(corpus, 'handbook-872p.docx')];
  for (const file of files) {
    if (!existsSync(file)) {
      console.log(`${file}: not found, skipped`);
      continue;
    }
    const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, file], { env: { ...process.env, DOCEX_RSS_CHILD: '1' }, encoding: 'utf8' });
    const { pages, seconds, peakRssMb } = JSON.parse(out.trim().split('\n').pop()!) as { pages: number; seconds: number; peakRssMb: number };
    console.log(`${file.split('/').slice(-2).join('/')}: ${pages} pages in ${seconds.toFixed(1)} s, peak RSS of the process ${peakRssMb} MB`);
  }
}
