// The `config` form field and results with failed parts, end to end through
// the local server: parsing, the quota count, the worker and the job status.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit, type Answer } from '../support/api-client.ts';
import { waitFor } from '../support/local-server.ts';
import { makeDocx, makeZip, w } from '../support/office-fixture.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { localOnly, startTarget, type Target } from '../support/target.ts';

let server: Target;
let key: string;

beforeAll(async () => {
  server = await startTarget();
  key = (await server.createProject('config', 5)).api_key;
});
afterAll(async () => server?.stop());

const finished = (answer: Answer) => ['completed', 'partial_success', 'failed', 'cancelled'].includes(answer.body?.status);
const untilDone = (id: string) => waitFor(() => request(server.url, 'GET', `/v1/jobs/${id}`, { key }), finished);

describe('extraction config', () => {
  it('answers 400 naming the field when the config is wrong', async () => {
    const answer = await submit(server.url, key, multipart([{ name: 'a.txt', bytes: 'x' }], { config: '{"chunking":{"strategy":"words"}}' }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/^config\.chunking\.strategy must be one of/) });
  });

  it('extracts and charges only the selected pages, in Markdown, with the chosen chunking', async ({ skip }) => {
    if (localOnly('the quota of a deployed project is not known to the test')) skip();
    // Eight pages against a five-page quota: only the selection of three fits.
    const pdf = makePdf({ pages: Array.from({ length: 8 }, (_, i) => `page ${i + 1} text`) });
    const config = JSON.stringify({ output: 'markdown', pages: '2-3,8', chunking: { strategy: 'size', max_chars: 1000, overlap: 0 } });
    const accepted = await submit(server.url, key, multipart([{ name: 'long.pdf', bytes: pdf, type: 'application/pdf' }], { config }));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const done = await untilDone(accepted.body.job_ids[0]);
    expect(done.body).toMatchObject({ status: 'completed', pages: 3 });
    expect(done.body.result.content).toBe('page 2 text\n\npage 3 text\n\npage 8 text');
    expect(done.body.result.metadata).toMatchObject({ pages: 3, pages_total: 8 });
    expect(done.body.result.chunks).toEqual([
      { index: 0, text: done.body.result.content, page_start: 2, page_end: 8, char_start: 0, char_end: 37, headings: [], boxes: expect.any(Array) },
    ]);
    // The chunk's boxes are those of its three paragraphs, on the pages they stand on.
    expect(done.body.result.chunks[0].boxes.map((b: { page: number }) => b.page)).toEqual([2, 3, 8]);
    expect(done.body.result.elements.map((e: { type: string; page: number }) => [e.type, e.page])).toEqual([
      ['paragraph', 2],
      ['paragraph', 3],
      ['paragraph', 8],
    ]);
  });
});

describe('archives with a member that fails', () => {
  it('end partial_success, naming the member, with the other members extracted', async () => {
    const zip = makeZip([
      { name: 'good.docx', data: makeDocx({ body: w.p('The good member') }) },
      { name: 'bad.docx', data: 'PK\u0003\u0004 truncated' },
    ]);
    const accepted = await submit(server.url, key, multipart([{ name: 'bundle.zip', bytes: zip }]));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const done = await untilDone(accepted.body.job_ids[0]);
    expect(done.body.status).toBe('partial_success');
    expect(done.body.result.content).toContain('The good member');
    expect(done.body.result.metadata.failed_sections).toEqual([{ name: 'bad.docx', error: expect.stringMatching(/could not be read/) }]);
  });
});
