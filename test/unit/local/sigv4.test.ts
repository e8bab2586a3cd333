import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { signatureRefusal } from '../../../lib/local/sigv4.ts';

const ours = { accessKeyId: 'DOCEXLOCALTEST', secretAccessKey: 'the-data-directory-secret' };

async function presigned(secretAccessKey: string, key = 'results/a.json') {
  const s3 = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', forcePathStyle: true, credentials: { accessKeyId: ours.accessKeyId, secretAccessKey } });
  const url = new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket: 'docex-local', Key: key }), { expiresIn: 600 }));
  s3.destroy();
  return { method: 'GET', url: url.pathname + url.search, headers: { host: url.host } };
}

describe('the embedded S3 and DynamoDB signature check', () => {
  it('accepts a request signed with the data directory\'s secret, again and again', async () => {
    const request = await presigned(ours.secretAccessKey);
    for (let i = 0; i < 3; i++) expect(signatureRefusal(request, ours, { service: 's3' })).toBeNull();
  });

  it('refuses one signed with another secret for the same scope, after the right one was checked', async () => {
    expect(signatureRefusal(await presigned(ours.secretAccessKey), ours, { service: 's3' })).toBeNull();
    expect(signatureRefusal(await presigned('another-secret'), ours, { service: 's3' })).toBe('the signature does not match');
  });

  it('refuses a signed URL whose object was changed', async () => {
    const request = await presigned(ours.secretAccessKey);
    expect(signatureRefusal({ ...request, url: request.url.replace('a.json', 'b.json') }, ours, { service: 's3' })).toBe('the signature does not match');
  });
});
