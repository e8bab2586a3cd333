import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { portsOf } from '../support/record-ports.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { S3DownloadUrls } from '../../lambdas/adapters/s3-signed-urls.ts';
import type { Principal } from '../../lambdas/core/auth.ts';
import { getJobView, type JobView } from '../../lambdas/core/get-job.ts';
import type { Job } from '../../lambdas/core/job.ts';
import { putResultJson, resultJson } from '../../lambdas/core/job-result.ts';
import { limits } from '../../lambdas/core/limits.ts';
import type { ExtractionResult } from '../../lambdas/extract/engine/types.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';

const principalOf = (project_id: string): Principal => ({ project_id, tier: 'live', key_hash: 'h', quota: { kind: 'project', project_id } });

/** The fields every answer has. */
const viewOf = (job: Job) => ({
  id: job.id,
  filename: job.filename,
  status: job.status,
  created_at: new Date(job.created_at).toISOString(),
  updated_at: new Date(job.updated_at).toISOString(),
});

const result: ExtractionResult = {
  content: 'the words',
  metadata: { format: 'text', mime_type: 'text/plain', pages: 1, char_count: 9, word_count: 2, ocr_pages: [] },
  tables: [],
  chunks: [],
};

describe.skipIf(skipWithoutEndpoint())('reading a job (GET /v1/jobs/{id})', () => {
  let backend: Backend;
  let store: DynamoStore;
  let blobs: S3Blobs;
  let downloadUrls: S3DownloadUrls;
  let now = Date.now();
  const clock = { now: () => now };
  const read = async (principal: Principal, id: string): Promise<JobView> => JSON.parse((await getJobView({ ...portsOf(store), blobs, downloadUrls, clock }, principal, id)).text);
  const nextSecond = () => (now += limits.minPollIntervalMs);

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
    downloadUrls = new S3DownloadUrls(blobClient(backend), backend.bucket);
  });
  afterAll(async () => backend?.dispose());

  async function completedJob(resultAt = now): Promise<Job> {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    const result_ref = await putResultJson(blobs, job, resultJson(result), resultAt);
    return (await store.transitionJob(job.id, 'completed', { pages: 1, result_ref, updated_at: resultAt }))!;
  }

  it('answers a completed job with its result, read through the pointer the completing write left', async () => {
    const job = await completedJob();
    nextSecond();
    expect(await read(principalOf(job.project_id), job.id)).toEqual({ ...viewOf(job), pages: 1, result });
  });

  it('answers a job still running without a result', async () => {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    expect(await read(principalOf(job.project_id), job.id)).toEqual(viewOf(job));
  });

  it('shows the pages read so far of a document read whole, recorded only while it is read', async () => {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    const reading = (await store.transitionJob(job.id, 'processing', { pages_done: 40, pages_total: 619 }, ['processing']))!;
    expect(await read(principalOf(job.project_id), job.id)).toEqual({ ...viewOf(reading), progress: { pages_done: 40, pages_total: 619 } });
    const done = (await store.transitionJob(job.id, 'failed', { error_message: 'The PDF could not be read.' }))!;
    // A write of progress that comes after the end is refused, and a finished job shows none.
    expect(await store.transitionJob(job.id, 'processing', { pages_done: 80, pages_total: 619 }, ['processing'])).toBeNull();
    nextSecond();
    expect(await read(principalOf(job.project_id), job.id)).toEqual({ ...viewOf(done), error_message: 'The PDF could not be read.' });
  });

  it('answers 429 with the wait to a second poll within a second, then lets the next one through', async () => {
    const job = await completedJob();
    nextSecond();
    await read(principalOf(job.project_id), job.id);
    now += 400;
    await expect(read(principalOf(job.project_id), job.id)).rejects.toMatchObject({ status: 429, headers: { 'Retry-After': '1' } });
    now += 600;
    expect((await read(principalOf(job.project_id), job.id)).status).toBe('completed');
  });

  it("answers 403 to another project's key without counting its poll against the owner", async () => {
    const job = await completedJob();
    nextSecond();
    await expect(read(principalOf(randomUUID()), job.id)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect((await read(principalOf(job.project_id), job.id)).status).toBe('completed');
  });

  it('answers 404 to an unknown job and to a record past its retention that TTL has not deleted yet', async () => {
    await expect(read(principalOf(randomUUID()), randomUUID())).rejects.toMatchObject({ status: 404 });
    const old = makeJob({ expires_at: Math.floor(now / 1000) - 1 });
    await store.putJobs([old]);
    await expect(read(principalOf(old.project_id), old.id)).rejects.toMatchObject({ status: 404 });
  });

  it('answers 410 result_expired once the 12-hour result cache has passed, though the job record is kept', async () => {
    const job = await completedJob(now - 13 * 3600_000);
    nextSecond();
    await expect(read(principalOf(job.project_id), job.id)).rejects.toMatchObject({ status: 410, code: 'result_expired' });
  });

  /** A completed job whose stored result is `content` in a result: its size is the stored JSON's. */
  async function completedWith(content: string): Promise<{ job: Job; stored: number }> {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    const result_ref = await putResultJson(blobs, job, resultJson({ ...result, content }), now);
    await store.transitionJob(job.id, 'completed', { pages: 1, result_ref, updated_at: now });
    return { job, stored: result_ref.size };
  }

  it('inlines a result as long as the answer, escaped as Lambda sends it, fits 6 MB, and links one whose escaping would not', async () => {
    // 5 MB of plain words: about as large escaped as stored.
    const plain = await completedWith('words and more words '.repeat(238_000));
    // Under 5 MB stored, but quotes, backslashes and line breaks are escaped once more inside the Lambda response: past 6 MB.
    const escaped = await completedWith('"quoted" \\ \n'.repeat(300_000));
    expect(plain.stored).toBeGreaterThan(4_900_000);
    expect(escaped.stored).toBeLessThan(plain.stored);
    nextSecond();
    const inline = await getJobView({ ...portsOf(store), blobs, downloadUrls, clock }, principalOf(plain.job.project_id), plain.job.id);
    expect(Buffer.byteLength(JSON.stringify({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: inline.text }))).toBeLessThan(limits.responseBytes);
    expect(JSON.parse(inline.text).result.content).toHaveLength(21 * 238_000);
    const linked: JobView = JSON.parse((await getJobView({ ...portsOf(store), blobs, downloadUrls, clock }, principalOf(escaped.job.project_id), escaped.job.id)).text);
    expect(linked.result).toBeUndefined();
    expect(linked.result_url).toMatch(/^http/);
    // The link serves the very result that was stored.
    expect((await (await fetch(linked.result_url!)).json()).content).toBe('"quoted" \\ \n'.repeat(300_000));
  });
});
