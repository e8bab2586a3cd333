import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { aggregateFinish, aggregatePart, type FinishEvent, type PartEvent } from '../../lambdas/core/aggregate.ts';
import { aggregationDefinition } from '../../lambdas/core/aggregation-definition.ts';
import type { Job } from '../../lambdas/core/job.ts';
import { processChunk } from '../../lambdas/core/large-document.ts';
import { systemClock, type ChunkMessage } from '../../lambdas/core/ports.ts';
import { processJob } from '../../lambdas/core/process-job.ts';
import { extract } from '../../lambdas/extract/index.ts';
import { LocalAggregationStarter } from '../../lib/local/local-aggregation.ts';
import { LocalStateMachine } from '../../lib/local/state-machine.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';
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

  function pipeline() {
    const finished: Job[] = [];
    const sent: ChunkMessage[] = [];
    const events = { jobFinished: async (job: Job) => void finished.push(job) };
    const machine = new LocalStateMachine(
      aggregationDefinition({ part: 'part', finish: 'finish' }),
      {
        part: (input) => aggregatePart({ blobs }, input as PartEvent),
        finish: (input) => aggregateFinish({ store, blobs, clock: systemClock, events }, input as FinishEvent),
      },
      { dir: path.join(dir, randomUUID()) },
    );
    const chunkDeps = { store, blobs, clock: systemClock, extractor: { extract }, aggregation: new LocalAggregationStarter(machine) };
    const workerDeps = {
      store,
      blobs,
      clock: systemClock,
      events,
      extractor: { extract },
      split: { queue: { send: async (m: ChunkMessage[]) => void sent.push(...m) }, splitBytes: 1000, pagesPerChunk: 2 },
    };
    return { finished, sent, machine, chunkDeps, workerDeps };
  }

  async function largeJob(pages: string[]): Promise<Job> {
    const pdf = makePdf({ pages, padding: 2000 });
    const job = makeJob({ filename: 'large.pdf', size: pdf.byteLength, document: { kind: 's3', key: `documents/p/${randomUUID()}` }, pages_reserved: 0 });
    await blobs.put((job.document as { key: string }).key, pdf);
    await store.putJobs([job]);
    return job;
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
    const ref = await store.getResultRef(job.project_id, job.id);
    const result = JSON.parse(Buffer.from((await blobs.get(ref!.key))!).toString());
    expect(result.content).toBe(pageTexts(5).join('\n\n'));
    expect(result.chunks.map((c: { page_start: number; index: number }) => [c.index, c.page_start])).toEqual([0, 1, 2, 3, 4].map((i) => [i, i + 1]));
    expect(p.finished.map((j) => j.status)).toEqual(['completed']);
    expect(p.machine.describe(job.id)?.status).toBe('SUCCEEDED');
    // The document and the parts are gone once the job is done.
    expect(await blobs.get((job.document as { key: string }).key)).toBeNull();
    expect(await blobs.get(`parts/${job.project_id}/${job.id}/0.json`)).toBeNull();
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
    await aggregateFinish({ store, blobs, clock: systemClock, events: { jobFinished: async () => undefined } }, { job_id: job.id, project_id: job.project_id, parts: [] });
    expect((await store.getJob(job.id))?.status).toBe('cancelled');
    expect(await store.getResultRef(job.project_id, job.id)).toBeNull();
  });
});
