import { afterAll, expect, it } from 'vitest';
import { multipart, request, submit, type Answer } from '../support/api-client.ts';
import { startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { localOnly } from '../support/target.ts';

let server: RunningServer | undefined;
afterAll(async () => server?.stop());

const terminal = (a: Answer) => ['completed', 'partial_success', 'failed', 'cancelled'].includes(a.body?.status);

it.skipIf(localOnly('killing and restarting the service is a local-server test'))('keeps keys, jobs and results across a crash, and finishes the jobs that were in flight', async () => {
  // One worker and several long PDFs, so some jobs are surely unfinished when the process dies.
  server = await startServer({ env: { DOCEX_WORKERS: '1' } });
  const project = await server.createProject('crashy');
  const done = await submit(server.url, project.api_key, multipart([{ name: 'first.txt', bytes: 'done before the crash' }]));
  const doneId = done.body.job_ids[0];
  await waitFor(() => request(server!.url, 'GET', `/v1/jobs/${doneId}`, { key: project.api_key }), terminal);

  const pages = Array.from({ length: 4000 }, (_, i) => `Page ${i + 1} of a long document\nwith two lines`);
  const files = [1, 2, 3].map((n) => ({ name: `long-${n}.pdf`, bytes: makePdf({ pages }), type: 'application/pdf' }));
  const accepted = await submit(server.url, project.api_key, multipart(files));
  expect(accepted.status).toBe(202);
  const ids: string[] = accepted.body.job_ids;
  // A moment after acceptance the one worker has only just started: the last job cannot be done.
  // (Waiting for a poll of the first job to change would take a second, the poll rate, and at
  // PDFium's speed the three can all be done by then.)
  await new Promise((r) => setTimeout(r, 200));
  const last = await request(server.url, 'GET', `/v1/jobs/${ids[2]}`, { key: project.api_key });
  expect(terminal(last), `the crash must hit unfinished work: ${JSON.stringify(last.body).slice(0, 300)}`).toBe(false);

  await server.kill();
  server = await server.restart();

  const before = await request(server.url, 'GET', `/v1/jobs/${doneId}`, { key: project.api_key });
  expect(before.body).toMatchObject({ status: 'completed', result: { content: 'done before the crash' } });
  for (const id of ids) {
    const finished = await waitFor(() => request(server!.url, 'GET', `/v1/jobs/${id}`, { key: project.api_key }), terminal, { timeoutMs: 120_000 });
    expect(finished.body.status, JSON.stringify(finished.body).slice(0, 300)).toBe('completed');
    expect(finished.body.result.metadata.pages).toBe(4000);
    expect(finished.body.result.content).toContain('Page 4000 of a long document');
  }
});
