import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Answer } from '../support/api-client.ts';
import { startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { makePdf } from '../support/pdf-fixture.ts';

// Time scale 0.01: the 15-minute upload window closes after 9 s.
let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { DOCEX_TIME_SCALE: '0.01' } });
  key = (await server.createProject('uploads')).api_key;
});
afterAll(async () => server?.stop());

const createUpload = (body: unknown, apiKey = key) =>
  request(server.url, 'POST', '/v1/uploads', { key: apiKey, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const getJob = (id: string) => request(server.url, 'GET', `/v1/jobs/${id}`, { key });
const terminal = (a: Answer) => a.status === 200 && ['completed', 'partial_success', 'failed', 'cancelled'].includes(a.body.status);

describe('the upload flow', () => {
  it('takes a document too large for a direct request through a presigned PUT to completed, with its large result linked', async () => {
    const line = 'A large document travels by presigned upload. ';
    const text = Buffer.from(line.repeat(Math.ceil(6_000_000 / line.length)));
    const created = await createUpload({ filename: 'large.txt', size: text.byteLength, content_type: 'text/plain' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ status: 'awaiting_upload', upload_url: expect.stringMatching(/^http/) });
    expect(Date.parse(created.body.expires_at)).toBeGreaterThan(Date.now());
    expect((await getJob(created.body.job_id)).body.status).toBe('awaiting_upload');

    const put = await fetch(created.body.upload_url, { method: 'PUT', body: text });
    expect(put.status).toBe(200);
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(done.body.pages).toBe(Math.ceil(text.byteLength / 3000));
    // Over 5 MB of result JSON is linked, never inlined or truncated.
    expect(done.body.result).toBeUndefined();
    const result = await (await fetch(done.body.result_url)).json();
    expect(result.content.length).toBe(text.byteLength);
    expect(result.metadata.pages).toBe(done.body.pages);
  });

  it('extracts an uploaded PDF with the config given at creation', async () => {
    const pdf = makePdf({ pages: ['first page', 'second page', 'third page'] });
    const created = await createUpload({ filename: 'three.pdf', size: pdf.byteLength, config: { pages: '2-3' } });
    await fetch(created.body.upload_url, { method: 'PUT', body: Buffer.from(pdf) });
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body.result.content).not.toContain('first page');
    expect(done.body.result.content).toContain('third page');
  });

  it('fails a job whose upload arrives with another size than declared', async () => {
    const created = await createUpload({ filename: 'liar.txt', size: 1000 });
    await fetch(created.body.upload_url, { method: 'PUT', body: 'only a few bytes' });
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringContaining('16 bytes, but 1000 were declared') });
  });

  it('fails a job whose upload never arrives once its URL has expired', async () => {
    const created = await createUpload({ filename: 'ghost.pdf', size: 12345 });
    const done = await waitFor(() => getJob(created.body.job_id), terminal, { timeoutMs: 60_000 });
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringContaining('did not arrive within 15 minutes') });
  });

  it('cancels a job that has not finished, once, and refuses to cancel a finished one', async () => {
    const created = await createUpload({ filename: 'never.pdf', size: 10 });
    const cancel = (id: string) => request(server.url, 'POST', `/v1/jobs/${id}/cancel`, { key });
    expect((await cancel(created.body.job_id)).body).toEqual({ id: created.body.job_id, status: 'cancelled' });
    expect((await getJob(created.body.job_id)).body.status).toBe('cancelled');
    const again = await cancel(created.body.job_id);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('already finished as cancelled');
    // The upload that arrives after a cancel changes nothing.
    await fetch(created.body.upload_url, { method: 'PUT', body: '0123456789' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await getJob(created.body.job_id)).body.status).toBe('cancelled');
    const other = (await server.createProject('other')).api_key;
    expect((await request(server.url, 'POST', `/v1/jobs/${created.body.job_id}/cancel`, { key: other })).status).toBe(403);
  });

  it('refuses a bad request with a 400 that names the field', async () => {
    for (const [body, why] of [
      [{ filename: 'a.pdf' }, /size is required/],
      [{ filename: 'a.pdf', size: 0 }, /size must be at least 1/],
      [{ filename: 'a.pdf', size: 600_000_000 }, /size must be at most 500000000/],
      [{ filename: 'a.pdf', size: 10, colour: 'red' }, /colour is not a known field/],
      [{ filename: 'a.pdf', size: 10, config: { ocr: 'sometimes' } }, /config\.ocr/],
      [{ filename: 'a.pdf', size: 10, webhook: { url: 'ftp://x' } }, /webhook\.url must use https/],
    ] as const) {
      const answer = await createUpload(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(why);
    }
    const notJson = await request(server.url, 'POST', '/v1/uploads', { key, body: 'size=3', headers: { 'content-type': 'application/json' } });
    expect(notJson.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('not valid JSON') });
  });

  it('reserves pages against the quota when the upload is created', async () => {
    const sandbox = (await request(server.url, 'POST', '/v1/sandbox/key')).body.api_key;
    const answer = await createUpload({ filename: 'huge.pdf', size: 60_000_000 }, sandbox);
    expect(answer.status).toBe(429);
    expect(answer.body.error).toBe('quota_exceeded');
  });
});
