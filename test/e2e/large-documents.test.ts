import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type Answer } from '../support/api-client.ts';
import { startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import fs from 'node:fs';
import path from 'node:path';
import { makePptx, makeXlsx } from '../support/office-fixture.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { localOnly } from '../support/target.ts';

// Every document here is a real PDF over the 10 MB split threshold: its pages
// are few and small, the bulk is an unreferenced stream, so it parses fast.
// Time scale 0.01: a chunk in flight when the server dies comes back in 18 s, not 30 min.
const PADDING = 10_500_000;
let server: RunningServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { DOCEX_TIME_SCALE: '0.01' } });
  key = (await server.createProject('large documents')).api_key;
});
afterAll(async () => server?.stop());

const terminal = (a: Answer) => a.status === 200 && ['completed', 'partial_success', 'failed', 'cancelled'].includes(a.body.status);
const getJob = (id: string) => request(server.url, 'GET', `/v1/jobs/${id}`, { key });
const pageText = (n: number) => `Page ${n} of the large document`;

async function upload(pdf: Uint8Array, filename = 'large.pdf', contentType = 'application/pdf'): Promise<string> {
  expect(pdf.byteLength).toBeGreaterThan(10_000_000);
  const created = await request(server.url, 'POST', '/v1/uploads', {
    key,
    body: JSON.stringify({ filename, size: pdf.byteLength, content_type: contentType }),
    headers: { 'content-type': 'application/json' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const put = await fetch(created.body.upload_url, { method: 'PUT', body: Buffer.from(pdf) });
  expect(put.status).toBe(200);
  return created.body.job_id;
}

/** Polls to the end, keeping every answer, so a test can look at the statuses and progress on the way. */
async function follow(id: string, timeoutMs = 90_000): Promise<Answer[]> {
  const seen: Answer[] = [];
  await waitFor(
    async () => {
      const answer = await getJob(id);
      seen.push(answer);
      return answer;
    },
    terminal,
    { timeoutMs },
  );
  return seen;
}

const pdfOf = (count: number, brokenPages?: number[]) =>
  makePdf({ pages: Array.from({ length: count }, (_, i) => pageText(i + 1)), padding: PADDING, brokenPages });

describe('documents over 10 MB', () => {
  it('keep the original PDF\'s metadata when cut into chunks, not PDFium\'s of the cut (issue #18 item 9)', async () => {
    const pdf = makePdf({
      pages: Array.from({ length: 120 }, (_, i) => pageText(i + 1)),
      padding: PADDING,
      info: { Title: 'The Large Original', Author: 'Ada Lovelace', Producer: 'docex tests', CreationDate: "D:20240102030405+00'00'" },
    });
    const done = (await follow(await upload(pdf))).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(done.body.result.metadata).toMatchObject({ pages: 120, title: 'The Large Original', author: 'Ada Lovelace', producer: 'docex tests' });
    expect(done.body.result.metadata.created_at).toMatch(/^2024-01-02T03:04:05/);
  });

  it('are split into chunks, extracted in parallel and merged into one result with every page in order', async () => {
    const id = await upload(pdfOf(180));
    const seen = await follow(id);
    const done = seen.at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    const { result } = done.body;
    expect(result.content).toBe(Array.from({ length: 180 }, (_, i) => pageText(i + 1)).join('\n\n'));
    expect(result.metadata).toMatchObject({ format: 'pdf', pages: 180, pages_total: 180, failed_page_ranges: [] });
    // One chunk per page, numbered and located across the seams as if the document had been read whole.
    expect(result.chunks.map((c: { index: number }) => c.index)).toEqual([...Array(180).keys()]);
    for (const chunk of result.chunks) {
      expect(chunk.text).toBe(pageText(chunk.page_start));
      expect(result.content.slice(chunk.char_start, chunk.char_end)).toBe(chunk.text);
    }
    expect(result.chunks.map((c: { page_start: number }) => c.page_start)).toEqual(Array.from({ length: 180 }, (_, i) => i + 1));
    // Progress is shown while the pipeline runs, never past its total.
    for (const answer of seen.filter((a) => ['chunking', 'aggregating'].includes(a.body.status))) {
      expect(answer.body.progress.pages_total).toBe(180);
      expect(answer.body.progress.pages_done).toBeLessThanOrEqual(180);
    }
    expect(done.body.progress).toBeUndefined();
  });

  it('of plain text are split by text pages and merged back into exactly the text', async () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 10_200_000; i++) {
      lines.push(`Line ${i} of a large plain-text file, with some words in it.`);
      size += lines.at(-1)!.length + 1;
    }
    const text = lines.join('\n') + '\n';
    const id = await upload(new Uint8Array(Buffer.from(text)), 'large.txt', 'text/plain');
    const done = (await follow(id)).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    // Over 5 MB of result JSON: linked, not inlined.
    const result = await (await fetch(done.body.result_url)).json();
    expect(result.content).toBe(text);
    expect(result.metadata.pages).toBe(Math.ceil(text.length / 3000));
    expect(result.chunks).toHaveLength(result.metadata.pages);
    const last = result.chunks.at(-1);
    expect([last.index, last.page_start, last.char_end]).toEqual([result.metadata.pages - 1, result.metadata.pages, text.length]);
  });

  /**
   * What only the local server can show: the worker's log of the split, and the aggregation execution's record.
   * The aggregation task marks the job completed before its execution ends (as in AWS), so the record is read
   * once it has left RUNNING: read at the job's completion it could still say RUNNING (a CI run caught that).
   */
  async function pipelineOf(id: string): Promise<{ chunks: number; format: string; execution: string }> {
    const file = path.join(server.dataDir, 'executions', `${encodeURIComponent(id)}.json`);
    const record = await waitFor(async () => JSON.parse(fs.readFileSync(file, 'utf8')), (r) => r.status !== 'RUNNING', { timeoutMs: 10_000, intervalMs: 50 });
    const split = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((l) => l.message === 'split large document' && l.job_id === id);
    return { chunks: split?.chunks, format: split?.format, execution: record.status };
  }

  // The bulk of a large presentation or workbook is its media, which extraction does not read.
  const media = () => new Uint8Array(PADDING);

  it('of PowerPoint are split by slides and merged with every slide in order', async () => {
    const slides = Array.from({ length: 120 }, (_, i) => ({ title: `Slide ${i + 1}`, bullets: [`point of slide ${i + 1}`], ...(i % 50 === 49 ? { table: [['k', 'v'], [`${i + 1}`, 'x']] } : {}) }));
    const id = await upload(makePptx(slides, { 'ppt/media/image1.png': media() }), 'deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation');
    const done = (await follow(id)).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(await pipelineOf(id)).toEqual({ chunks: 3, format: 'pptx', execution: 'SUCCEEDED' });
    const { result } = done.body;
    expect(result.content).toBe(
      slides.map((s) => [s.title, ...s.bullets, ...(s.table ? [s.table.map((r) => r.join('\t')).join('\n')] : [])].join('\n\n')).join('\n\n'),
    );
    expect(result.metadata).toMatchObject({ format: 'pptx', pages: 120, pages_total: 120, page_unit: 'slide', failed_page_ranges: [] });
    expect(result.chunks.map((c: { page_start: number }) => c.page_start)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    // Slides 50 and 51 sit either side of the first seam; their tables (on 50 and 100) stay on their own slides.
    expect(result.tables.map((t: { page: number }) => t.page)).toEqual([50, 100]);
  });

  it('of Excel are split by sheets and merged with every sheet in order', async () => {
    const sheets = Array.from({ length: 70 }, (_, i) => ({ name: `Month ${i + 1}`, rows: [['Item', 'Amount'], [`sales ${i + 1}`, (i + 1) * 10]] }));
    const id = await upload(makeXlsx(sheets, { 'xl/media/image1.png': media() }), 'book.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const done = (await follow(id)).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(await pipelineOf(id)).toEqual({ chunks: 2, format: 'xlsx', execution: 'SUCCEEDED' });
    const { result } = done.body;
    expect(result.metadata).toMatchObject({ format: 'xlsx', pages: 70, pages_total: 70, page_unit: 'sheet', sheets: sheets.map((s) => s.name) });
    expect(result.tables.map((t: { sheet: string; rows: string[][] }) => [t.sheet, t.rows[1]])).toEqual(sheets.map((s, i) => [s.name, [`sales ${i + 1}`, String((i + 1) * 10)]]));
    expect(result.content).toBe(sheets.map((s, i) => `${s.name}\n\nItem\tAmount\nsales ${i + 1}\t${(i + 1) * 10}`).join('\n\n'));
  });

  it('of Excel with a sheet too large for one chunk are read in runs of its rows and merged into the page a whole read gives', async () => {
    // 120,000 cells: over the 100,000 one chunk reads, so the sheet is two parts.
    const rows = Array.from({ length: 40_000 }, (_, i) => [`item ${i + 1}`, i + 1, `note ${i % 97}`]);
    const sheets = [
      { name: 'Summary', rows: [['Total', 40_000]] },
      { name: 'Items', rows: [['Item', 'Qty', 'Note'], ...rows] },
    ];
    const id = await upload(makeXlsx(sheets, { 'xl/media/image1.png': media() }), 'big.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const done = (await follow(id)).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(await pipelineOf(id)).toEqual({ chunks: 3, format: 'xlsx', execution: 'SUCCEEDED' });
    const result = done.body.result ?? (await (await fetch(done.body.result_url)).json());
    expect(result.metadata).toMatchObject({ format: 'xlsx', pages: 2, pages_total: 2, page_unit: 'sheet', failed_page_ranges: [] });
    expect(result.content).toBe(`Summary\n\nTotal\t40000\n\nItems\n\nItem\tQty\tNote\n${rows.map((r) => r.join('\t')).join('\n')}`);
    expect(result.tables.map((t: { sheet: string; rows: unknown[] }) => [t.sheet, t.rows.length])).toEqual([
      ['Summary', 1],
      ['Items', 40_001],
    ]);
    expect(result.elements.filter((e: { type: string }) => e.type === 'table')).toHaveLength(2);
  });

  it('end partial_success, naming the page range of a chunk that failed', async () => {
    // Broken page objects in the last chunk's range: the chunks before it read fine.
    const broken = Array.from({ length: 20 }, (_, i) => 101 + i);
    const id = await upload(pdfOf(120, broken));
    const done = (await follow(id)).at(-1)!;
    expect(done.body.status, done.body.error_message).toBe('partial_success');
    const { result } = done.body;
    expect(result.metadata.failed_page_ranges).toEqual([{ first_page: 101, last_page: 120, error: expect.stringContaining('could not be read') }]);
    expect(result.metadata.pages).toBe(100);
    expect(result.content).toBe(Array.from({ length: 100 }, (_, i) => pageText(i + 1)).join('\n\n'));
    expect(done.body.pages).toBe(100);
  });

  it('fail when every chunk fails, saying which pages', async () => {
    // Every page object is replaced by a string: no page of it can be read.
    const id = await upload(pdfOf(60, Array.from({ length: 60 }, (_, i) => i + 1)));
    const done = (await follow(id)).at(-1)!;
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringContaining('pages 1-50, 51-60') });
  });

  it('can be cancelled while their chunks run, and stay cancelled', async () => {
    const id = await upload(pdfOf(1200));
    await waitFor(getJob.bind(null, id), (a) => a.body.status !== 'pending');
    const cancelled = await request(server.url, 'POST', `/v1/jobs/${id}/cancel`, { key });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toEqual({ id, status: 'cancelled' });
    // Chunks still queued or running find the job cancelled and skip it; no aggregation completes it.
    await new Promise((r) => setTimeout(r, 8000));
    const after = await getJob(id);
    expect(after.body.status).toBe('cancelled');
    expect(after.body.result).toBeUndefined();
    expect(after.body.progress).toBeUndefined();
  });

  it.skipIf(localOnly('killing and restarting the service is a local-server test'))(
    'still complete when the server is killed mid-pipeline and started again',
    async () => {
      const id = await upload(pdfOf(900));
      await waitFor(getJob.bind(null, id), (a) => a.body.status === 'chunking' || terminal(a));
      const before = await getJob(id);
      expect(terminal(before), 'the crash must hit a job still in the pipeline').toBe(false);
      await server.kill();
      server = await server.restart();
      const done = (await follow(id, 110_000)).at(-1)!;
      expect(done.body.status, done.body.error_message).toBe('completed');
      expect(done.body.result.content).toBe(Array.from({ length: 900 }, (_, i) => pageText(i + 1)).join('\n\n'));
    },
    150_000,
  );
});
