import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { formatPageRanges, parseExtractionConfig } from '../../lambdas/core/extraction-config.ts';
import { skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';

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
});
