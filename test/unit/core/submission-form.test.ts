import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { parseSubmission } from '../../../lambdas/core/submission-form.ts';
import type { WebhookIntake } from '../../../lambdas/core/webhook-target.ts';

// A reversible cipher is enough here: what is tested is that the form's secret never reaches the job in plaintext.
const policy: WebhookIntake = {
  allowLoopbackHttp: false,
  lookupHost: async () => ['93.184.215.14'],
  cipher: {
    encrypt: async (text, context) => Buffer.from(`${context}:${text}`).toString('base64'),
    decrypt: async (sealed, context) => Buffer.from(sealed, 'base64').toString().slice(context.length + 1),
  },
};
const PROJECT = '5b0a3d5e-8f7e-4a63-9d4c-4f0e4b1c2a10';

async function encode(form: FormData) {
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type')! };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('reading a submission', () => {
  it('keeps files in order with their names, bytes and declared types', async () => {
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from([1, 2, 3])], { type: 'application/pdf' }), 'a.pdf');
    form.append('webhook', '{"url":"https://h.example/x"}');
    form.append('file', new Blob(['text']), 'b.txt');
    const { body, type } = await encode(form);
    const submission = await parseSubmission(body, type, policy, PROJECT);
    expect(submission.files.map((f) => f.filename)).toEqual(['a.pdf', 'b.txt']);
    expect([...submission.files[0]!.bytes]).toEqual([1, 2, 3]);
    expect(submission.files[0]!.contentType).toBe('application/pdf');
    expect(submission.files[1]!.contentType).toBeNull();
    expect(submission.webhook).toEqual({ url: 'https://h.example/x' });
  });

  it('refuses a body that is not multipart with 415', async () => {
    expect((await refusal(parseSubmission(Buffer.from('{}'), 'application/json', policy, PROJECT))).status).toBe(415);
    expect((await refusal(parseSubmission(Buffer.from('{}'), undefined, policy, PROJECT))).status).toBe(415);
  });

  it('refuses multipart without a boundary, or cut short, with 400', async () => {
    expect((await refusal(parseSubmission(Buffer.from('x'), 'multipart/form-data', policy, PROJECT))).status).toBe(400);
    const cut = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc');
    expect((await refusal(parseSubmission(cut, 'multipart/form-data; boundary=B', policy, PROJECT))).status).toBe(400);
  });

  it('refuses a form with no file, a file under another name, or too many files', async () => {
    const none = new FormData();
    none.append('webhook', '{"url":""}');
    let encoded = await encode(none);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy, PROJECT))).message).toMatch(/No file part/);

    const misnamed = new FormData();
    misnamed.append('document', new Blob(['x']), 'a.txt');
    encoded = await encode(misnamed);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy, PROJECT))).message).toMatch(/Unexpected file part "document"/);

    const many = new FormData();
    for (let i = 0; i < 21; i++) many.append('file', new Blob(['x']), `${i}.txt`);
    encoded = await encode(many);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy, PROJECT))).message).toMatch(/At most 20 files/);
  });

  it('answers 413 naming the upload flow once file bytes pass 4.5 MB in total', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(2_400_000)]), 'a.bin');
    form.append('file', new Blob([new Uint8Array(2_400_000)]), 'b.bin');
    const { body, type } = await encode(form);
    const error = await refusal(parseSubmission(body, type, policy, PROJECT));
    expect(error.status).toBe(413);
    expect(error.message).toContain('POST /v1/uploads');
  });

  it('seals an inline webhook secret and keeps the chosen events', async () => {
    const secret = 's'.repeat(40);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    form.append('webhook', JSON.stringify({ url: 'https://h.example/x', secret, events: ['job.failed'] }));
    const { body, type } = await encode(form);
    const { webhook } = await parseSubmission(body, type, policy, PROJECT);
    expect(webhook).toMatchObject({ url: 'https://h.example/x', events: ['job.failed'], secret: { fingerprint: expect.stringMatching(/^sha256:/) } });
    expect(JSON.stringify(webhook)).not.toContain(secret);
    expect(await policy.cipher.decrypt(webhook!.secret!.ciphertext, PROJECT)).toBe(secret);
  });

  it('refuses an inline webhook whose host resolves inside the network, saying why', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.txt');
    form.append('webhook', JSON.stringify({ url: 'https://internal.example/x' }));
    const { body, type } = await encode(form);
    const error = await refusal(parseSubmission(body, type, { ...policy, lookupHost: async () => ['10.1.2.3'] }, PROJECT));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/internal\.example resolves to 10\.1\.2\.3 is a private address/);
  });
});
