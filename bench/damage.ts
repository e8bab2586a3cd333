// Damaged input over the shared corpus: each file read whole, cut short (at
// half and at nine tenths of its bytes, as an interrupted download leaves it)
// and with bytes overwritten (30 bytes at places a fixed seed picks, as a
// damaged disk or transfer leaves it), each through the extractor pool. Per
// format: how many damaged files are read (`completed`, or `partial_success`
// naming what was lost in failed_sections), how many fail and with what code,
// and the words the read ones keep of the whole file's (a multiset overlap).
// A file that fails whole (encrypted, empty, an image with OCR off) is left
// out. No file may fail other than with a named extraction error.
//
//   npm run bench:damage [-- corpus-dir]

import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { corpusDir, filesUnder } from './corpus.ts';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG, ExtractionError, type ExtractionResult } from '../lambdas/extract/engine/types.ts';

const corpus = corpusDir('bench:damage');

/** A fixed sequence, so every run overwrites the same bytes. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const DAMAGES: Array<{ name: string; apply: (bytes: Uint8Array, random: () => number) => Uint8Array }> = [
  { name: 'cut at 90%', apply: (b) => b.slice(0, Math.floor(b.length * 0.9)) },
  { name: 'cut at 50%', apply: (b) => b.slice(0, Math.floor(b.length * 0.5)) },
  {
    name: '30 bytes overwritten',
    apply: (b, random) => {
      const out = b.slice();
      for (let i = 0; i < 30; i++) out[Math.floor(out.length * (0.1 + 0.8 * random()))] = Math.floor(random() * 256);
      return out;
    },
  },
];

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The share of the whole file's words (as a multiset) that the damaged file's content keeps. */
function kept(whole: string, damaged: string): number {
  const count = new Map<string, number>();
  for (const w of words(whole)) count.set(w, (count.get(w) ?? 0) + 1);
  const total = [...count.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return 1;
  let common = 0;
  for (const w of words(damaged)) {
    const n = count.get(w) ?? 0;
    if (n > 0) {
      common++;
      count.set(w, n - 1);
    }
  }
  return common / total;
}

type Outcome = { ok: true; result: ExtractionResult } | { ok: false; code: string; named: boolean };

const pool = createExtractorPool({ size: 2, timeoutMs: 120_000, maxMemoryMb: 2048, prewarm: true });
const config = { ...DEFAULT_CONFIG, ocr: 'never' as const };
const run = (bytes: Uint8Array, filename: string): Promise<Outcome> =>
  pool.extract({ bytes, filename, config }).then(
    (result): Outcome => ({ ok: true, result }),
    (err: unknown): Outcome => ({ ok: false, code: (err as { code?: string }).code ?? 'none', named: err instanceof ExtractionError || typeof (err as { code?: unknown }).code === 'string' }),
  );

interface Row {
  files: number;
  read: number;
  partial: number;
  failed: Map<string, number>;
  keptSum: number;
}

const files = filesUnder(corpus).filter((f) => statSync(f).size > 0 && !f.endsWith('README.md')).sort();
const rows = new Map<string, Row>();
const unnamed: string[] = [];
const started = performance.now();
await Promise.all(
  files.map(async (file) => {
    const bytes = new Uint8Array(readFileSync(file));
    const name = relative(corpus, file);
    // The pool takes the buffer it is given over: the whole file is read from a copy.
    const whole = await run(bytes.slice(), name);
    if (!whole.ok) return;
    const format = whole.result.metadata.format;
    const random = seeded(bytes.length);
    await Promise.all(
      DAMAGES.map(async (damage) => {
        const outcome = await run(damage.apply(bytes, random), name);
        const key = `${damage.name}\t${format}`;
        const row = rows.get(key) ?? { files: 0, read: 0, partial: 0, failed: new Map<string, number>(), keptSum: 0 };
        rows.set(key, row);
        row.files++;
        if (outcome.ok) {
          row.read++;
          if ((outcome.result.metadata.failed_sections?.length ?? 0) > 0) row.partial++;
          row.keptSum += kept(whole.result.content, outcome.result.content);
        } else {
          row.failed.set(outcome.code, (row.failed.get(outcome.code) ?? 0) + 1);
          if (!outcome.named) unnamed.push(`${damage.name}: ${name}`);
        }
      }),
    );
  }),
);
await pool.close();

console.log(`damaged input: ${files.length} corpus files, each read whole and then damaged three ways; ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
console.log(['damage', 'format', 'files', 'read', 'partial', 'failed (by code)', 'words kept (read files)'].join('\t'));
for (const [key, row] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
  const failed = [...row.failed].map(([code, n]) => `${code} ${n}`).join(', ') || '-';
  console.log([key, row.files, row.read, row.partial, failed, row.read ? (row.keptSum / row.read).toFixed(3) : '-'].join('\t'));
}
const total = [...rows.values()].reduce((t, r) => ({ files: t.files + r.files, read: t.read + r.read }), { files: 0, read: 0 });
console.log(`\nread: ${total.read} of ${total.files} damaged files`);
if (unnamed.length) {
  console.log(`failed without a named extraction error (${unnamed.length}):\n  ${unnamed.join('\n  ')}`);
  process.exitCode = 1;
}
