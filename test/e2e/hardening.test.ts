// Issue #18: no input, tenant or neighbour can hurt another. Each test here
// failed before its fix.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit, type Answer } from '../support/api-client.ts';
import { inflatingPdf } from '../support/hostile-pdf.ts';
import { startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { makePdf } from '../support/pdf-fixture.ts';

let server: RunningServer;
let alice: { project_id: string; api_key: string };
let bob: { project_id: string; api_key: string };

beforeAll(async () => {
  server = await startServer({ env: { DOCEX_TIME_SCALE: '0.01' } });
  alice = await server.createProject('alice');
  bob = await server.createProject('bob');
});
afterAll(async () => server?.stop());

const getJob = (id: string, key = alice.api_key) => request(server.url, 'GET', `/v1/jobs/${id}`, { key });
const terminal = (a: Answer) => a.status === 200 && ['completed', 'partial_success', 'failed', 'cancelled'].includes(a.body.status);
const usage = async (key: string) => (await request(server.url, 'GET', '/v1/usage', { key })).body;

describe('page counting has a budget and runs off the API thread (item 1)', () => {
  it('answers 413 for a small PDF that inflates past the budget, charges nothing, and keeps serving', async () => {
    const before = await usage(alice.api_key);
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'bomb.pdf', bytes: inflatingPdf(), type: 'application/pdf' }]));
    expect(answer.status, JSON.stringify(answer.body)).toBe(413);
    expect(answer.body).toMatchObject({ error: 'payload_too_large' });
    expect(answer.body.message).toMatch(/"bomb\.pdf".*page-counted within the submission budget.*inflate past 16 MB/);
    expect(await usage(alice.api_key)).toEqual(before);
    // Another project is served as usual, and a real document is still counted.
    const ok = await submit(server.url, bob.api_key, multipart([{ name: 'ok.pdf', bytes: makePdf({ pages: ['a', 'b'] }), type: 'application/pdf' }]));
    expect(ok.status).toBe(202);
    const done = await waitFor(() => getJob(ok.body.job_ids[0], bob.api_key), terminal);
    expect(done.body).toMatchObject({ status: 'completed', pages: 2 });
  });

  it('fails an uploaded document over the budget with a message that says why', async () => {
    const pdf = inflatingPdf();
    const created = await request(server.url, 'POST', '/v1/uploads', {
      key: alice.api_key,
      body: JSON.stringify({ filename: 'bomb.pdf', size: pdf.byteLength }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    await fetch(created.body.upload_url, { method: 'PUT', body: Buffer.from(pdf) });
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/page-counted within the submission budget.*inflate past 16 MB/) });
  });
});
