import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExtractorPool, type Extractor } from '../../../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG, ExtractionError } from '../../../lambdas/extract/engine/types.ts';
import { layoutPdf, makePdf } from '../../support/pdf-fixture.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { faultyPool } from '../../support/fault-worker.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

let pool: Extractor | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

describe('extractor pool', () => {
  it('runs two extractions at once in separate workers', async () => {
    pool = createExtractorPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 256 });
    const finished: string[] = [];
    const bySize = { ...DEFAULT_CONFIG, chunking: { strategy: 'size' as const, max_chars: 4000, overlap: 0 } };
    const slow = pool.extract({ bytes: makePdf({ pages: Array.from({ length: 1500 }, (_, i) => `page ${i + 1}`) }), filename: 'a.pdf', config: bySize });
    const quick = pool.extract({ bytes: utf8('from the text'), filename: 'a.txt' });
    const [pdf, text] = await Promise.all([slow.then((r) => (finished.push('pdf'), r)), quick.then((r) => (finished.push('text'), r))]);
    // The text was not queued behind the long PDF.
    expect(finished).toEqual(['text', 'pdf']);
    expect(pdf.metadata.pages).toBe(1500);
    expect(text.content).toBe('from the text');
  });

  it('hands back a result written out as JSON by the worker, equal to the result itself, for a short and a long PDF', async () => {
    pool = createExtractorPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 256 });
    const short = makePdf({ pages: ['one page'] });
    const long = makePdf({ pages: Array.from({ length: 300 }, (_, i) => `page ${i + 1}`) });
    for (const bytes of [short, long]) {
      const stored = await pool.extractStored({ bytes: new Uint8Array(bytes), filename: 'a.pdf' });
      const direct = await pool.extract({ bytes: new Uint8Array(bytes), filename: 'a.pdf' });
      expect(JSON.parse(new TextDecoder().decode(stored.json))).toEqual(JSON.parse(JSON.stringify(direct)));
      expect({ pages: stored.pages, format: stored.format, partial: stored.partial }).toEqual({ pages: direct.metadata.pages, format: 'pdf', partial: false });
    }
  });

  it('queues jobs beyond its size', async () => {
    pool = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    const results = await Promise.all([1, 2, 3, 4].map((n) => pool!.extract({ bytes: makePdf({ pages: [`doc ${n}`] }), filename: 'a.pdf' })));
    expect(results.map((r) => r.content)).toEqual(['doc 1', 'doc 2', 'doc 3', 'doc 4']);
  });

  it('takes the bytes over without copying when they own their buffer', async () => {
    pool = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    const owned = utf8('moved');
    const view = utf8('xxcopiedxx').subarray(2, 8);
    const results = await Promise.all([pool.extract({ bytes: owned, filename: 'a.txt' }), pool.extract({ bytes: view, filename: 'b.txt' })]);
    expect(results.map((r) => r.content)).toEqual(['moved', 'copied']);
    expect(owned.byteLength).toBe(0); // detached: transferred
    expect(view.byteLength).toBe(6); // a view into a larger buffer is copied, not detached
  });

  it('refuses bytes it has already taken over, instead of waiting out the time limit for a message Node dropped', async () => {
    // The limit is beyond the test's own 30 s, so waiting it out fails the test.
    pool = createExtractorPool({ size: 1, timeoutMs: 60_000, maxMemoryMb: 256 });
    const bytes = makePdf({ pages: ['once'] });
    expect((await pool.extract({ bytes, filename: 'a.pdf' })).content).toBe('once');
    const bySize = { ...DEFAULT_CONFIG, chunking: { strategy: 'size' as const, max_chars: 4000, overlap: 0 } };
    await expect(pool.extract({ bytes, filename: 'a.pdf', config: bySize })).rejects.toThrow(/handed to the extractor pool before.*pass a copy/);
    await expect(pool.splitPdf(bytes, [[1]])).rejects.toThrow(/pass a copy/);
    // A document that is really empty is still the worker's to answer.
    expect((await failure(pool.extract({ bytes: new Uint8Array(0), filename: 'a.pdf' }))).code).toBe('empty_file');
  });

  it('keeps an ExtractionError raised in the worker as it is', async () => {
    pool = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    const err = await failure(pool.extract({ bytes: new Uint8Array(0), filename: 'a.txt' }));
    expect(err.code).toBe('empty_file');
    expect(err.message).toBe('The file is empty (0 bytes).');
  });

  it('turns any other error in the worker into corrupt_file', async () => {
    pool = faultyPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    const err = await failure(pool.extract({ bytes: utf8('x'), filename: 'docex-fault:throw' }));
    expect(err.code).toBe('corrupt_file');
    expect(err.message).toBe('Could not read the document: simulated parser bug');
    expect((await pool.extract({ bytes: utf8('still fine'), filename: 'a.txt' })).content).toBe('still fine');
  });

  it('stops a job that runs too long, then extracts the next document in a fresh worker', async () => {
    pool = createExtractorPool({ size: 1, timeoutMs: 300, maxMemoryMb: 256 });
    const many = makePdf({ pages: Array.from({ length: 4000 }, (_, i) => `page ${i + 1}`) });
    const err = await failure(pool.extract({ bytes: many, filename: 'many.pdf' }));
    expect(err.code).toBe('timeout');
    expect(err.message).toBe('Extraction took longer than 0.3 s; the document may be malformed or too complex.');
    expect((await pool.extract({ bytes: utf8('next document'), filename: 'a.txt' })).content).toBe('next document');
  });

  it('reports a worker that runs out of memory as out_of_memory and replaces it', async () => {
    pool = faultyPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 64 });
    const err = await failure(pool.extract({ bytes: utf8('x'), filename: 'docex-fault:oom' }));
    expect(err.code).toBe('out_of_memory');
    expect((await pool.extract({ bytes: utf8('after the crash'), filename: 'a.txt' })).content).toBe('after the crash');
  });

  it('rejects work after close', async () => {
    pool = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    await pool.close();
    await expect(pool.extract({ bytes: utf8('x'), filename: 'a.txt' })).rejects.toThrow(/closed/);
  });
});

describe('PDF engine memory', () => {
  const whoami = async (p: Extractor) => (await failure(p.extract({ bytes: utf8('x'), filename: 'docex-fault:whoami' }))).message;

  it('replaces a worker whose PDF engine grew past the limit, and the next document still extracts', async () => {
    pool = faultyPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256, recycleEngineBytes: 1 });
    const before = await whoami(pool);
    expect((await pool.extract({ bytes: makePdf({ pages: ['grows the engine'] }), filename: 'a.pdf' })).content).toBe('grows the engine');
    const after = await whoami(pool);
    expect(after).not.toBe(before);
    expect((await pool.extract({ bytes: makePdf({ pages: ['fresh worker'] }), filename: 'b.pdf' })).content).toBe('fresh worker');
  });

  it('replaces a worker after a job whose input was over the recycling size, and keeps it after a smaller one', async () => {
    pool = faultyPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256, recycleInputBytes: 1000 });
    const before = await whoami(pool);
    await pool.extract({ bytes: utf8('small text'), filename: 'a.txt' });
    expect(await whoami(pool)).toBe(before);
    expect((await pool.extract({ bytes: utf8('large text '.repeat(200)), filename: 'b.txt' })).content).toContain('large text');
    const after = await whoami(pool);
    expect(after).not.toBe(before);
    expect((await pool.extract({ bytes: utf8('next'), filename: 'c.txt' })).content).toBe('next');
  });

  it('keeps a worker whose engine stays under the limit', async () => {
    pool = faultyPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    const before = await whoami(pool);
    await pool.extract({ bytes: makePdf({ pages: ['small'] }), filename: 'a.pdf' });
    expect(await whoami(pool)).toBe(before);
  });
});

describe('a long PDF in the pool', () => {
  // Parts set large in the first half, sections smaller in the second: the sections rank second
  // only for a reader that saw the parts. Runs of pages read apart would rank them first.
  const body = (y: number) =>
    ['The body of the page runs on for a few lines of plain text,', 'set in the size that most of the document is set in, so', 'that the headings among it stand out from it.'].map((text, k) => ({ x: 72, y: y - 12 * k, text }));
  const topics = ['wells', 'pumps', 'rain', 'rivers', 'schools', 'roads', 'farms', 'mills', 'ports', 'dams', 'canals'];
  // Mid-page, each its own words: a heading, not a running head repeated at the top of every page.
  const title = (i: number) => `${i < 130 ? 'Part' : 'Section'} ${i + 1} on ${topics[i % 11]} and ${topics[(i * 7 + 3) % 11]}`;
  // Every tenth page a table of figures: the document's tables are numbered across pages read by different workers.
  const regions = ['North', 'South', 'East', 'West', 'Coast', 'Hills'];
  const cell = (i: number, r: number, c: number) => (r === 0 ? ['Region', 'Wells', 'Pumps'][c]! : c === 0 ? regions[r - 1]! : `${i * 10 + r * 3 + c}`);
  const table = (i: number) => (i % 10 === 0 ? [0, 1, 2, 3, 4, 5, 6].flatMap((r) => [0, 1, 2].map((c) => ({ x: 72 + 120 * c, y: 480 - 15 * r, text: cell(i, r, c) }))) : []);
  const page = (i: number) => ({ texts: [...body(720), { x: 72, y: 600, text: title(i), size: i < 130 ? 18 : 14, bold: true }, ...body(570), ...table(i)] });
  const bytes = layoutPdf(Array.from({ length: 260 }, (_, i) => page(i)));

  const workerLog = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docex-workers-')), 'workers.log');
  /** What the workers started, in order: [thread, filename or docex-help]. */
  const started = (log: string) => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ') as [string, string]) : []);
  async function waitForLine(log: string, what: string): Promise<void> {
    while (!started(log).some(([, w]) => w === what)) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  async function withEnv<T>(name: string, value: string, use: () => Promise<T>): Promise<T> {
    process.env[name] = value;
    try {
      return await use();
    } finally {
      delete process.env[name];
    }
  }

  it('is read with the idle workers\' help, its structure read across all its pages by one, as a read in this thread reads it', async () => {
    const log = workerLog();
    // Workers copy the environment they start with: the test-only worker module logs what each starts there.
    pool = await withEnv('DOCEX_TEST_WORKER_LOG', log, async () => faultyPool({ size: 2, timeoutMs: 60_000, maxMemoryMb: 512, prewarm: true }));
    const pooled = await pool.extract({ bytes: new Uint8Array(bytes), filename: 'long.pdf' });
    expect(started(log).map(([, what]) => what)).toContain('docex-help');
    expect(pooled).toEqual(await extract({ bytes: new Uint8Array(bytes), filename: 'long.pdf' }));
    const levels = new Set(pooled.elements!.filter((e) => e.type === 'heading').map((e) => `${e.text.split(' ')[0]} ${e.level}`));
    expect([...levels]).toEqual(['Part 1', 'Section 2']);
    expect(pooled.tables).toHaveLength(26);
    // Each table in the flow points at its own page's table in `tables`.
    expect(pooled.elements!.filter((e) => e.type === 'table').map((e) => pooled.tables![e.table!]!.page)).toEqual(pooled.tables!.map((t) => t.page));
    expect(pooled.tables!.map((t) => [t.page, t.rows[1]![1]])).toEqual(Array.from({ length: 26 }, (_, k) => [k * 10 + 1, `${k * 100 + 4}`]));
  });

  it('lets a job sent meanwhile go first: its helper leaves it for that job, then comes back', async () => {
    const log = workerLog();
    pool = await withEnv('DOCEX_TEST_WORKER_LOG', log, async () => faultyPool({ size: 2, timeoutMs: 60_000, maxMemoryMb: 512, prewarm: true }));
    const long = pool.extract({ bytes: new Uint8Array(bytes), filename: 'long.pdf' });
    await waitForLine(log, 'docex-help');
    expect((await pool.extract({ bytes: utf8('a short note'), filename: 'note.txt' })).content).toBe('a short note');
    await long;
    const helper = started(log).find(([, what]) => what === 'docex-help')![0];
    // The helper's worker took the note between two stints on the long document's pages.
    expect(started(log).filter(([thread]) => thread === helper).map(([, what]) => what)).toEqual(['docex-help', 'note.txt', 'docex-help']);
  });

  it('tells the caller how many of its pages are read as they are, from the worker that has it', async () => {
    pool = createExtractorPool({ size: 2, timeoutMs: 60_000, maxMemoryMb: 512, prewarm: true });
    const seen: Array<[number, number]> = [];
    const stored = await pool.extractStored({ bytes: new Uint8Array(bytes), filename: 'long.pdf', onProgress: (done, total) => seen.push([done, total]) });
    expect(stored.pages).toBe(260);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every(([, total]) => total === 260)).toBe(true);
    const done = seen.map(([d]) => d);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBe(260);
  });

  it('is read whole by its own worker when a helper dies, and the pool goes on', async () => {
    pool = await withEnv('DOCEX_TEST_HELPER_EXIT', '1', async () => faultyPool({ size: 2, timeoutMs: 60_000, maxMemoryMb: 512, prewarm: true }));
    expect(await pool.extract({ bytes: new Uint8Array(bytes), filename: 'long.pdf' })).toEqual(await extract({ bytes: new Uint8Array(bytes), filename: 'long.pdf' }));
    const [a, b] = await Promise.all([pool.extract({ bytes: utf8('one'), filename: 'a.txt' }), pool.extract({ bytes: utf8('two'), filename: 'b.txt' })]);
    expect([a.content, b.content]).toEqual(['one', 'two']);
  });
});

describe('the test-only faults', () => {
  it('are not in what a Lambda bundles from the pool', async () => {
    const { buildSync } = await import('esbuild');
    const bundle = buildSync({ entryPoints: [new URL('../../../lambdas/extract/engine/pool.ts', import.meta.url).pathname], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
    const text = bundle.outputFiles[0]!.text;
    expect(text).toContain('runWorker');
    expect(text).not.toContain('docex-fault');
  });
});
