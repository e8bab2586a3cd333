import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { hashKey } from '../../lambdas/core/api-key.ts';
import type { QuotaRef } from '../../lambdas/core/job.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';

const skip = skipWithoutEndpoint();

describe.skipIf(skip)('DynamoDB and S3 adapters', () => {
  let backend: Backend;
  let store: DynamoStore;
  let blobs: S3Blobs;

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
  });
  afterAll(async () => backend?.dispose());

  async function sandboxKeyWith(pages: number): Promise<QuotaRef> {
    const keyHash = hashKey(randomUUID());
    await store.putApiKey({
      key_hash: keyHash,
      project_id: randomUUID(),
      tier: 'sandbox',
      created_at: Date.now(),
      revoked_at: null,
      ip: '198.51.100.7',
      pages_remaining: pages,
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    });
    return { kind: 'sandbox_key', key_hash: keyHash };
  }

  it('walks a job pending -> processing -> completed with conditional writes', async () => {
    const job = makeJob();
    await store.putJobs([job]);
    const processing = await store.transitionJob(job.id, 'processing', { attempts: 1 }, ['pending', 'processing']);
    expect(processing).toMatchObject({ status: 'processing', attempts: 1, filename: job.filename });
    const completed = await store.transitionJob(job.id, 'completed', { pages: 3 });
    expect(completed).toMatchObject({ status: 'completed', pages: 3 });
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 3, document: { kind: 'inline' } });
  });

  it('never moves a finished job: a redelivered claim and a late failure both lose', async () => {
    const job = makeJob({ status: 'completed' });
    await store.putJobs([job]);
    expect(await store.transitionJob(job.id, 'processing', {}, ['pending', 'processing'])).toBeNull();
    expect(await store.transitionJob(job.id, 'failed', { error_message: 'late' })).toBeNull();
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', error_message: null });
  });

  it("claims a pending job, or one whose worker died, counting each attempt; never a finished or missing one", async () => {
    const job = makeJob();
    await store.putJobs([job]);
    expect(await store.claimJob(job.id, 10)).toMatchObject({ status: 'processing', attempts: 1, updated_at: 10, filename: job.filename });
    expect(await store.claimJob(job.id, 20)).toMatchObject({ status: 'processing', attempts: 2, updated_at: 20 });
    await store.transitionJob(job.id, 'completed', { pages: 1 });
    expect(await store.claimJob(job.id, 30)).toBeNull();
    expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 2 });
    expect(await store.claimJob(randomUUID(), 30)).toBeNull();
  });

  it('refuses to create a job id twice', async () => {
    const job = makeJob();
    await store.putJobs([job]);
    await expect(store.putJobs([job])).rejects.toThrow();
  });

  it('lets exactly 50 of 60 concurrent one-page reservations through a 50-page quota', async () => {
    const quota = await sandboxKeyWith(50);
    const outcomes = await Promise.all(Array.from({ length: 60 }, () => store.reservePages(quota, 1)));
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(50);
    expect(outcomes.filter((o) => o === 'insufficient')).toHaveLength(10);
    if (quota.kind !== 'sandbox_key') throw new Error('unreachable');
    expect((await store.getApiKey(quota.key_hash))?.pages_remaining).toBe(0);
  });

  it('refunds pages back onto the quota', async () => {
    const quota = await sandboxKeyWith(5);
    expect(await store.reservePages(quota, 5)).toBe('reserved');
    await store.refundPages(quota, 2);
    expect(await store.reservePages(quota, 3)).toBe('insufficient');
    expect(await store.reservePages(quota, 2)).toBe('reserved');
  });

  it('treats a project without a page quota as unlimited and one with a quota as bounded', async () => {
    const unlimited = randomUUID();
    await store.createProject({ id: unlimited, name: 'u', created_at: Date.now() }, liveKey(unlimited));
    expect(await store.reservePages({ kind: 'project', project_id: unlimited }, 10_000)).toBe('unlimited');
    const bounded = randomUUID();
    await store.createProject({ id: bounded, name: 'b', created_at: Date.now(), pages_remaining: 3 }, liveKey(bounded));
    expect(await store.reservePages({ kind: 'project', project_id: bounded }, 4)).toBe('insufficient');
    expect(await store.reservePages({ kind: 'project', project_id: bounded }, 3)).toBe('reserved');
  });

  it('issues at most 10 sandbox keys per IP in a window, even when asked concurrently', async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 4)}`;
    const now = Date.now();
    const gates = await Promise.all(Array.from({ length: 12 }, () => store.claimSandboxIssue(ip, now, 86_400_000, 10)));
    expect(gates.filter((g) => g.ok)).toHaveLength(10);
    const refused = gates.find((g) => !g.ok);
    expect(refused && !refused.ok && refused.retryAfterMs).toBeGreaterThan(86_000_000);
    expect((await store.claimSandboxIssue(ip, now + 86_400_001, 86_400_000, 10)).ok).toBe(true);
  });

  it('lets one poll per second through, reading the job with the same write', async () => {
    const job = makeJob();
    await store.putJobs([job]);
    const t = Date.now();
    expect(await store.claimPoll(job.id, job.project_id, t, 1000)).toEqual({ ok: true, job });
    const second = await store.claimPoll(job.id, job.project_id, t + 300, 1000);
    expect(second).toEqual({ ok: false, job, retryAfterMs: 700 });
    expect(await store.claimPoll(job.id, job.project_id, t + 1000, 1000)).toEqual({ ok: true, job });
  });

  it("never records a poll of another project's job, and reads a missing job as null", async () => {
    const job = makeJob();
    await store.putJobs([job]);
    const t = Date.now();
    expect(await store.claimPoll(job.id, randomUUID(), t, 1000)).toMatchObject({ ok: false, job });
    // Its own project's poll is not held back by the refused one.
    expect(await store.claimPoll(job.id, job.project_id, t, 1000)).toEqual({ ok: true, job });
    expect(await store.claimPoll(randomUUID(), job.project_id, t, 1000)).toMatchObject({ ok: false, job: null });
  });

  it('publishes the result pointer with the write that completes the job', async () => {
    const job = makeJob({ status: 'processing' });
    await store.putJobs([job]);
    const result_ref = { key: `results/${job.project_id}/${job.id}.json`, size: 10, expires_at: 123 };
    await store.transitionJob(job.id, 'completed', { result_ref, pages: 1 });
    expect((await store.getJob(job.id))?.result_ref).toEqual(result_ref);
  });

  it("pages through a project's jobs newest first, with a status filter and a cursor", async () => {
    const project_id = randomUUID();
    const jobs = Array.from({ length: 7 }, (_, i) =>
      makeJob({ project_id, created_at: 1_000 + i, filename: `j${i}`, status: i % 2 ? 'failed' : 'completed' }),
    );
    await store.putJobs(jobs);
    await store.putJobs([makeJob({ created_at: 5_000 })]); // another project's
    const first = await store.listJobs(project_id, { limit: 3 });
    expect(first.jobs.map((j) => j.filename)).toEqual(['j6', 'j5', 'j4']);
    const second = await store.listJobs(project_id, { limit: 3, cursor: first.cursor! });
    expect(second.jobs.map((j) => j.filename)).toEqual(['j3', 'j2', 'j1']);
    const last = await store.listJobs(project_id, { limit: 3, cursor: second.cursor! });
    expect(last).toMatchObject({ cursor: null });
    expect(last.jobs.map((j) => j.filename)).toEqual(['j0']);
    const failed = await store.listJobs(project_id, { limit: 2, status: 'failed' });
    expect(failed.jobs.map((j) => j.filename)).toEqual(['j5', 'j3']);
    const failedRest = await store.listJobs(project_id, { limit: 2, status: 'failed', cursor: failed.cursor! });
    expect(failedRest.jobs.map((j) => j.filename)).toEqual(['j1']);
  });

  it("lists a project's keys, stamps their use at most once per interval, and revokes them", async () => {
    const project_id = randomUUID();
    const key = { ...liveKey(project_id), id: randomUUID(), last_four: 'abcd' };
    await store.createProject({ id: project_id, name: 'k', created_at: 1 }, key);
    await store.touchApiKey(key.key_hash, 10_000, 60_000);
    await store.touchApiKey(key.key_hash, 20_000, 60_000);
    expect(await store.listApiKeys(project_id)).toEqual([expect.objectContaining({ id: key.id, last_four: 'abcd', last_used_at: 10_000 })]);
    await store.revokeApiKey(key.key_hash, 30_000);
    expect((await store.getApiKey(key.key_hash))?.revoked_at).toBe(30_000);
  });

  it('adds up usage per day and reads a month day by day', async () => {
    const project_id = randomUUID();
    await Promise.all([store.addUsage(project_id, '2026-11-21', 3), store.addUsage(project_id, '2026-11-21', 4)]);
    await store.addUsage(project_id, '2026-11-22', 1);
    await store.addUsage(project_id, '2026-12-01', 5);
    expect(await store.getDailyUsage(project_id, '2026-11')).toEqual({ '2026-11-21': 7, '2026-11-22': 1 });
    expect(await store.getDailyUsage(project_id, '2026-10')).toEqual({});
  });

  it('stores, reads and deletes S3 objects byte-exact, and reads a missing one as null', async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256);
    await blobs.put('documents/p/j', bytes);
    expect(Buffer.from((await blobs.get('documents/p/j'))!).equals(Buffer.from(bytes))).toBe(true);
    await blobs.delete('documents/p/j');
    expect(await blobs.get('documents/p/j')).toBeNull();
  });

  it('writes an object from pieces, in parts once it is larger than one, and only once all of it is there', async () => {
    // Three and a half parts of pieces with multi-byte characters, and a small object that needs no multipart upload.
    const piece = `${'é'.repeat(40_000)}🙂\n`;
    const count = Math.ceil((3.5 * S3Blobs.PART_BYTES) / Buffer.byteLength(piece));
    async function* pieces(n: number, failAt?: number) {
      for (let i = 0; i < n; i++) {
        if (i === failAt) throw new Error('the merge failed');
        yield piece;
      }
    }
    const size = await blobs.putStream('results/p/large.json', pieces(count), 'application/json');
    expect(size).toBe(count * Buffer.byteLength(piece));
    const stored = Buffer.from((await blobs.get('results/p/large.json'))!);
    expect(stored.byteLength).toBe(size);
    expect(stored.toString('utf8', 0, Buffer.byteLength(piece) * 2)).toBe(piece + piece);
    expect(stored.subarray(-Buffer.byteLength(piece)).toString()).toBe(piece);
    expect(await blobs.putStream('results/p/small.json', pieces(2))).toBe(2 * Buffer.byteLength(piece));
    expect(Buffer.from((await blobs.get('results/p/small.json'))!).toString()).toBe(piece + piece);
    // A failure half way leaves no object behind.
    await expect(blobs.putStream('results/p/failed.json', pieces(count, count - 2))).rejects.toThrow('the merge failed');
    expect(await blobs.get('results/p/failed.json')).toBeNull();
  });
});

const liveKey = (projectId: string) => ({
  key_hash: hashKey(randomUUID()),
  project_id: projectId,
  tier: 'live' as const,
  created_at: Date.now(),
  revoked_at: null,
});
