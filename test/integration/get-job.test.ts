import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import type { Principal } from '../../lambdas/core/auth.ts';
import { getJobView, type JobView } from '../../lambdas/core/get-job.ts';
import type { Job } from '../../lambdas/core/job.ts';
import { putResult } from '../../lambdas/core/job-result.ts';
import { limits } from '../../lambdas/core/limits.ts';
import type { ExtractionResult } from '../../lambdas/extract/types.ts';
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
  let now = Date.now();
  const clock = { now: () => now };
  const read = async (principal: Principal, id: string): Promise<JobView> => JSON.parse((await getJobView({ store, blobs, clock }, principal, id)).text);
  const nextSecond = () => (now += limits.minPollIntervalMs);

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
  });
  afterAll(async () => backend?.dispose());

  async function completedJob(resultAt = now): Promise<Job> {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    const result_ref = await putResult(blobs, job, result, resultAt);
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
});
