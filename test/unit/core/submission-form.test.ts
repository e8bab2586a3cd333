import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { parseSubmission } from '../../../lambdas/core/submission-form.ts';

const policy = { allowLoopbackHttp: false };

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
    const submission = await parseSubmission(body, type, policy);
    expect(submission.files.map((f) => f.filename)).toEqual(['a.pdf', 'b.txt']);
    expect([...submission.files[0]!.bytes]).toEqual([1, 2, 3]);
    expect(submission.files[0]!.contentType).toBe('application/pdf');
    expect(submission.files[1]!.contentType).toBeNull();
    expect(submission.webhook).toEqual({ url: 'https://h.example/x' });
  });

  it('refuses a body that is not multipart with 415', async () => {
    expect((await refusal(parseSubmission(Buffer.from('{}'), 'application/json', policy))).status).toBe(415);
    expect((await refusal(parseSubmission(Buffer.from('{}'), undefined, policy))).status).toBe(415);
  });

  it('refuses multipart without a boundary, or cut short, with 400', async () => {
    expect((await refusal(parseSubmission(Buffer.from('x'), 'multipart/form-data', policy))).status).toBe(400);
    const cut = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc');
    expect((await refusal(parseSubmission(cut, 'multipart/form-data; boundary=B', policy))).status).toBe(400);
  });

  it('refuses a form with no file, a file under another name, or too many files', async () => {
    const none = new FormData();
    none.append('webhook', '{"url":""}');
    let encoded = await encode(none);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy))).message).toMatch(/No file part/);

    const misnamed = new FormData();
    misnamed.append('document', new Blob(['x']), 'a.txt');
    encoded = await encode(misnamed);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy))).message).toMatch(/Unexpected file part "document"/);

    const many = new FormData();
    for (let i = 0; i < 21; i++) many.append('file', new Blob(['x']), `${i}.txt`);
    encoded = await encode(many);
    expect((await refusal(parseSubmission(encoded.body, encoded.type, policy))).message).toMatch(/At most 20 files/);
  });

  it('answers 413 naming the upload flow once file bytes pass 4.5 MB in total', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(2_400_000)]), 'a.bin');
    form.append('file', new Blob([new Uint8Array(2_400_000)]), 'b.bin');
    const { body, type } = await encode(form);
    const error = await refusal(parseSubmission(body, type, policy));
    expect(error.status).toBe(413);
    expect(error.message).toContain('POST /v1/uploads');
  });
});
