import { afterEach, describe, expect, it } from 'vitest';
import { createExtractorPool, type Extractor } from '../../../lambdas/extract/engine/pool.ts';
import { spreadPlan } from '../../../lambdas/extract/engine/spread.ts';
import { DEFAULT_CONFIG, ExtractionError } from '../../../lambdas/extract/engine/types.ts';
import { makePdf } from '../../support/pdf-fixture.ts';
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
    // Chunked by size, so it is one worker's whole read (a long PDF chunked by page is spread over both: see below).
    const bySize = { ...DEFAULT_CONFIG, chunking: { strategy: 'size' as const, max_chars: 4000, overlap: 0 } };
    const slow = pool.extract({ bytes: makePdf({ pages: Array.from({ length: 1500 }, (_, i) => `page ${i + 1}`) }), filename: 'a.pdf', config: bySize });
    const quick = pool.extract({ bytes: utf8('from the text'), filename: 'a.txt' });
    const [pdf, text] = await Promise.all([slow.then((r) => (finished.push('pdf'), r)), quick.then((r) => (finished.push('text'), r))]);
    // The text was not queued behind the long PDF.
    expect(finished).toEqual(['text', 'pdf']);
    expect(pdf.metadata.pages).toBe(1500);
    expect(text.content).toBe('from the text');
  });

  it('hands back a result written out as JSON by the worker, equal to the result itself, for a one-worker read and a spread one', async () => {
    pool = createExtractorPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 256 });
    const short = makePdf({ pages: ['one page'] });
    const long = makePdf({ pages: Array.from({ length: 300 }, (_, i) => `page ${i + 1}`) });
    for (const bytes of [short, long]) {
      const stored = await pool.extractStored({ bytes: new Uint8Array(bytes), filename: 'a.pdf' });
      const direct = await pool.extract({ bytes: new Uint8Array(bytes), filename: 'a.pdf' });
      expect(JSON.parse(new TextDecoder().decode(stored.json))).toEqual(JSON.parse(JSON.stringify(direct)));
      expect({ pages: stored.pages, format: stored.format, partial: stored.partial }).toEqual({ pages: direct.metadata.pages, format: 'pdf', partial: false });
    }
    expect(spreadPlan({ bytes: long, filename: 'a.pdf' }, 2)).not.toBeNull();
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

describe('a long PDF spread over the pool', () => {
  const pages = (n: number) => Array.from({ length: n }, (_, i) => `page ${i + 1} of the long one`);

  it('plans one run of pages per worker, at least 100 pages each, only for a PDF chunked by page', () => {
    const pdf = (n: number) => ({ bytes: makePdf({ pages: pages(n) }), filename: 'long.pdf' });
    expect(spreadPlan(pdf(250), 2)?.map((run) => [run[0], run.at(-1)])).toEqual([
      [1, 125],
      [126, 250],
    ]);
    expect(spreadPlan(pdf(199), 2)).toBeNull();
    expect(spreadPlan(pdf(250), 1)).toBeNull();
    expect(spreadPlan({ ...pdf(250), config: { ...DEFAULT_CONFIG, chunking: { strategy: 'section', max_chars: 4000, overlap: 0 } } }, 2)).toBeNull();
    const selected = { ...pdf(400), config: { ...DEFAULT_CONFIG, pages: Array.from({ length: 200 }, (_, i) => 2 * i + 1) } };
    expect(spreadPlan(selected, 4)?.map((run) => [run[0], run.at(-1), run.length])).toEqual([
      [1, 199, 100],
      [201, 399, 100],
    ]);
    expect(spreadPlan({ bytes: utf8('x '.repeat(400_000)), filename: 'long.txt' }, 2)).toBeNull();
  });

  it('gives exactly what one worker gives, whole or with a selection', async () => {
    const one = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    pool = createExtractorPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 256 });
    try {
      for (const config of [DEFAULT_CONFIG, { ...DEFAULT_CONFIG, pages: Array.from({ length: 230 }, (_, i) => i + 20) }]) {
        // A Buffer, as the server reads uploads: its slice is a view of the same memory, which a transfer would detach.
        const input = () => ({ bytes: Buffer.from(makePdf({ pages: pages(260), info: { Title: 'Long' } })), filename: 'long.pdf', config });
        expect(await pool!.extract(input())).toEqual(await one.extract(input()));
      }
    } finally {
      await one.close();
    }
  });

  it('reads the whole document with one worker when every page of a run is damaged, keeping the other pages', async () => {
    const one = createExtractorPool({ size: 1, timeoutMs: 20_000, maxMemoryMb: 256 });
    pool = createExtractorPool({ size: 2, timeoutMs: 20_000, maxMemoryMb: 256 });
    try {
      const input = () => ({ bytes: makePdf({ pages: pages(260), brokenPages: Array.from({ length: 130 }, (_, i) => i + 1) }), filename: 'half.pdf' });
      const spread = await pool.extract(input());
      expect(spread).toEqual(await one.extract(input()));
      expect(spread.content).toContain('page 260 of the long one');
    } finally {
      await one.close();
    }
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
