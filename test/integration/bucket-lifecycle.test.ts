import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from '../../lambdas/adapters/aws-clients.ts';
import { sweepExpired } from '../../lib/local/bucket-lifecycle.ts';
import { bucketExpiry } from '../../lib/wiring.ts';
import { skipWithoutEndpoint, startBackend, targetsAws, type Backend } from '../support/aws-backend.ts';

describe.skipIf(skipWithoutEndpoint() || targetsAws())('the local bucket lifecycle (issue #18 item 6)', () => {
  let backend: Backend;
  beforeAll(async () => (backend = await startBackend()));
  afterAll(async () => backend?.dispose());

  it('deletes uploads and documents after a day, results and parts after two, as the stack\'s rules do', async () => {
    const s3 = s3Client(backend.clientOptions);
    const keys = ['uploads/p/j1', 'documents/p/j2', 'results/p/j3', 'parts/p/j4', 'other/x'];
    for (const key of keys) await s3.send(new PutObjectCommand({ Bucket: backend.bucket, Key: key, Body: 'x' }));
    const exists = async (key: string) =>
      s3.send(new HeadObjectCommand({ Bucket: backend.bucket, Key: key })).then(
        () => true,
        () => false,
      );
    const day = 24 * 3600 * 1000;
    expect(await sweepExpired(s3, backend.bucket, bucketExpiry, Date.now() + day / 2)).toBe(0);
    expect(await sweepExpired(s3, backend.bucket, bucketExpiry, Date.now() + day + 60_000)).toBe(2);
    expect(await exists('uploads/p/j1')).toBe(false);
    expect(await exists('documents/p/j2')).toBe(false);
    expect(await exists('results/p/j3')).toBe(true);
    expect(await sweepExpired(s3, backend.bucket, bucketExpiry, Date.now() + 2 * day + 60_000)).toBe(2);
    expect(await exists('parts/p/j4')).toBe(false);
    expect(await exists('other/x')).toBe(true);
    s3.destroy();
  });
});
