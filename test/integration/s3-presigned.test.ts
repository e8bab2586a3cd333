import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { blobClient, skipWithoutEndpoint, startBackend, type Backend } from '../support/aws-backend.ts';

// The upload flow for documents over the direct limit hands out presigned PUT
// URLs made with the adapter's S3 client; the client then PUTs without any
// AWS credentials. This checks that such a URL works against the endpoint and
// that the adapter reads back exactly what was PUT. (Refusing a tampered URL is
// S3's job and not checked: moto accepts any signature.)
describe.skipIf(skipWithoutEndpoint())('presigned S3 PUT', () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend();
  });
  afterAll(async () => backend?.dispose());

  const presign = (key: string, contentType: string, expiresIn = 300) =>
    getSignedUrl(blobClient(backend), new PutObjectCommand({ Bucket: backend.bucket, Key: key, ContentType: contentType }), { expiresIn });

  it('accepts a credential-less PUT to the signed URL, readable byte-exact through the adapter', async () => {
    const key = 'documents/p/presigned-upload';
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 13) % 256);
    const url = await presign(key, 'application/pdf');
    const put = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/pdf' } });
    expect(put.status, await put.text()).toBe(200);
    const stored = await new S3Blobs(blobClient(backend), backend.bucket).get(key);
    expect(Buffer.from(stored!).equals(Buffer.from(bytes))).toBe(true);
  });

});
