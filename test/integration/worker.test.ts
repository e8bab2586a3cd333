import type { SQSRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { portsOf } from '../support/record-ports.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { hashKey } from '../../lambdas/core/api-key.ts';
import type { Job, QuotaRef } from '../../lambdas/core/job.ts';
import { systemClock } from '../../lambdas/core/ports.ts';
import { ExtractionError, type ExtractInput, type ExtractionResult } from '../../lambdas/extract/engine/types.ts';
import { makeHandler } from '../../lambdas/handlers/extract-worker.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';

const resultOf = (text: string, pages = 1): ExtractionResult => ({
  content: text,
  metadata: { format: 'text', mime_type: 'text/plain', pages, char_count: text.length, word_count: 1, ocr_pages: [] },
  tables: [],
  chunks: [],
});

/** An extractor the test steers: it records calls and answers with `answer`. */
function scriptedExtractor(answer: (input: ExtractInput) => Promise<ExtractionResult>) {
  const calls: ExtractInput[] = [];
  return { calls, extract: (input: ExtractInput) => (calls.push(input), answer(input)) };
}

function record(job: Job, receiveCount: number, inline?: Uint8Array): SQSRecord {
  return {
    messageId: randomUUID(),
    receiptHandle: 'r',
    body: JSON.stringify({ job_id: job.id, project_id: job.project_id }),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: '0', SenderId: 's', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: inline ? { document: { dataType: 'Binary', binaryValue: Buffer.from(inline).toString('base64') } } : {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:extraction',
    awsRegion: 'local',
  };
}

describe.skipIf(skipWithoutEndpoint())('the extraction worker', () => {
  let backend: Backend;
  let store: DynamoStore;
  let blobs: S3Blobs;
  const finished: Job[] = [];

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
  });
  afterAll(async () => backend?.dispose());

  const worker = (extractor: ReturnType<typeof scriptedExtractor>) =>
    makeHandler({ ...portsOf(store), blobs, clock: systemClock, events: { jobFinished: async (job) => void finished.push(job) }, extractor, maxReceiveCount: 3 });

  async function sandboxQuota(pages: number): Promise<QuotaRef & { kind: 'sandbox_key' }> {
    const key_hash = hashKey(randomUUID());
    await store.putApiKey({ key_hash, project_id: randomUUID(), tier: 'sandbox', created_at: 0, revoked_at: null, ip: 'x', pages_remaining: pages, expires_at: 9e9 });
    return { kind: 'sandbox_key', key_hash };
  }

  it('completes a job from its inline document and stores the result', async () => {
    const job = makeJob();
    await store.putJobs([job]);
    const extractor = scriptedExtractor(async (input) => resultOf(Buffer.from(input.bytes).toString()));
    const response = await worker(extractor)({ Records: [record(job, 1, Buffer.from('inline words'))] });
    expect(response.batchItemFailures).toEqual([]);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 1, pages: 1 });
    const ref = (await store.getJob(job.id))?.result_ref;
    expect(JSON.parse(Buffer.from((await blobs.get(ref!.key))!).toString()).content).toBe('inline words');
  });

  it('reads a stored document from S3, then deletes it', async () => {
    const job = makeJob({ document: { kind: 's3', key: `documents/p/${randomUUID()}` } });
    await blobs.put((job.document as { key: string }).key, Buffer.from('stored words'));
    await store.putJobs([job]);
    const extractor = scriptedExtractor(async (input) => resultOf(Buffer.from(input.bytes).toString()));
    await worker(extractor)({ Records: [record(job, 1)] });
    expect(extractor.calls[0]!.filename).toBe(job.filename);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed' });
    expect(await blobs.get((job.document as { key: string }).key)).toBeNull();
  });

  it('does not redo or undo a finished job when its message comes again', async () => {
    const job = makeJob();
    await store.putJobs([job]);
    const extractor = scriptedExtractor(async () => resultOf('once'));
    const message = record(job, 1, Buffer.from('x'));
    await worker(extractor)({ Records: [message] });
    const redelivered = { ...message, attributes: { ...message.attributes, ApproximateReceiveCount: '2' } };
    const response = await worker(extractor)({ Records: [redelivered] });
    expect(response.batchItemFailures).toEqual([]);
    expect(extractor.calls).toHaveLength(1);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 1 });
    // The redelivery announces the finished job again, in case the first announcement was lost.
    expect(finished.filter((f) => f.id === job.id).map((f) => f.status)).toEqual(['completed', 'completed']);
  });

  it('fails the job with the document problem and gives its pages back', async () => {
    const quota = await sandboxQuota(10);
    await store.reservePages(quota, 4);
    const job = makeJob({ quota, pages_reserved: 4 });
    await store.putJobs([job]);
    const extractor = scriptedExtractor(async () => {
      throw new ExtractionError('encrypted_file', 'The PDF is password-protected; remove the password and resubmit.');
    });
    const response = await worker(extractor)({ Records: [record(job, 1, Buffer.from('x'))] });
    expect(response.batchItemFailures).toEqual([]);
    expect(await store.getJob(job.id)).toMatchObject({ status: 'failed', error_message: 'The PDF is password-protected; remove the password and resubmit.' });
    expect((await store.getApiKey(quota.key_hash))?.pages_remaining).toBe(10);
    expect(finished.find((f) => f.id === job.id)?.status).toBe('failed');
  });

  it('charges the pages extracted: an over-reservation is refunded', async () => {
    const quota = await sandboxQuota(10);
    await store.reservePages(quota, 5);
    const job = makeJob({ quota, pages_reserved: 5 });
    await store.putJobs([job]);
    await worker(scriptedExtractor(async () => resultOf('three pages', 3)))({ Records: [record(job, 1, Buffer.from('x'))] });
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 3, pages_reserved: 3 });
    expect((await store.getApiKey(quota.key_hash))?.pages_remaining).toBe(7);
  });

  it('fails a job whose document has more pages than the quota can still cover', async () => {
    const quota = await sandboxQuota(2);
    await store.reservePages(quota, 1);
    const job = makeJob({ quota, pages_reserved: 1 });
    await store.putJobs([job]);
    await worker(scriptedExtractor(async () => resultOf('nine pages', 9)))({ Records: [record(job, 1, Buffer.from('x'))] });
    const failed = await store.getJob(job.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.error_message).toMatch(/9 pages/);
    expect((await store.getApiKey(quota.key_hash))?.pages_remaining).toBe(2);
  });

  it('reports only the record whose attempt hit an internal error, and fails the job on the last delivery', async () => {
    const good = makeJob();
    const flaky = makeJob({ filename: 'flaky.txt' });
    await store.putJobs([good, flaky]);
    const extractor = scriptedExtractor(async (input) => {
      if (input.filename === 'flaky.txt') throw new Error('connection reset');
      return resultOf('fine');
    });
    const flakyFirst = record(flaky, 1, Buffer.from('x'));
    const response = await worker(extractor)({ Records: [record(good, 1, Buffer.from('x')), flakyFirst] });
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: flakyFirst.messageId }]);
    expect(await store.getJob(flaky.id)).toMatchObject({ status: 'processing' });

    const last = record(flaky, 3, Buffer.from('x'));
    expect((await worker(extractor)({ Records: [last] })).batchItemFailures).toEqual([]);
    const failed = await store.getJob(flaky.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 2 });
    expect(failed!.error_message).toMatch(/after 3 attempts/);
  });

  it('drops a message that is not a job reference instead of cycling it', async () => {
    const junk = { ...record(makeJob(), 1), body: 'not json' };
    expect((await worker(scriptedExtractor(async () => resultOf('x')))({ Records: [junk] })).batchItemFailures).toEqual([]);
  });
});
