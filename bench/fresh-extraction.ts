// One extraction in a fresh process, through the extractor pool a worker
// uses: its time and the process's peak RSS, which bounds the worker's (they
// share it). Each figure then stands alone, whatever ran before it.
// `npm run bench:rss` and `npm run bench:memory` measure with it.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../lambdas/extract/engine/types.ts';

export interface FreshExtraction {
  pages: number;
  seconds: number;
  peakRssMb: number;
  /** The extraction's error message, or '' when it completed. */
  error: string;
}

interface Settings {
  /** The pool's V8 heap cap (a Lambda worker's memory size, say). */
  memoryMb: number;
  timeoutMs: number;
  config?: Partial<ExtractionConfig>;
}

/** Extracts `file` in a new node process and reports what it took. */
export function extractFresh(file: string, settings: Settings): FreshExtraction {
  const out = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, file], {
    env: { ...process.env, DOCEX_FRESH_EXTRACTION: JSON.stringify(settings) },
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as FreshExtraction;
}

if (process.env.DOCEX_FRESH_EXTRACTION) {
  const settings = JSON.parse(process.env.DOCEX_FRESH_EXTRACTION) as Settings;
  const file = process.argv[2]!;
  const pool = createExtractorPool({ size: 1, timeoutMs: settings.timeoutMs, maxMemoryMb: settings.memoryMb });
  const started = Date.now();
  let pages = 0;
  let error = '';
  try {
    const config = settings.config ? { ...DEFAULT_CONFIG, ...settings.config } : undefined;
    pages = (await pool.extract({ bytes: new Uint8Array(readFileSync(file)), filename: file.split('/').pop()!, ...(config ? { config } : {}) })).metadata.pages;
  } catch (e) {
    error = (e as Error).message;
  }
  const seconds = (Date.now() - started) / 1000;
  await pool.close();
  // maxRSS is in kilobytes.
  const report: FreshExtraction = { pages, seconds, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), error };
  console.log(JSON.stringify(report));
  process.exit(0);
}
