import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { portsOf } from '../support/record-ports.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { S3UploadUrls } from '../../lambdas/adapters/s3-signed-urls.ts';
import { hashKey } from '../../lambdas/core/api-key.ts';
import type { Principal } from '../../lambdas/core/auth.ts';
import type { Job } from '../../lambdas/core/job.ts';
import { systemClock, type ExtractionMessage } from '../../lambdas/core/ports.ts';
import { createUpload, uploadArrived, uploadDeadline } from '../../lambdas/core/uploads.ts';
import { countPages } from '../../lambdas/extract/engine/page-count.ts';
import { formatNamed } from '../../lambdas/extract/engine/registry.ts';
import { blobClient, skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makePdf } from '../support/pdf-fixture.ts';

describe.skipIf(skipWithoutEndpoint())('the upload flow over the real store and bucket', () => {
  let backend: Backend;
  let store: DynamoStore;
  let blobs: S3Blobs;
  const sent: { message: ExtractionMessage; delay?: number }[] = [];
  const finished: Job[] = [];
  const queue = { send: async (message: ExtractionMessage, _inline: Uint8Array | null, delay?: number) => void sent.push({ message, delay }) };
  const events = { jobFinished: async (job: Job) => void finished.push(job) };
  const intake = { allowLoopbackHttp: true, lookupHost: async () => ['127.0.0.1'], cipher: { encrypt: async (s: string) => s, decrypt: async (s: string) => s } };

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    blobs = new S3Blobs(blobClient(backend), backend.bucket);
  });
  afterAll(async () => backend?.dispose());

  async function sandbox(pages: number): Promise<Principal> {
    const key_hash = hashKey(randomUUID());
    const project_id = randomUUID();
    await store.putApiKey({ key_hash, project_id, tier: 'sandbox', created_at: 0, revoked_at: null, ip: 'x', pages_remaining: pages, expires_at: 9e9 });
    return { project_id, tier: 'sandbox', key_hash, quota: { kind: 'sandbox_key', key_hash } };
  }
  const remaining = async (p: Principal) => (await store.getApiKey(p.key_hash))?.pages_remaining;
  const create = (principal: Principal, body: object) =>
    createUpload({ ...portsOf(store), queue, urls: new S3UploadUrls(blobClient(backend), backend.bucket), clock: systemClock, intake: intake as never }, principal, JSON.stringify(body));
  const arrivalDeps = () => ({ ...portsOf(store), blobs, queue, clock: systemClock, events, countPages: async (input: Parameters<typeof countPages>[0]) => countPages(input), nameFormat: formatNamed });

  it('reserves a page per started MB, then settles to the counted pages when the document arrives, once', async () => {
    const principal = await sandbox(50);
    const pdf = makePdf({ pages: ['one', 'two'] });
    const padded = Buffer.concat([Buffer.from(pdf), Buffer.alloc(2_500_000 - pdf.byteLength, 0x20)]);
    const created = await create(principal, { filename: 'a.pdf', size: padded.byteLength });
    expect(await remaining(principal)).toBe(47);
    expect(sent.at(-1)).toEqual({ message: { job_id: created.job_id, project_id: principal.project_id, kind: 'upload_deadline' }, delay: 900 });

    const key = `uploads/${principal.project_id}/${created.job_id}`;
    await blobs.put(key, padded);
    await uploadArrived(arrivalDeps(), key, padded.byteLength);
    await uploadArrived(arrivalDeps(), key, padded.byteLength);
    expect(await store.getJob(created.job_id)).toMatchObject({ status: 'pending', pages_reserved: 2, format_hint: 'pdf' });
    expect(await remaining(principal)).toBe(48);
    expect(sent.filter((s) => s.message.job_id === created.job_id && !s.message.kind)).toHaveLength(1);
  });

  it('takes up an upload whose storage event was lost when its deadline comes', async () => {
    const principal = await sandbox(50);
    const created = await create(principal, { filename: 'b.txt', size: 5 });
    await blobs.put(`uploads/${principal.project_id}/${created.job_id}`, Buffer.from('hello'));
    expect(await uploadDeadline({ ...portsOf(store), blobs, clock: systemClock, events }, created.job_id)).toBe(true);
    expect((await store.getJob(created.job_id))?.status).toBe('pending');
  });

  it('fails an upload that never came at its deadline, refunding its pages and announcing it', async () => {
    const principal = await sandbox(50);
    const created = await create(principal, { filename: 'c.txt', size: 3_000_000 });
    expect(await remaining(principal)).toBe(47);
    expect(await uploadDeadline({ ...portsOf(store), blobs, clock: systemClock, events }, created.job_id)).toBe(false);
    expect(await store.getJob(created.job_id)).toMatchObject({ status: 'failed', error_message: expect.stringContaining('did not arrive') });
    expect(await remaining(principal)).toBe(50);
    expect(finished.at(-1)).toMatchObject({ id: created.job_id, status: 'failed' });
  });
});
