import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeForm, multipart, request, submit, type Answer } from '../support/api-client.ts';
import { waitFor } from '../support/local-server.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { localOnly, startTarget, type Target } from '../support/target.ts';

let server: Target;
let alice: { project_id: string; api_key: string };
let bob: { project_id: string; api_key: string };

beforeAll(async () => {
  server = await startTarget();
  alice = await server.createProject('alice');
  if (!server.remote) bob = await server.createProject('bob');
});
afterAll(async () => server?.stop());

const getJob = (id: string, key = alice.api_key) => request(server.url, 'GET', `/v1/jobs/${id}`, { key });
const finished = (answer: Answer) => ['completed', 'partial_success', 'failed', 'cancelled'].includes(answer.body?.status);
const untilDone = (id: string, key = alice.api_key) => waitFor(() => getJob(id, key), finished);

const expectError = (answer: Answer, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ error: code, message: expect.any(String) });
  expect(answer.body.message.length).toBeGreaterThan(20);
};

describe('submitting and collecting', () => {
  it('creates one job per file, in submission order, and completes each with its own result', async () => {
    const pdf = makePdf({
      pages: ['Quarterly report\nRevenue grew', 'Second page text', 'Third page closes'],
      info: { Title: 'Q3 Report', Author: 'Ada Lovelace', CreationDate: "D:20240102030405+00'00'" },
    });
    const accepted = await submit(
      server.url,
      alice.api_key,
      multipart([
        { name: 'report.pdf', bytes: pdf, type: 'application/pdf' },
        { name: 'notes.md', bytes: '# Notes\n\nPlain *markdown* body.' },
        { name: 'latin.txt', bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x6f, 0x6b, 0x94]) },
      ]),
    );
    expect(accepted.status).toBe(202);
    expect(accepted.body.status).toBe('pending');
    expect(accepted.body.job_ids).toHaveLength(3);

    const [pdfJob, mdJob, txtJob] = await Promise.all(accepted.body.job_ids.map((id: string) => untilDone(id)));
    expect(pdfJob!.body).toMatchObject({ id: accepted.body.job_ids[0], filename: 'report.pdf', status: 'completed', pages: 3 });
    const result = pdfJob!.body.result;
    expect(result.content.indexOf('Revenue grew')).toBeLessThan(result.content.indexOf('Second page text'));
    expect(result.content.indexOf('Second page text')).toBeLessThan(result.content.indexOf('Third page closes'));
    expect(result.metadata).toMatchObject({ format: 'pdf', pages: 3, title: 'Q3 Report', author: 'Ada Lovelace' });
    expect(result.metadata.created_at).toMatch(/^2024-01-02T03:04:05/);
    expect(result.chunks).toHaveLength(3);
    expect(pdfJob!.body.error_message).toBeUndefined();

    expect(mdJob!.body).toMatchObject({ filename: 'notes.md', status: 'completed' });
    expect(mdJob!.body.result.metadata.format).toBe('markdown');
    expect(mdJob!.body.result.content).toContain('Plain *markdown* body.');
    expect(txtJob!.body.result.content).toBe('café “ok”');
    expect(txtJob!.body.result.metadata.encoding).toBe('windows-1252');
  });

  it('carries a document over 1 MB through storage instead of inline', async () => {
    const line = 'The quick brown fox jumps over the lazy dog. ';
    // Over the 1 MB an SQS message carries, and small enough that content, chunks and elements fit an inline answer.
    const text = line.repeat(Math.ceil(1_200_000 / line.length));
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'big.txt', bytes: text }]));
    expect(accepted.status).toBe(202);
    const done = await untilDone(accepted.body.job_ids[0]);
    expect(done.body.status).toBe('completed');
    expect(done.body.result.content.length).toBe(text.length);
  });

  it('fails a job whose file is not a supported format, naming what is supported', async () => {
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x00, 0x10, 0x89, 0x13, 0x00, 0x00, 0x07]);
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'blob.bin', bytes: binary }]));
    const done = await untilDone(accepted.body.job_ids[0]);
    expect(done.body.status).toBe('failed');
    expect(done.body.error_message).toMatch(/PDF/);
    expect(done.body.result).toBeUndefined();
  });

  it('fails an empty file with a message that says it is empty', async () => {
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'empty.pdf', bytes: new Uint8Array(0), type: 'application/pdf' }]));
    expect(accepted.status).toBe(202);
    const done = await untilDone(accepted.body.job_ids[0]);
    expect(done.body.status).toBe('failed');
    expect(done.body.error_message).toMatch(/empty/i);
  });

  it('accepts an inline webhook, and an empty webhook url meaning none', async () => {
    // Plain http to localhost is a development allowance of the local server only.
    for (const url of ['https://hooks.example.com/docex', '', ...(server.remote ? [] : ['http://localhost:9999/hook'])]) {
      const answer = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'hello' }], { webhook: JSON.stringify({ url }) }));
      expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    }
  });
});

describe('authentication and isolation', () => {
  it('answers 401 for a missing, malformed or unknown key', async () => {
    expectError(await request(server.url, 'GET', `/v1/jobs/${randomUUID()}`), 401, 'unauthorized');
    expectError(await request(server.url, 'GET', `/v1/jobs/${randomUUID()}`, { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
    expectError(await getJob(randomUUID(), 'kz_short'), 401, 'unauthorized');
    expectError(await getJob(randomUUID(), `kz_${'A'.repeat(29)}`), 401, 'unauthorized');
  });

  it("keeps projects apart: another project's job is 403, an unknown id 404, a malformed id 400", async ({ skip }) => {
    if (localOnly('project isolation needs a second project, which only the local server hands the tests')) skip();
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'alice only' }]));
    const id = accepted.body.job_ids[0];
    expectError(await getJob(id, bob.api_key), 403, 'forbidden');
    expectError(await getJob(randomUUID(), bob.api_key), 404, 'not_found');
    expectError(await getJob('not-a-uuid', bob.api_key), 400, 'invalid_request');
    expect((await untilDone(id)).body.result.content).toBe('alice only');
  });

  it('answers 429 with Retry-After to polls of one job faster than once a second', async () => {
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'x' }]));
    const id = accepted.body.job_ids[0];
    expect((await getJob(id)).status).toBe(200);
    const again = await getJob(id);
    expectError(again, 429, 'rate_limited');
    expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('the sandbox', () => {
  it('issues a 50-page key bound to the caller IP', async ({ skip }) => {
    if (localOnly('the sandbox tests pose as several client IPs through loopback source addresses')) skip();
    const issued = await request(server.url, 'POST', '/v1/sandbox/key', { localAddress: '127.0.0.4' });
    expect(issued.status).toBe(201);
    expect(issued.body.api_key).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);
    expect(issued.body.pages_remaining).toBe(50);
    const key = issued.body.api_key;

    const form = multipart([{ name: 'hi.txt', bytes: 'sandbox hello' }]);
    const accepted = await submit(server.url, key, form, '127.0.0.4');
    expect(accepted.status).toBe(202);
    expectError(await submit(server.url, key, multipart([{ name: 'hi.txt', bytes: 'x' }]), '127.0.0.5'), 401, 'unauthorized');
    const done = await waitFor(() => request(server.url, 'GET', `/v1/jobs/${accepted.body.job_ids[0]}`, { key, localAddress: '127.0.0.4' }), finished);
    expect(done.body.result.content).toBe('sandbox hello');
  });

  it('gives one IP 10 keys a day and answers the 11th with rate_limited', async ({ skip }) => {
    if (localOnly('the sandbox tests pose as several client IPs through loopback source addresses')) skip();
    const ask = () => request(server.url, 'POST', '/v1/sandbox/key', { localAddress: '127.0.0.6' });
    const answers = await Promise.all(Array.from({ length: 10 }, ask));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const eleventh = await ask();
    expectError(eleventh, 429, 'rate_limited');
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(80_000);
    expect((await request(server.url, 'POST', '/v1/sandbox/key', { localAddress: '127.0.0.7' })).status).toBe(201);
  });

  it('never lets 60 concurrent one-page submissions overspend a 50-page key', async ({ skip }) => {
    if (localOnly('the sandbox tests pose as several client IPs through loopback source addresses')) skip();
    const key = (await request(server.url, 'POST', '/v1/sandbox/key', { localAddress: '127.0.0.8' })).body.api_key;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => submit(server.url, key, multipart([{ name: `p${i}.txt`, bytes: `page ${i}` }]), '127.0.0.8')),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(50);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused).toHaveLength(10);
    for (const answer of refused) expectError(answer, 429, 'quota_exceeded');
  });
});

describe('client mistakes are 4xx with a message', () => {
  const raw = (body: string | Buffer, contentType: string) =>
    request(server.url, 'POST', '/v1/extract', { key: alice.api_key, body, headers: { 'content-type': contentType } });

  it('wrong content type is 415', async () => {
    expectError(await raw('{"file":"x"}', 'application/json'), 415, 'unsupported_media_type');
  });

  it('broken multipart is 400', async () => {
    const broken = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated';
    expectError(await raw(broken, 'multipart/form-data; boundary=XYZ'), 400, 'invalid_request');
    expectError(await raw('whatever', 'multipart/form-data'), 400, 'invalid_request');
  });

  it('a form without a file part is 400', async () => {
    const form = new FormData();
    form.append('webhook', '{"url":""}');
    const { body, contentType } = await encodeForm(form);
    expectError(await raw(body, contentType), 400, 'invalid_request');
  });

  it('a bad webhook field is 400', async () => {
    for (const webhook of ['not json', '["https://x"]', '{"url":42}', '{"url":"ftp://x.example"}', '{"url":"http://example.com/h"}', '{"url":"https://x.example","colour":"red"}']) {
      const answer = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'x' }], { webhook }));
      expectError(answer, 400, 'invalid_request');
    }
  });

  it('an unknown form field is 400 naming it', async () => {
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'x' }], { colour: 'red' }));
    expectError(answer, 400, 'invalid_request');
    expect(answer.body.message).toContain('colour');
  });

  it('files over the direct-upload limit are 413 and point at the upload flow', async () => {
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'big.txt', bytes: Buffer.alloc(4_600_000, 0x61) }]));
    expectError(answer, 413, 'payload_too_large');
    expect(answer.body.message).toContain('/v1/uploads');
    const huge = await submit(server.url, alice.api_key, multipart([{ name: 'huge.txt', bytes: Buffer.alloc(7_000_000, 0x61) }]));
    expectError(huge, 413, 'payload_too_large');
  });

  it('an unknown route is a JSON 404', async () => {
    expectError(await request(server.url, 'GET', '/v1/nothing', { key: alice.api_key }), 404, 'not_found');
  });
});
