import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { portsOf } from '../support/record-ports.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { hashKey } from '../../lambdas/core/api-key.ts';
import { aggregateFailed, aggregateFinish, aggregatePart, MERGE_FAILED_MESSAGE, type FailedEvent, type FinishEvent, type PartEvent } from '../../lambdas/core/aggregate.ts';
import { aggregationDefinition } from '../../lambdas/core/aggregation-definition.ts';
import type { ChunkRange, Job } from '../../lambdas/core/job.ts';
import { planRanges } from '../../lambdas/extract/engine/range-planners.ts';
import { planSheetParts } from '../../lambdas/extract/formats/ooxml/sheet-parts.ts';
import { countPages } from '../../lambdas/extract/engine/page-count.ts';
import { processChunk } from '../../lambdas/core/large-document.ts';
import { systemClock, type ChunkMessage, type WebhookMessage } from '../../lambdas/core/ports.ts';
import { processJob } from '../../lambdas/core/process-job.ts';
import { WebhookEvents } from '../../lambdas/core/webhook-events.ts';
import { extract, type ExtractionResult } from '../../lambdas/extract/engine/extract.ts';
import { splitPdf } from '../../lambdas/extract/formats/pdf/split.ts';
import { createExtractorPool } from '../../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG } from '../../lambdas/extract/engine/types.ts';
import { MAX_CELLS } from '../../lambdas/extract/engine/limits.ts';
import { LocalAggregationStarter } from '../../lib/local/local-aggregation.ts';
import { LocalStateMachine } from '../../lib/local/state-machine.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';
import { makeXlsx } from '../support/office-fixture.ts';
import { makePdf } from '../support/pdf-fixture.ts';

// The pipeline's core over the real store and bucket adapters, with small
// thresholds (a 1 kB split, 2 pages per chunk) so it runs in a moment.
describe.skipIf(skipWithoutEndpoint())('the large-document pipeline', () => {
  let backend: Backend;
  let store: DynamoStore;
  let blobs: S3Blobs;
  let dir: string;

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-aggregation-'));
  });
  afterAll(async () => {
    await backend?.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * `finish` replaces the merge step (to make it fail); `beforePart` holds the
   * aggregation's first step until it resolves; webhook messages are kept in `announced`.
   */
  function pipeline(opts: { finish?: (event: FinishEvent) => Promise<unknown>; beforePart?: () => Promise<void> } = {}) {
    const finished: Job[] = [];
    const sent: ChunkMessage[] = [];
    const announced: WebhookMessage[] = [];
    const webhooks = new WebhookEvents({ ...portsOf(store), queue: { send: async (m) => void announced.push(m) }, clock: systemClock });
    const events = { jobFinished: async (job: Job) => (finished.push(job), webhooks.jobFinished(job)) };
    const deps = { ...portsOf(store), blobs, clock: systemClock, events };
    const machine = new LocalStateMachine(
      aggregationDefinition({ part: 'part', finish: 'finish', fail: 'fail' }),
      {
        part: async (input) => (await opts.beforePart?.(), aggregatePart({ blobs }, input as PartEvent)),
        finish: (input) => (opts.finish ?? ((event) => aggregateFinish(deps, event)))(input as FinishEvent),
        fail: (input) => aggregateFailed(deps, input as FailedEvent),
      },
      // Retries wait 2 s, 4 s, 8 s, 16 s in AWS; a thousandth of that here.
      { dir: path.join(dir, randomUUID()), timeScale: 0.001 },
    );
    const chunkDeps = { ...portsOf(store), blobs, clock: systemClock, extractor: { extract }, aggregation: new LocalAggregationStarter(machine) };
    const workerDeps = {
      ...portsOf(store),
      blobs,
      clock: systemClock,
      events,
      extractor: { extract },
      split: {
        queue: { send: async (m: ChunkMessage[]) => void sent.push(...m) },
        splitBytes: 1000,
        pagesPerChunk: 2,
        ranges: { planRanges: async (bytes: Uint8Array, format: string, runs: ChunkRange[]) => planRanges(bytes, format, runs) },
        // Sheets cut into parts of 20 cells, so a small workbook has a sheet too large for one chunk.
        pages: { planPages: async (bytes: Uint8Array, format: string, pages: number[] | null) => (format === 'xlsx' ? planSheetParts(bytes, pages, { part: { cells: 20, text: 1e9 } }) : null) },
      },
    };
    return { finished, sent, announced, machine, chunkDeps, workerDeps };
  }

  async function largeJob(pages: string[], extra: Partial<Job> = {}): Promise<Job> {
    return storedJob(makePdf({ pages, padding: 2000 }), 'large.pdf', extra);
  }

  async function storedJob(bytes: Uint8Array, filename: string, extra: Partial<Job> = {}): Promise<Job> {
    const job = makeJob({ filename, size: bytes.byteLength, document: { kind: 's3', key: `documents/p/${randomUUID()}` }, pages_reserved: 0, ...extra });
    await blobs.put((job.document as { key: string }).key, bytes);
    await store.putJobs([job]);
    return job;
  }

  async function resultOf(job: Job): Promise<ExtractionResult> {
    const ref = (await store.getJob(job.id))?.result_ref;
    return JSON.parse(Buffer.from((await blobs.get(ref!.key))!).toString());
  }

  const once = { receiveCount: 1, maxReceiveCount: 3 };
  const pageTexts = (n: number) => Array.from({ length: n }, (_, i) => `page ${i + 1} words`);

  it('splits a large document into one chunk message per page range and shows progress from zero', async () => {
    const p = pipeline();
    const job = await largeJob(pageTexts(5));
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(p.sent).toEqual([0, 1, 2].map((index) => ({ job_id: job.id, project_id: job.project_id, index })));
    expect(await store.getJob(job.id)).toMatchObject({
      status: 'chunking',
      pages_total: 5,
      pages_done: 0,
      chunk_plan: [
        { index: 0, first_page: 1, last_page: 2 },
        { index: 1, first_page: 3, last_page: 4 },
        { index: 2, first_page: 5, last_page: 5 },
      ],
    });
    // A redelivered extraction message re-sends only chunks not yet recorded.
    await processChunk(p.chunkDeps, p.sent[0]!, once);
    p.sent.length = 0;
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(p.sent.map((m) => m.index)).toEqual([1, 2]);
  });

  it('counts a duplicated chunk message once, and merges every page once and in order', async () => {
    const p = pipeline();
    const job = await largeJob(pageTexts(5));
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    const [first, second, third] = p.sent as [ChunkMessage, ChunkMessage, ChunkMessage];
    // The same message twice at once (SQS at-least-once), then again later, then the rest, then all again.
    await Promise.all([processChunk(p.chunkDeps, first, once), processChunk(p.chunkDeps, first, once)]);
    await processChunk(p.chunkDeps, first, { receiveCount: 2, maxReceiveCount: 3 });
    expect(await store.getJob(job.id)).toMatchObject({ status: 'chunking', chunks_done: [0], pages_done: 2 });
    await Promise.all([processChunk(p.chunkDeps, third, once), processChunk(p.chunkDeps, second, once), processChunk(p.chunkDeps, third, once)]);
    await p.machine.idle();
    for (const m of [first, second, third]) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    const done = await store.getJob(job.id);
    expect(done).toMatchObject({ status: 'completed', pages: 5, pages_done: 5, chunks_done: [0, 1, 2] });
    const result = await resultOf(job);
    expect(result.content).toBe(pageTexts(5).join('\n\n'));
    expect(result.chunks.map((c: { page_start: number; index: number }) => [c.index, c.page_start])).toEqual([0, 1, 2, 3, 4].map((i) => [i, i + 1]));
    expect(p.finished.map((j) => j.status)).toEqual(['completed']);
    expect(p.machine.describe(job.id)?.status).toBe('SUCCEEDED');
    // The document and the parts are gone once the job is done.
    expect(await blobs.get((job.document as { key: string }).key)).toBeNull();
    expect(await blobs.get(`parts/${job.project_id}/${job.id}/0.json`)).toBeNull();
  });

  it('cuts a large PDF into one PDF per chunk, so chunk workers read only their own pages, numbered as in the document', async () => {
    const p = pipeline();
    const split = { ...p.workerDeps.split, pdf: { splitPdf } };
    const job = await largeJob(pageTexts(7), { config: { ...DEFAULT_CONFIG, pages: [2, 3, 5, 7] } });
    await processJob({ ...p.workerDeps, split }, { job_id: job.id, project_id: job.project_id }, null, once);
    const planned = (await store.getJob(job.id))!;
    expect(planned.chunk_plan).toEqual([
      { index: 0, first_page: 2, last_page: 3, source: { key: `parts/${job.project_id}/${job.id}/0.pdf`, pages_total: 7 } },
      { index: 1, first_page: 5, last_page: 7, source: { key: `parts/${job.project_id}/${job.id}/1.pdf`, pages_total: 7 } },
    ]);
    // Each chunk's PDF holds only its selected pages: the second has pages 5 and 7, not 6.
    const second = await extract({ bytes: (await blobs.get(planned.chunk_plan![1]!.source!.key))!, filename: 'part.pdf' });
    expect(second.content).toBe('page 5 words\n\npage 7 words');

    const read: string[] = [];
    const recording = { ...blobs, get: (key: string) => (read.push(key), blobs.get(key)), put: blobs.put.bind(blobs), delete: blobs.delete.bind(blobs) };
    for (const m of p.sent) await processChunk({ ...p.chunkDeps, blobs: recording as typeof blobs }, m, once);
    await p.machine.idle();
    expect(read.filter((key) => key.endsWith('.pdf') || key.startsWith('documents/'))).toEqual(planned.chunk_plan!.map((r) => r.source!.key));

    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 4 });
    const result = await resultOf(job);
    expect(result.content).toBe(['page 2 words', 'page 3 words', 'page 5 words', 'page 7 words'].join('\n\n'));
    expect(result.chunks.map((c) => [c.page_start, c.page_end])).toEqual([[2, 2], [3, 3], [5, 5], [7, 7]]);
    expect(result.metadata).toMatchObject({ pages: 4, pages_total: 7 });
    // The chunks' PDFs go with the rest of the job's objects.
    for (const range of planned.chunk_plan!) expect(await blobs.get(range.source!.key)).toBeNull();
  });

  it('plans a large PDF over the pages the engine opens where the count at submission found others', async () => {
    const p = pipeline();
    const pool = createExtractorPool({ size: 1, timeoutMs: 60_000, maxMemoryMb: 1024 });
    try {
      const split = { ...p.workerDeps.split, pdf: { splitPdf, pdfDocument: pool.pdfDocument! } };
      // The page tree has no /Count, and two page objects belong to no tree: the structural count finds 7, PDFium 5.
      const source = Buffer.from(makePdf({ pages: pageTexts(5), padding: 2000 })).toString('latin1').replace(/\/Count 5/, '');
      const at = source.lastIndexOf('xref');
      const orphans = '80 0 obj\n<< /Type /Page /MediaBox [0 0 612 792] >>\nendobj\n81 0 obj\n<< /Type /Page /MediaBox [0 0 612 792] >>\nendobj\n';
      const bytes = new Uint8Array(Buffer.from(source.slice(0, at) + orphans + source.slice(at), 'latin1'));
      expect(countPages({ bytes, filename: 'large.pdf' })).toBe(7);
      const job = await storedJob(bytes, 'large.pdf');
      await processJob({ ...p.workerDeps, split }, { job_id: job.id, project_id: job.project_id }, null, once);
      expect((await store.getJob(job.id))!.pages_total).toBe(5);
      for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
      await p.machine.idle();
      // Not partial_success with two pages that "could not be read".
      expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 5 });
      expect((await resultOf(job)).content).toBe(pageTexts(5).join('\n\n'));
    } finally {
      await pool.close();
    }
  });

  it('reads a chunk from the whole document when its own PDF is gone', async () => {
    const p = pipeline();
    const job = await largeJob(pageTexts(4));
    await processJob({ ...p.workerDeps, split: { ...p.workerDeps.split, pdf: { splitPdf } } }, { job_id: job.id, project_id: job.project_id }, null, once);
    const planned = (await store.getJob(job.id))!;
    await blobs.delete(planned.chunk_plan![0]!.source!.key);
    for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 4 });
    expect((await resultOf(job)).content).toBe(pageTexts(4).join('\n\n'));
  });

  it('splits a large workbook by sheets: chunking, then aggregating, then completed with every sheet in order', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const p = pipeline({ beforePart: () => held });
    const sheets = Array.from({ length: 5 }, (_, i) => ({ name: `Sheet ${i + 1}`, rows: [['Item', 'Qty'], [`item of sheet ${i + 1}`, i + 1]] }));
    const xlsx = makeXlsx(sheets, { 'xl/media/image1.png': new Uint8Array(2000) });
    const job = await storedJob(xlsx, 'book.xlsx');

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(await store.getJob(job.id)).toMatchObject({
      status: 'chunking',
      pages_total: 5,
      chunk_plan: [
        { index: 0, first_page: 1, last_page: 2 },
        { index: 1, first_page: 3, last_page: 4 },
        { index: 2, first_page: 5, last_page: 5 },
      ],
    });
    for (const m of [...p.sent].reverse()) await processChunk(p.chunkDeps, m, once);
    expect((await store.getJob(job.id))?.status).toBe('aggregating');
    release();
    await p.machine.idle();

    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 5 });
    const result = await resultOf(job);
    const whole = await extract({ bytes: xlsx, filename: 'book.xlsx' });
    expect(result.content).toBe(whole.content);
    expect(result.tables).toEqual(whole.tables);
    expect(result.tables.map((t) => t.sheet)).toEqual(sheets.map((s) => s.name));
    expect(result.chunks.map((c) => c.page_start)).toEqual([1, 2, 3, 4, 5]);
    expect(result.metadata).toMatchObject({ format: 'xlsx', pages: 5, pages_total: 5, page_unit: 'sheet', sheets: sheets.map((s) => s.name), failed_page_ranges: [] });
  });

  it('cuts a sheet too large for one chunk into runs of its rows, and merges them into the page a whole read gives', async () => {
    const p = pipeline();
    const large = [[null, 'Item', 'Qty', 'Note'], ...Array.from({ length: 45 }, (_, i) => [null, `item ${i}`, i, i % 3 === 0 ? `note ${i}` : null])];
    const sheets = [
      { name: 'Small', rows: [['a', 'b']] },
      { name: 'Large', rows: large },
      { name: 'Last', rows: [['z', 'y']] },
    ];
    const xlsx = makeXlsx(sheets, { 'xl/media/image1.png': new Uint8Array(2000) });
    const job = await storedJob(xlsx, 'book.xlsx');

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    const chunking = (await store.getJob(job.id))!;
    const plan = chunking.chunk_plan!;
    // The small sheets stay whole; the large one is a chunk per part, and progress counts it once.
    expect(chunking).toMatchObject({ status: 'chunking', pages_total: 3 });
    expect(plan[0]).toEqual({ index: 0, first_page: 1, last_page: 1 });
    expect(plan.at(-1)).toEqual({ index: plan.length - 1, first_page: 3, last_page: 3 });
    const parts = plan.filter((r) => r.page_part);
    expect(parts.length).toBeGreaterThan(4);
    expect(parts.every((r) => r.first_page === 2 && r.last_page === 2)).toBe(true);
    for (const m of [...p.sent].reverse()) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 3, pages_done: 3 });
    const result = await resultOf(job);
    const whole = await extract({ bytes: xlsx, filename: 'book.xlsx' });
    expect(result.content).toBe(whole.content);
    expect(result.tables).toEqual(whole.tables);
    expect(result.elements).toEqual(whole.elements);
    expect(result.metadata).toMatchObject({ pages: 3, word_count: whole.metadata.word_count, char_count: whole.metadata.char_count, failed_page_ranges: [] });
    // Every chunk of the large sheet's later parts knows the sheet it belongs to.
    expect(result.chunks.filter((c) => c.page_start === 2).every((c) => c.headings.includes('Large'))).toBe(true);
  });

  it('splits a large CSV at row boundaries and merges its chunks back into one table with one header', async () => {
    const p = pipeline();
    const lines = ['id,name,comment', ...Array.from({ length: 300 }, (_, i) => `${i + 1},item ${i + 1},"a comment, with a comma\nand a line break"`)];
    const csv = new Uint8Array(Buffer.from(lines.join('\n') + '\n'));
    const job = await storedJob(csv, 'large.csv');

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    const planned = (await store.getJob(job.id))!;
    expect(planned.status).toBe('chunking');
    expect(planned.chunk_plan!.length).toBeGreaterThan(2);
    for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    expect((await store.getJob(job.id))?.status).toBe('completed');
    const result = await resultOf(job);
    const whole = await extract({ bytes: csv, filename: 'large.csv' });
    expect(result.content).toBe(whole.content);
    expect(result.tables).toEqual(whole.tables);
    expect(result.tables[0]!.rows).toHaveLength(301);
    expect(result.tables[0]!.rows[0]).toEqual(['id', 'name', 'comment']);
    expect(result.content.match(/^id\tname/gm)).toHaveLength(1);
    // Each chunk read its rows' bytes only, located when the file was planned.
    expect(planned.range_layout).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ',', header: [0, 16] });
    expect(p.sent.every((m) => m.run && m.run[1] - m.run[0] < csv.byteLength / 2)).toBe(true);
  });

  it('reads a UTF-16 TSV chunk by chunk from its rows and merges it as a whole read gives it', async () => {
    const p = pipeline();
    const lines = ['', 'id\tname\tnote', ...Array.from({ length: 1000 }, (_, i) => `${i + 1}\tnäme ${i + 1} 🙂\t${i % 4 === 0 ? '"two\nlines"' : 'one'}`)];
    const tsv = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines.join('\r\n'), 'utf16le')]));
    const job = await storedJob(tsv, 'large.tsv');

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    const planned = (await store.getJob(job.id))!;
    expect(planned.range_layout).toMatchObject({ format: 'tsv', encoding: 'utf-16le' });
    expect(planned.chunk_plan!.length).toBeGreaterThan(3);
    for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    expect((await store.getJob(job.id))?.status).toBe('completed');
    const result = await resultOf(job);
    const whole = await extract({ bytes: tsv, filename: 'large.tsv' });
    expect(result.content).toBe(whole.content);
    expect(result.tables).toEqual(whole.tables);
    // The file's own text pages, as counted for the quota (a whole read pages its rendered table instead).
    expect(result.metadata).toMatchObject({ pages: countPages({ bytes: tsv, filename: 'large.tsv' }), encoding: 'utf-16le' });
  });

  it('reads a large text file chunk by chunk from its own bytes and merges it as a whole read gives it', async () => {
    const p = pipeline();
    const text = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: ${'naïve café 🙂 '.repeat(5 + (i % 60))}`).join('\n\n');
    const bytes = new Uint8Array(Buffer.from(text));
    const job = await storedJob(bytes, 'notes.txt');

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    const planned = (await store.getJob(job.id))!;
    expect(planned.range_layout).toEqual({ format: 'text', encoding: 'utf-8', pages_total: countPages({ bytes, filename: 'notes.txt' }) });
    expect(planned.merge_rules).toEqual({ separator: '' });
    // Each chunk's bytes are its pages' (and no more: a paragraph running on over its end is cut there, as a whole read of its pages cuts it),
    // carried by its message; the job record keeps none of them.
    expect(p.sent.every((m) => m.run && m.run[4] === m.run[1] && m.run[1] - m.run[0] < bytes.byteLength / 4)).toBe(true);
    expect(JSON.stringify(planned.chunk_plan)).not.toContain('run');
    // A redelivered extraction message sends the chunks not yet recorded again, with the same runs.
    const sent = [...p.sent];
    await processChunk(p.chunkDeps, sent[0]!, once);
    p.sent.length = 0;
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(p.sent).toEqual(sent.slice(1));
    for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    expect((await store.getJob(job.id))?.status).toBe('completed');
    const result = await resultOf(job);
    const whole = await extract({ bytes, filename: 'notes.txt' });
    expect(result.content).toBe(whole.content);
    expect(result.chunks).toEqual(whole.chunks);
    expect({ ...result.metadata, failed_page_ranges: [] }).toEqual({ ...whole.metadata, failed_page_ranges: [] });
  });

  it('fails a large PDF over the page limit when planning, with the whole-document error, and sends no chunk', async () => {
    const p = pipeline();
    const job = await storedJob(makePdf({ pages: Array.from({ length: 5001 }, () => 'x') }), 'many.pdf');
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: 'The PDF has 5,001 pages; the limit is 5,000.' });
    expect(p.sent).toEqual([]);
    expect(p.finished.map((j) => j.status)).toEqual(['failed']);
  });

  it('fails a large workbook over the cell limit when planning, and sends no chunk', async () => {
    const p = pipeline();
    const rows = Array.from({ length: 20 }, (_, r) => [`a${r}`, `b${r}`]);
    const job = await storedJob(makeXlsx([{ name: 'S', rows }], { 'xl/media/image1.png': new Uint8Array(2000) }), 'cells.xlsx');
    // A cap of 30 cells where the sheet has 40 with text.
    const pages = { planPages: async (bytes: Uint8Array, _format: string, selected: number[] | null) => planSheetParts(bytes, selected, { part: { cells: 20, text: 1e9 }, maxCells: 30 }) };
    await processJob({ ...p.workerDeps, split: { ...p.workerDeps.split, pages } }, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/^The workbook has more than 2,000,000 cells/) });
    expect(p.sent).toEqual([]);
  });

  it('holds a workbook split into chunks to the cell limit as a whole, before its parts are loaded', async () => {
    const p = pipeline();
    const plan = [{ index: 0, first_page: 1, last_page: 50 }, { index: 1, first_page: 51, last_page: 60 }];
    const job = await storedJob(new Uint8Array(10), 'big.xlsx', { status: 'aggregating', chunk_plan: plan, chunks_done: [0, 1] });
    const batch = (i: number, cells: number) => ({ batch: [i, i] as [number, number], key: `parts/${job.project_id}/${job.id}/measured-${i}.json`, cells });
    // Each chunk was under the limit when read; together they are over it. No part nor measurement exists, so loading one would fail otherwise.
    await aggregateFinish(p.workerDeps, { job_id: job.id, project_id: job.project_id, measured: [batch(0, MAX_CELLS - 10), batch(1, 11)] });
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: 'The spreadsheet has more than 2,000,000 cells; the limit is 2,000,000.' });
    expect(p.finished.map((j) => j.status)).toEqual(['failed']);
  });

  it('leaves a large document it cannot split to the whole-document path, which says what is wrong', async () => {
    const p = pipeline();
    const bytes = new Uint8Array(4000).fill(0x01);
    const job = makeJob({ filename: 'large.bin', size: bytes.byteLength, document: { kind: 's3', key: `documents/p/${randomUUID()}` }, pages_reserved: 0 });
    await blobs.put((job.document as { key: string }).key, bytes);
    await store.putJobs([job]);
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    expect(p.sent).toEqual([]);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/supported/i) });
  });

  it('fails the job when the merge step fails after its retries: quota returned, job.failed announced, document and parts deleted', async () => {
    let merges = 0;
    const p = pipeline({
      finish: async () => {
        merges++;
        throw new Error('out of memory while merging');
      },
    });
    const key_hash = hashKey(randomUUID());
    await store.putApiKey({ key_hash, project_id: randomUUID(), tier: 'sandbox', created_at: 0, revoked_at: null, ip: 'x', pages_remaining: 10, expires_at: 9e9 });
    const quota = { kind: 'sandbox_key' as const, key_hash };
    await store.reservePages(quota, 3);
    const job = await largeJob(pageTexts(3), { quota, pages_reserved: 3, webhook: { url: 'https://hooks.example.com/docex' } });

    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    for (const m of p.sent) await processChunk(p.chunkDeps, m, once);
    await p.machine.idle();

    expect(merges).toBe(5);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: MERGE_FAILED_MESSAGE, pages_reserved: 0 });
    expect(MERGE_FAILED_MESSAGE).toMatch(/Submit the file again/);
    expect((await store.getApiKey(key_hash))?.pages_remaining).toBe(10);
    expect(p.announced).toEqual([expect.objectContaining({ event: 'job.failed', job_id: job.id, status: 'failed', error_message: MERGE_FAILED_MESSAGE })]);
    expect((await store.getJob(job.id))?.result_ref).toBeUndefined();
    expect(await blobs.get((job.document as { key: string }).key)).toBeNull();
    expect(await blobs.get(`parts/${job.project_id}/${job.id}/0.json`)).toBeNull();
    // The execution still ends failed, so the state machine's alarm reports the merge failure.
    expect(p.machine.describe(job.id)).toMatchObject({ status: 'FAILED', error: 'docex.AggregationFailed' });

    // A late redelivered chunk message finds the job failed: nothing changes, nothing is announced twice.
    await processChunk(p.chunkDeps, p.sent[0]!, once);
    await p.machine.idle();
    expect((await store.getJob(job.id))?.status).toBe('failed');
    expect(p.announced).toHaveLength(1);
  });

  it('skips the chunks of a cancelled job, and an aggregation cannot complete it', async () => {
    const p = pipeline();
    const job = await largeJob(pageTexts(3));
    await processJob(p.workerDeps, { job_id: job.id, project_id: job.project_id }, null, once);
    await processChunk(p.chunkDeps, p.sent[0]!, once);
    expect(await store.transitionJob(job.id, 'cancelled')).toMatchObject({ status: 'cancelled' });
    await processChunk(p.chunkDeps, p.sent[1]!, once);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'cancelled', chunks_done: [0] });
    expect(await store.recordChunk(job.id, 1, 'done', 1, Date.now())).toBeNull();
    // An aggregation that was already under way when the cancel landed changes nothing.
    await aggregateFinish({ ...portsOf(store), blobs, clock: systemClock, events: { jobFinished: async () => undefined } }, { job_id: job.id, project_id: job.project_id, measured: [] });
    expect((await store.getJob(job.id))?.status).toBe('cancelled');
    expect((await store.getJob(job.id))?.result_ref).toBeUndefined();
  });
});
