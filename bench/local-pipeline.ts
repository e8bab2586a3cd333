// npm run bench: end-to-end figures for the local server, printed, never asserted.
//
// 1. Submit-to-completed latency of a 1-page PDF, 50 runs one after another
//    on an idle server: p50 and p95. Polls are limited to one a second, so the
//    time is read from the job itself (updated_at of the completed job minus
//    the moment the client sent the request).
// 2. Text-layer PDF pages per second over ../shared/corpus/pdf through the
//    local server (the worker pool on every core), beside poppler's pdftotext
//    on the same files, one at a time, in the same run. The files go as the
//    CLI and SDK send several: as many per request as the API takes (20 files,
//    4.5 MB), one request after another; the clock runs from the first
//    request to the last job's completion.
// 3. The same files through the extractor pool alone (no HTTP, store, bucket
//    or queue), so the server's share of the time shows.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { multipart, request, submit } from '../test/support/api-client.ts';
import { ROOT, startServer, waitFor, type RunningServer } from '../test/support/local-server.ts';
import { makePdf } from '../test/support/pdf-fixture.ts';
import { limits } from '../lambdas/core/limits.ts';
import { createExtractorPool } from '../lambdas/extract/pool.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/types.ts';

const CORPUS = path.resolve(ROOT, '../shared/corpus/pdf');
const DIRECT_LIMIT = 4_500_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const terminal = (status: string) => ['completed', 'partial_success', 'failed', 'cancelled'].includes(status);

async function latency(server: RunningServer, key: string, runs: number) {
  const pdf = makePdf({ pages: ['A one-page document for latency.\nIt has two lines.'], info: { Title: 'latency' } });
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sent = Date.now();
    const accepted = await submit(server.url, key, multipart([{ name: `l${i}.pdf`, bytes: pdf, type: 'application/pdf' }]));
    const id = accepted.body.job_ids[0];
    const done = await waitFor(() => request(server.url, 'GET', `/v1/jobs/${id}`, { key }), (a) => a.status === 200 && terminal(a.body.status), { intervalMs: 1000 });
    if (done.body.status !== 'completed') throw new Error(`latency run ${i} ended ${done.body.status}: ${done.body.error_message}`);
    samples.push(Date.parse(done.body.updated_at) - sent);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1)! };
}

async function throughput(server: RunningServer, key: string, files: string[]) {
  const started = Date.now();
  const ids: string[] = [];
  // Text-layer throughput: scanned pages are not OCR'd here (pdftotext does not OCR either).
  const config = JSON.stringify({ ocr: 'never' });
  for (const batch of requests(files)) {
    const parts = batch.map((file) => ({ name: path.basename(file), bytes: fs.readFileSync(file), type: 'application/pdf' }));
    const accepted = await submit(server.url, key, multipart(parts, { config }));
    if (accepted.status !== 202) throw new Error(`${batch.join(', ')}: ${JSON.stringify(accepted.body)}`);
    ids.push(...accepted.body.job_ids);
  }
  const submittedSeconds = (Date.now() - started) / 1000;
  let pages = 0;
  let finishedAt = started;
  const failed: string[] = [];
  for (const id of ids) {
    const done = await waitFor(() => request(server.url, 'GET', `/v1/jobs/${id}`, { key }), (a) => a.status === 200 && terminal(a.body.status), { timeoutMs: 600_000 });
    finishedAt = Math.max(finishedAt, Date.parse(done.body.updated_at));
    if (done.body.status === 'completed') pages += done.body.result.metadata.pages;
    else failed.push(`${done.body.filename}: ${done.body.error_message}`);
  }
  const seconds = (finishedAt - started) / 1000;
  return { pages, seconds, pagesPerSecond: pages / seconds, failed, requests: requests(files).length, submittedSeconds };
}

/** Every file at once into a warm pool of one worker per core, as the server's own pool. */
async function poolAlone(files: string[]) {
  const pool = createExtractorPool({ size: os.availableParallelism(), timeoutMs: 120_000, maxMemoryMb: 2048, prewarm: true });
  try {
    await Promise.all(Array.from({ length: os.availableParallelism() }, () => pool.extract({ bytes: makePdf({ pages: ['warm-up'] }), filename: 'warm.pdf' })));
    const started = performance.now();
    const config = { ...DEFAULT_CONFIG, ocr: 'never' as const };
    const pages = await Promise.all(
      files.map((file) => pool.extract({ bytes: fs.readFileSync(file), filename: path.basename(file), config }).then((r) => r.metadata.pages, () => 0)),
    );
    return { pages: pages.reduce((a, b) => a + b, 0), seconds: (performance.now() - started) / 1000 };
  } finally {
    await pool.close();
  }
}

/** Files in order, packed into requests of at most limits.maxFilesPerSubmission files and DIRECT_LIMIT bytes. */
function requests(files: string[]): string[][] {
  const out: string[][] = [];
  let bytes = 0;
  for (const file of files) {
    const size = fs.statSync(file).size;
    const last = out.at(-1);
    if (last && last.length < limits.maxFilesPerSubmission && bytes + size <= DIRECT_LIMIT) {
      last.push(file);
      bytes += size;
    } else {
      out.push([file]);
      bytes = size;
    }
  }
  return out;
}

function pdftotext(files: string[]) {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  let pages = 0;
  const started = process.hrtime.bigint();
  for (const file of files) {
    try {
      execFileSync('pdftotext', [file, '-'], { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 });
    } catch {
      /* pdftotext fails on some files; the pages of the others still count */
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const file of files) {
    try {
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      pages += Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    } catch {
      /* poppler cannot read it either: no pages to its credit */
    }
  }
  return { pages, seconds, pagesPerSecond: pages / seconds };
}

const runs = Number(process.env.BENCH_RUNS ?? 50);
const server = await startServer({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'docex-bench-')) });
try {
  const { api_key: key } = await server.createProject('bench');
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model}, node ${process.version}`);
  const lat = await latency(server, key, runs);
  console.log(`latency, 1-page PDF, submit to completed, ${runs} runs: p50 ${lat.p50} ms, p95 ${lat.p95} ms, max ${lat.max} ms`);

  if (!fs.existsSync(CORPUS)) {
    console.log(`throughput: skipped, no corpus at ${CORPUS}`);
  } else {
    const all = fs.readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')).map((f) => path.join(CORPUS, f)).sort();
    const direct = all.filter((f) => fs.statSync(f).size <= DIRECT_LIMIT);
    console.log(`throughput corpus: ${direct.length} of ${all.length} PDFs (${all.length - direct.length} are over the 4.5 MB direct-upload limit)`);
    const ours = await throughput(server, key, direct);
    console.log(`docex local server: ${ours.pages} pages in ${ours.seconds.toFixed(2)} s = ${ours.pagesPerSecond.toFixed(1)} pages/s (${os.availableParallelism()} workers; ${ours.requests} requests, all accepted after ${ours.submittedSeconds.toFixed(2)} s)`);
    if (ours.failed.length) console.log(`  failed (${ours.failed.length}):\n  ${ours.failed.join('\n  ')}`);
    const engine = await poolAlone(direct);
    console.log(`extractor pool alone (no HTTP, store, bucket or queue): ${engine.pages} pages in ${engine.seconds.toFixed(2)} s = ${(engine.pages / engine.seconds).toFixed(1)} pages/s`);
    const peer = pdftotext(direct);
    if (!peer) console.log('pdftotext: not installed (apt-get install poppler-utils) — no peer figure');
    else {
      console.log(`pdftotext (one file at a time): ${peer.pages} pages in ${peer.seconds.toFixed(2)} s = ${peer.pagesPerSecond.toFixed(1)} pages/s`);
      console.log(`ratio docex / pdftotext: ${(ours.pagesPerSecond / peer.pagesPerSecond).toFixed(2)}x end to end, ${(engine.pages / engine.seconds / peer.pagesPerSecond).toFixed(2)}x for the pool alone`);
    }
  }
} finally {
  await server.stop();
}
