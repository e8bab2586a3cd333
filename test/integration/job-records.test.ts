import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoJobs } from '../../lambdas/adapters/dynamo-jobs.ts';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { formatPageRanges, parseExtractionConfig } from '../../lambdas/core/extraction-config.ts';
import { skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';
import { randomUUID } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { Job } from '../../lambdas/core/job.ts';
import type { JobFinish } from '../../lambdas/core/ports.ts';

describe.skipIf(skipWithoutEndpoint())('job records (issue #18 item 3)', () => {
  let backend: Backend;
  let store: DynamoStore;
  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
  });
  afterAll(async () => backend?.dispose());

  it('stores a page selection as ranges, so "1-100000" fits in one item, and reads it back as the list', async () => {
    const config = parseExtractionConfig('{"pages":"1-100000"}');
    expect(config.pages).toHaveLength(100_000);
    const job = makeJob({ config });
    await store.putJobs([job]);
    const read = await store.getJob(job.id);
    expect(read!.config!.pages).toHaveLength(100_000);
    expect(read!.config!.pages!.at(-1)).toBe(100_000);
    const moved = await store.transitionJob(job.id, 'processing');
    expect(moved!.config!.pages).toEqual(config.pages);
  });

  it('formats ranges compactly', () => {
    expect(formatPageRanges([1, 2, 3, 5, 8, 9])).toBe('1-3,5,8-9');
    expect(formatPageRanges([])).toBe('');
  });

  it('writes a submission\'s jobs all or none', async () => {
    const good = makeJob();
    // Over DynamoDB's 400 KB item limit: this one cannot be written.
    const huge = makeJob({ project_id: good.project_id, filename: 'x'.repeat(500 * 1024) });
    await expect(store.putJobs([good, huge])).rejects.toThrow();
    expect(await store.getJob(good.id)).toBeNull();
    expect(await store.getJob(huge.id)).toBeNull();
  });

  describe('finishing a job: transition, quota and usage in one write', () => {
    const project = async (pages: number | undefined) => {
      const id = randomUUID();
      await store.createProject({ id, name: 'f', created_at: Date.now(), ...(pages === undefined ? {} : { pages_remaining: pages }) }, { key_hash: randomUUID(), project_id: id, tier: 'live', created_at: Date.now(), revoked_at: null });
      return id;
    };
    const remaining = async (id: string) => {
      const { Item } = await storeClient(backend).send(new GetItemCommand({ TableName: backend.table, Key: { pk: { S: `PROJECT#${id}` }, sk: { S: 'PROJECT' } }, ConsistentRead: true }));
      return Item?.pages_remaining?.N === undefined ? undefined : Number(Item.pages_remaining.N);
    };
    const usage = async (id: string) => (await store.getDailyUsage(id, '2026-11'))['2026-11-24'] ?? 0;
    /** What finishing `job` on `pages` extracted writes. */
    const finishing = (job: Job, pages: number): JobFinish => ({
      id: job.id,
      to: 'completed',
      patch: { pages, pages_reserved: pages, updated_at: Date.now() },
      from: ['processing'],
      quota: job.quota,
      shortfall: pages - job.pages_reserved,
      usage: { project_id: job.project_id, day: '2026-11-24', pages },
    });
    const finish = (job: Job, pages: number) => store.finishJob(finishing(job, pages));

    it('takes the shortfall, completes and counts usage once, however often it is delivered', async () => {
      const id = await project(10);
      const job = makeJob({ project_id: id, status: 'processing', quota: { kind: 'project', project_id: id }, pages_reserved: 2 });
      await store.putJobs([job]);
      expect(await finish(job, 5)).toMatchObject({ status: 'completed', pages: 5, pages_reserved: 5 });
      expect(await remaining(id)).toBe(7);
      expect(await usage(id)).toBe(5);
      // A redelivery (the job finished already): nothing is written, nothing charged again.
      expect(await finish(job, 5)).toBeNull();
      expect(await remaining(id)).toBe(7);
      expect(await usage(id)).toBe(5);
      // moto and AWS have transactions; the embedded dynalite has none, and the writes run in their crash order.
      expect(store.transactional).toBe(backend.name !== 'dynalite+s3rver');
    });

    it('refunds an over-reservation, and charges an unlimited project nothing but usage', async () => {
      const bounded = await project(10);
      const over = makeJob({ project_id: bounded, status: 'processing', quota: { kind: 'project', project_id: bounded }, pages_reserved: 6 });
      const unlimited = await project(undefined);
      const free = makeJob({ project_id: unlimited, status: 'processing', quota: { kind: 'project', project_id: unlimited }, pages_reserved: 0 });
      await store.putJobs([over, free]);
      expect(await finish(over, 4)).toMatchObject({ status: 'completed' });
      expect(await remaining(bounded)).toBe(12);
      expect(await finish(free, 30)).toMatchObject({ status: 'completed', pages: 30 });
      expect(await remaining(unlimited)).toBeUndefined();
      expect(await usage(unlimited)).toBe(30);
    });

    // Without transactions (dynalite), each crash point between the writes, then the redelivery that follows it:
    // what each costs is what finishInSteps documents, never a job finished on pages its quota did not have.
    describe('in steps, crashing between two writes', () => {
      // The jobs adapter makes these writes itself (through its quotas and usage records), so the crash is set there.
      const crashing = (after: 'reservePages' | 'transitionJob' | 'addUsage') => {
        const steps = new DynamoStore(storeClient(backend), backend.table).jobs;
        const owner = (after === 'reservePages' ? steps.quotas : after === 'addUsage' ? steps.usage : steps) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
        const real = owner[after]!.bind(owner);
        owner[after] = async (...args: unknown[]) => {
          await real(...args);
          throw new Error(`crashed after ${after}`);
        };
        return steps;
      };
      const inSteps = (s: DynamoJobs, job: Job, pages: number) => s['finishInSteps'](finishing(job, pages));
      const started = async (quota: number, reserved: number) => {
        const id = await project(quota);
        const job = makeJob({ project_id: id, status: 'processing', quota: { kind: 'project', project_id: id }, pages_reserved: reserved });
        await store.putJobs([job]);
        return { id, job };
      };

      it('after the shortfall: the redelivery takes it again, and the job completes counted once', async () => {
        const { id, job } = await started(10, 2);
        await expect(inSteps(crashing('reservePages'), job, 5)).rejects.toThrow('crashed after reservePages');
        expect(await store.getJob(job.id)).toMatchObject({ status: 'processing' });
        expect(await inSteps(store.jobs, job, 5)).toMatchObject({ status: 'completed' });
        expect(await remaining(id)).toBe(4);
        expect(await usage(id)).toBe(5);
      });

      it('after the transition: the redelivery finds the job finished and writes nothing, so its usage is lost', async () => {
        const { id, job } = await started(10, 2);
        await expect(inSteps(crashing('transitionJob'), job, 5)).rejects.toThrow('crashed after transitionJob');
        expect(await inSteps(store.jobs, job, 5)).toBeNull();
        expect(await store.getJob(job.id)).toMatchObject({ status: 'completed', pages: 5 });
        expect(await remaining(id)).toBe(7);
        expect(await usage(id)).toBe(0);
      });

      it('after the usage: the refund of an over-reservation is lost, nothing is counted twice', async () => {
        const { id, job } = await started(10, 6);
        await store.reservePages({ kind: 'project', project_id: id }, 6);
        await expect(inSteps(crashing('addUsage'), job, 4)).rejects.toThrow('crashed after addUsage');
        expect(await inSteps(store.jobs, job, 4)).toBeNull();
        expect(await remaining(id)).toBe(4);
        expect(await usage(id)).toBe(4);
      });
    });

    it('writes nothing when the quota cannot cover the shortfall', async () => {
      const id = await project(2);
      const job = makeJob({ project_id: id, status: 'processing', quota: { kind: 'project', project_id: id }, pages_reserved: 1 });
      await store.putJobs([job]);
      expect(await finish(job, 4)).toBe('insufficient');
      expect(await store.getJob(job.id)).toMatchObject({ status: 'processing', pages_reserved: 1 });
      expect(await remaining(id)).toBe(2);
      expect(await usage(id)).toBe(0);
    });
  });
});
