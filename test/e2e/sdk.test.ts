import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  Docex,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaError,
  RateLimitError,
  ValidationError,
} from '../../sdk/src/index.ts';
import { startServer, type RunningServer } from '../support/local-server.ts';
import { checkingFetch } from '../support/openapi-check.ts';
import { makePdf } from '../support/pdf-fixture.ts';

let server: RunningServer;
let docex: Docex;
let other: Docex;

beforeAll(async () => {
  server = await startServer();
  const [a, b] = await Promise.all([server.createProject('sdk-a'), server.createProject('sdk-b')]);
  // Every answer the SDK gets is also checked against the served OpenAPI document.
  docex = new Docex({ apiKey: a.api_key, baseUrl: server.url, fetch: checkingFetch(server.url) });
  other = new Docex({ apiKey: b.api_key, baseUrl: server.url, fetch: checkingFetch(server.url) });
});
afterAll(async () => server?.stop());

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e);

describe('the SDK against the local server', () => {
  it('submits paths, Buffers, Blobs and streams, one job each in order, and waits for them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-sdk-'));
    const pdfPath = path.join(dir, 'from-path.pdf');
    fs.writeFileSync(pdfPath, makePdf({ pages: ['Text from a path'] }));
    const submitted = await docex.extract([
      pdfPath,
      { name: 'buffer.txt', data: Buffer.from('text from a buffer') },
      { name: 'blob.md', data: new Blob(['# text from a blob']) },
      { name: 'stream.txt', data: Readable.from([Buffer.from('text from '), Buffer.from('a stream')]) },
      new File(['text from a file'], 'file.txt'),
    ]);
    expect(submitted.status).toBe('pending');
    const jobs = await Promise.all(submitted.job_ids.map((id) => docex.waitForJob(id)));
    expect(jobs.map((j) => j.filename)).toEqual(['from-path.pdf', 'buffer.txt', 'blob.md', 'stream.txt', 'file.txt']);
    expect(jobs.map((j) => j.status)).toEqual(Array(5).fill('completed'));
    expect(jobs.map((j) => j.result!.content.trim())).toEqual([
      'Text from a path',
      'text from a buffer',
      '# text from a blob',
      'text from a stream',
      'text from a file',
    ]);
  });

  it('issues sandbox keys that work with the SDK', async () => {
    const key = await new Docex({ baseUrl: server.url }).createSandboxKey();
    expect(key.pages_remaining).toBe(50);
    const sandbox = new Docex({ apiKey: key.api_key, baseUrl: server.url });
    const { job_ids } = await sandbox.extract({ name: 'a.txt', data: Buffer.from('sandboxed') });
    expect((await sandbox.waitForJob(job_ids[0]!)).result!.content).toBe('sandboxed');
    const over = await rejection(sandbox.extract({ name: 'big.txt', data: Buffer.from('x'.repeat(3000 * 50)) }));
    expect(over).toBeInstanceOf(QuotaError);
  });

  it('raises a typed error for each kind of refusal', async () => {
    const { job_ids } = await docex.extract({ name: 'mine.txt', data: Buffer.from('mine') });
    expect(await rejection(other.getJob(job_ids[0]!))).toBeInstanceOf(ForbiddenError);
    expect(await rejection(docex.getJob(randomUUID()))).toBeInstanceOf(NotFoundError);
    expect(await rejection(docex.getJob('nope'))).toBeInstanceOf(ValidationError);
    expect(await rejection(new Docex({ apiKey: `kz_${'a'.repeat(29)}`, baseUrl: server.url }).getJob(job_ids[0]!))).toBeInstanceOf(AuthError);
    const limited = await rejection(docex.getJob(job_ids[0]!).then(() => docex.getJob(job_ids[0]!)));
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect(await rejection(docex.extract({ name: 'big.bin', data: new Uint8Array(4_600_000) }))).toBeInstanceOf(PayloadTooLargeError);
    const badHook = await rejection(docex.extract({ name: 'a.txt', data: Buffer.from('x') }, { webhook: { url: 'ftp://nope' } }));
    expect(badHook).toBeInstanceOf(ValidationError);
    expect((badHook as ValidationError).message).toMatch(/https/);
    expect(await rejection(new Docex({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' }).getJob(randomUUID()))).toBeInstanceOf(NetworkError);
  });

  it('aborts a wait', async () => {
    const { job_ids } = await docex.extract({ name: 'a.txt', data: Buffer.from('x') });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop waiting')), 200);
    await expect(docex.waitForJob(job_ids[0]!, { signal: controller.signal })).rejects.toThrow('stop waiting');
  });

  it('verifies webhook signatures exactly as an independent HMAC does', async () => {
    const secret = 'whsec_' + 'k'.repeat(40);
    const body = JSON.stringify({ event_id: 'e1', job_id: 'j', status: 'completed' });
    const header = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(await docex.webhooks.verify(body, header, secret)).toBe(true);
    expect(await docex.webhooks.verify(Buffer.from(body), header, secret)).toBe(true);
    expect(await docex.webhooks.verify(body, header, secret + 'x')).toBe(false);
    expect(await docex.webhooks.verify(body.replace('completed', 'failed'), header, secret)).toBe(false);
    expect(await docex.webhooks.verify(body, header.slice(0, -1), secret)).toBe(false);
    expect(await docex.webhooks.verify(body, undefined, secret)).toBe(false);
  });
});
