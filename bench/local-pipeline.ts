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
// 3. The same files as a typical SDK client sends them to a server started
//    for it: one file per request, sent one after another, then every result
//    polled; a new server each time (BENCH_FRESH times, default 3, median).
// 4. The same files through the extractor pool alone (no HTTP, store, bucket
//    or queue), so the server's share of the time shows.
//
// Each throughput figure is taken as benchmarks of JIT-compiled code are:
// BENCH_WARMUP runs over the corpus (default 4), then BENCH_ROUNDS measured
// runs (default 5), whose median is reported. The first warm-up run is
// printed too: the server has only seen the 1-page latency documents, and V8
// is still compiling the code paths the large ones take (about 1 s more CPU
// than a later run; it takes several runs to settle). The measured runs are a
// server that has been running, which is what `npm start` is after its first
// few batches. The pool alone gets the same warm-up and measured runs;
// pdftotext, which compiles nothing as it runs, gets the measured runs.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { multipart, request, submit } from '../test/support/api-client.ts';
import { ROOT, startServer, waitFor, type RunningServer } from '../test/support/local-server.ts';
import { makePdf } from '../test/support/pdf-fixture.ts';
import { limits } from '../lambdas/core/limits.ts';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';

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

async function throughput(server: RunningServer, key: string, files: string[], filesPerRequest: number = limits.maxFilesPerSubmission) {
  const started = Date.now();
  const ids: string[] = [];
  // Text-layer throughput: scanned pages are not OCR'd here (pdftotext does not OCR either).
  const config = JSON.stringify({ ocr: 'never' });
  const batches = requests(files, filesPerRequest);
  for (const batch of batches) {
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
    // A result too large to answer inline (over 5 MB with its chunks and elements) is fetched from its URL, as a client would.
    const result = done.body.result ?? (done.body.result_url ? await (await fetch(done.body.result_url)).json() : undefined);
    if (done.body.status === 'completed') pages += result.metadata.pages;
    else failed.push(`${done.body.filename}: ${done.body.error_message}`);
  }
  const seconds = (finishedAt - started) / 1000;
  return { pages, seconds, failed, requests: batches.length, submittedSeconds };
}

/** Every file at once into a pool of one worker per core, as the server's own pool, `rounds` times over. */
async function poolAlone(files: string[], rounds: number) {
  const pool = createExtractorPool({ size: os.availableParallelism(), timeoutMs: 120_000, maxMemoryMb: 2048, prewarm: true });
  try {
    await Promise.all(Array.from({ length: os.availableParallelism() }, () => pool.extract({ bytes: makePdf({ pages: ['warm-up'] }), filename: 'warm.pdf' })));
    const config = { ...DEFAULT_CONFIG, ocr: 'never' as const };
    const runs: Run[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const pages = await Promise.all(
        files.map((file) => pool.extract({ bytes: fs.readFileSync(file), filename: path.basename(file), config }).then((r) => r.metadata.pages, () => 0)),
      );
      runs.push({ pages: pages.reduce((a, b) => a + b, 0), seconds: (performance.now() - started) / 1000 });
    }
    return runs;
  } finally {
    await pool.close();
  }
}

interface Run {
  pages: number;
  seconds: number;
}
const perSecond = (run: Run) => run.pages / run.seconds;
/** The run with the median pages/s. */
const median = (runs: Run[]) => [...runs].sort((a, b) => perSecond(a) - perSecond(b))[Math.floor((runs.length - 1) / 2)]!;
const describe = (run: Run) => `${run.pages} pages in ${run.seconds.toFixed(2)} s = ${perSecond(run).toFixed(1)} pages/s`;

/** Files in order, packed into requests of at most `perRequest` files and DIRECT_LIMIT bytes. */
function requests(files: string[], perRequest: number): string[][] {
  const out: string[][] = [];
  let bytes = 0;
  for (const file of files) {
    const size = fs.statSync(file).size;
    const last = out.at(-1);
    if (last && last.length < perRequest && bytes + size <= DIRECT_LIMIT) {
      last.push(file);
      bytes += size;
    } else {
      out.push([file]);
      bytes = size;
    }
  }
  return out;
}

function pdftotext(files: string[], rounds: number): Run[] | null {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  let pages = 0;
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    for (const file of files) {
      try {
        execFileSync('pdftotext', [file, '-'], { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 1 << 30 });
      } catch {
        /* pdftotext fails on some files; the pages of the others still count */
      }
    }
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  for (const file of files) {
    try {
      const info = execFileSync('pdfinfo', [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      pages += Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    } catch {
      /* poppler cannot read it either: no pages to its credit */
    }
  }
  return times.map((seconds) => ({ pages, seconds }));
}

const runs = Number(process.env.BENCH_RUNS ?? 50);
const warmup = Math.max(1, Number(process.env.BENCH_WARMUP ?? 4));
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const freshRuns = Math.max(1, Number(process.env.BENCH_FRESH ?? 3));

/**
 * As a typical SDK client meets the service: a server started for the run
 * (nothing compiled yet), each file in a request of its own, sent one after
 * another without waiting for results, then every result polled.
 */
async function freshServer(files: string[]): Promise<Run> {
  const fresh = await startServer({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'docex-bench-fresh-')) });
  try {
    const { api_key } = await fresh.createProject('bench-fresh');
    const run = await throughput(fresh, api_key, files, 1);
    if (run.failed.length) console.log(`  fresh server, failed (${run.failed.length}):\n  ${run.failed.join('\n  ')}`);
    return run;
  } finally {
    await fresh.stop();
  }
}
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
    const ours: Awaited<ReturnType<typeof throughput>>[] = [];
    for (let round = 0; round < warmup + rounds; round++) ours.push(await throughput(server, key, direct));
    const first = ours[0]!;
    const later = ours.slice(warmup);
    const failed = new Set(ours.flatMap((run) => run.failed));
    console.log(`docex local server, ${os.availableParallelism()} workers, ${first.requests} requests per run (all accepted after ${first.submittedSeconds.toFixed(2)} s in the first):`);
    console.log(`  first run: ${describe(first)}; warm-up runs: ${ours.slice(0, warmup).map((r) => perSecond(r).toFixed(0)).join(', ')} pages/s`);
    const running = median(later);
    console.log(`  running server, median of ${later.length} runs after those: ${describe(running)} (runs: ${later.map((r) => perSecond(r).toFixed(0)).join(', ')} pages/s)`);
    if (failed.size) console.log(`  failed (${failed.size}):\n  ${[...failed].join('\n  ')}`);
    const freshes: Run[] = [];
    for (let i = 0; i < freshRuns; i++) freshes.push(await freshServer(direct));
    const fresh = median(freshes);
    console.log(`freshly started server, one file per request (${direct.length} requests), median of ${freshes.length} servers: ${describe(fresh)} (runs: ${freshes.map((r) => perSecond(r).toFixed(0)).join(', ')} pages/s)`);
    const engineRuns = await poolAlone(direct, warmup + rounds);
    const engine = median(engineRuns.slice(warmup));
    console.log(`extractor pool alone (no HTTP, store, bucket or queue): first run ${describe(engineRuns[0]!)}; median of ${rounds} after ${warmup} warm-up runs ${describe(engine)}`);
    const peerRuns = pdftotext(direct, rounds);
    if (!peerRuns) console.log('pdftotext: not installed (apt-get install poppler-utils) — no peer figure');
    else {
      const peer = median(peerRuns);
      console.log(`pdftotext (one file at a time), median of ${peerRuns.length} runs: ${describe(peer)} (runs: ${peerRuns.map((r) => perSecond(r).toFixed(0)).join(', ')} pages/s)`);
      const ratio = (run: Run) => `${(perSecond(run) / perSecond(peer)).toFixed(2)}x`;
      console.log(
        `ratio docex / pdftotext: ${ratio(running)} end to end on a running server (${ratio(first)} in the first run), ${ratio(fresh)} one file per request on a freshly started server, ${ratio(engine)} for the pool alone`,
      );
    }
  }
} finally {
  await server.stop();
}
