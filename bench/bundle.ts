// npm run bench:bundle: what each Lambda costs to ship, to start and to run. Printed, never asserted.
//
// 1. Bundle size per function. The bundles are the ones the stack deploys:
//    this synthesizes DocexStack, so NodejsFunction runs esbuild with
//    lib/constructs/bundling.ts's options, and reads each function's asset.
//    Context is cdk.json's plus any `-c key=value` given, as with `cdk deploy`:
//    `npm run bench:bundle -- -c bundleAwsSdk=true` measures the bundles with the SDK inside.
// 2. Module init per bundle: `import()` of the bundle in a fresh `node`
//    process (median of BENCH_INIT_RUNS, default 5), including the SDK
//    modules the bundle leaves to the runtime, loaded from node_modules.
//    Lambda's Init Duration adds the runtime's own start to this.
// 3. Cost per 1,000 pages: the extraction worker's time per page, measured on
//    ../shared/corpus/pdf (or generated text PDFs without it) through the same
//    isolated extractor pool the worker uses, at the worker's configured
//    memory, priced with the list prices below.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnElement } from 'aws-cdk-lib';
import { buildSync } from 'esbuild';
import { BUNDLE_AWS_SDK_CONTEXT, bundlesAwsSdk } from '../lib/constructs/bundling.ts';
import { DocexStack } from '../lib/docex-stack.ts';
import { functions, queues, type FunctionName, type FunctionSpec } from '../lib/wiring.ts';
import { limits } from '../lambdas/core/limits.ts';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';
import { makePdf } from '../test/support/pdf-fixture.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(ROOT, '../shared/corpus/pdf');
const KB = 1024;
const MB = 1024 * KB;

// Goals from the AWS-stack issue: small API functions start fast; the worker carries the PDF engine.
// The functions that open documents carry the extraction engine (get-page renders a PDF page with PDFium);
// the goal of 250 KB is for the API functions that only read and write records.
const DOCUMENT_WORKERS: FunctionName[] = ['extract-worker', 'chunk-worker', 'get-page'];
const goalBytes = (name: FunctionName) => (DOCUMENT_WORKERS.includes(name) ? 2.5 * MB : 250 * KB);

// List prices, us-east-1, on-demand, no free tier (AWS pricing pages, 2025).
const PRICE = {
  lambdaArmGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  sqsRequest: 0.4 / 1e6, // standard queue; every 64 KB of a message is one request
  dynamoWrite: 0.625 / 1e6, // per write request unit (1 KB)
  dynamoRead: 0.125 / 1e6, // per read request unit (4 KB strongly consistent)
  s3Put: 0.005 / 1000,
  s3Get: 0.0004 / 1000,
  apiGatewayRequest: 3.5 / 1e6, // REST API, first 333 million a month
};

// Per-job traffic around the extraction itself, read off the code paths (core/submit.ts,
// core/process-job.ts, core/get-job.ts) rather than measured. Items are under 1 KB; each
// write to a job item is also written to gsi1 (projection ALL), so it counts twice.
const PER_JOB = {
  polls: 3, // GET /v1/jobs/{id} until done; a webhook user polls once
  // The result pointer rides on the completing write; usage is one counter per day.
  dynamoWrites: 1 /* reserve */ + 2 /* put job */ + 2 /* claim */ + 2 /* completed, with result pointer */ + 1 /* usage */ + 1 /* settle quota */,
  dynamoReadsSubmit: 2, // key, project
  dynamoReadsWorker: 1, // the project's webhooks (an inline document's claim reads the job in its write)
  perPoll: { writes: 2 /* claimPoll, which returns the job */, reads: 1 /* key */ },
  s3Results: { puts: 1, getsPerPoll: 1 / 3 }, // the result is read once, by the final poll
  apiLambdaSeconds: { submit: 0.15, getJob: 0.05 }, // assumed warm durations
  workerOverheadSeconds: 0.1, // store and S3 round trips in-region, assumed
};

// --- 1. the bundles the stack deploys -----------------------------------------------

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-bundles-'));
const { context } = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8'));
const args = process.argv.slice(2);
args.forEach((arg, i) => {
  if (arg !== '-c' && arg !== '--context') return;
  const [key, ...value] = (args[i + 1] ?? '').split('=');
  if (!key || !value.length) throw new Error(`${arg} takes key=value, as with cdk`);
  context[key] = value.join('=');
});
const stack = new DocexStack(new App({ context, outdir }), 'Docex');
const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Properties: { Code: { S3Key: string } } }>;
// The modules a bundle leaves out resolve from here, as Lambda resolves them from
// /var/runtime/node_modules: the same packages, though at our installed versions, not the runtime's.
const runtimeModules = path.join(outdir, 'node_modules');
fs.symlinkSync(path.join(ROOT, 'node_modules'), runtimeModules, 'dir');

interface Bundle {
  name: FunctionName;
  spec: FunctionSpec;
  file: string;
  bytes: number;
  gzipBytes: number;
  mapBytes: number;
  /** Packages the bundle imports instead of carrying: what it loads from the runtime at init. */
  fromRuntime: string[];
  /** Files shipped beside the bundle and loaded only when needed (PDFium's WebAssembly, OCR's node_modules). */
  besideBytes: number;
}
const sizeOf = (p: string): number => (fs.statSync(p).isDirectory() ? fs.readdirSync(p).reduce((sum, f) => sum + sizeOf(path.join(p, f)), 0) : fs.statSync(p).size);
const nodeBuiltins = new Set(builtinModules);
/** The packages a bundle imports statically (a dynamic import() costs nothing at init), as esbuild's own parser reads them. */
function importedPackages(file: string): string[] {
  const { metafile } = buildSync({ entryPoints: [file], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', external: ['*'], logLevel: 'silent' });
  const specifiers = Object.values(metafile.inputs)
    .flatMap((input) => input.imports)
    .filter((i) => i.kind === 'import-statement' && !i.path.startsWith('node:') && !nodeBuiltins.has(i.path))
    .map((i) => i.path);
  return [...new Set(specifiers)].sort();
}
const bundles: Bundle[] = (Object.entries(functions) as [FunctionName, FunctionSpec][]).map(([name, spec]) => {
  const logicalId = stack.getLogicalId(stack.functions.byName[name].node.defaultChild as CfnElement);
  const dir = path.join(outdir, `asset.${resources[logicalId]!.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
  const file = path.join(dir, 'index.mjs');
  const code = fs.readFileSync(file);
  return {
    name,
    spec,
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    mapBytes: fs.statSync(`${file}.map`).size,
    fromRuntime: importedPackages(file),
    besideBytes: fs.readdirSync(dir).filter((f) => !f.startsWith('index.mjs')).reduce((sum, f) => sum + sizeOf(path.join(dir, f)), 0),
  };
});

// --- 2. module init in a fresh process -----------------------------------------------

const initRuns = Number(process.env.BENCH_INIT_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function initMs(file: string): { ms: number; runtimeFiles: number } {
  // The SDK's packages are CommonJS, so every file of theirs that init loaded is in require.cache.
  const probe = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)});
    const ms = performance.now() - t;
    const { createRequire } = await import('node:module');
    const runtimeFiles = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/')).length;
    console.log(JSON.stringify({ ms, runtimeFiles }));`;
  const samples = Array.from({ length: initRuns }, () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: 'us-east-1', NODE_OPTIONS: '' },
    });
    return JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; runtimeFiles: number };
  });
  return { ms: median(samples.map((s) => s.ms)), runtimeFiles: samples[0]!.runtimeFiles };
}

const kb = (n: number) => `${(n / KB).toFixed(0)} KB`;
const sdkInside = bundlesAwsSdk(stack);
console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model}, node ${process.version} (Lambda runs Node.js 22 on arm64)`);
console.log(
  sdkInside
    ? `AWS SDK: inside every bundle (-c ${BUNDLE_AWS_SDK_CONTEXT}=true)\n`
    : `AWS SDK: service clients from the Lambda runtime (the default; -c ${BUNDLE_AWS_SDK_CONTEXT}=true bundles them)\n`,
);
console.log('function            bundle    gzip      map       goal     init (median of %d)  loaded at init from the runtime', initRuns);
for (const b of bundles) {
  const init = initMs(b.file);
  const verdict = b.bytes <= goalBytes(b.name) ? 'ok  ' : 'OVER';
  const fromRuntime = b.fromRuntime.length ? `${b.fromRuntime.map((p) => p.replace('@aws-sdk/client-', '')).join(', ')} (${init.runtimeFiles} files)` : '-';
  console.log(
    `${b.name.padEnd(19)} ${kb(b.bytes).padEnd(9)} ${kb(b.gzipBytes).padEnd(9)} ${kb(b.mapBytes).padEnd(9)} ${verdict} ${kb(goalBytes(b.name)).padEnd(8)} ${`${init.ms.toFixed(0)} ms`.padEnd(20)} ${fromRuntime}`,
  );
}
for (const b of bundles.filter((b) => b.besideBytes > 0)) {
  console.log(`${b.name}: ${(b.besideBytes / MB).toFixed(1)} MB beside the bundle, loaded only when needed (pdfium.wasm on the first PDF, tesseract.js and its model on the first OCR)`);
}
console.log(
  sdkInside
    ? "\nThe SDK is most of each API bundle; leaving its clients to the runtime makes the bundles small but loads the clients' files at init."
    : `\nInit includes loading those clients from node_modules (our installed SDK release, not the runtime's).` +
        `\nnpm run bench:bundle -- -c ${BUNDLE_AWS_SDK_CONTEXT}=true measures the same functions with the SDK inside their bundles.`,
);

// --- 3. worker time per page and the cost of 1,000 pages ------------------------------

const worker = functions['extract-worker'];
const documents: { name: string; bytes: Uint8Array }[] = fs.existsSync(CORPUS)
  ? fs.readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')).sort().map((f) => ({ name: f, bytes: fs.readFileSync(path.join(CORPUS, f)) }))
  : [10, 50, 200].map((n) => ({
      name: `generated-${n}p.pdf`,
      bytes: makePdf({ pages: Array.from({ length: n }, (_, i) => `Page ${i + 1}\n${'A line of generated text for the bench. '.repeat(12)}`) }),
    }));
console.log(`\nworker time per page: ${documents.length} PDFs from ${fs.existsSync(CORPUS) ? CORPUS : 'generated text PDFs (no corpus)'}`);

// As the deployed worker builds it: one isolated thread, the Lambda's memory share, its deadline.
const pool = createExtractorPool({ size: 1, timeoutMs: (worker.timeoutSeconds - 20) * 1000, maxMemoryMb: Math.floor(worker.memoryMb * 0.7) });
let pages = 0;
let seconds = 0;
let inlineJobs = 0;
let inlineBytes = 0;
const failed: string[] = [];
try {
  // A first document warms the worker thread (its own module init), as a warm container would be.
  await pool.extract({ bytes: makePdf({ pages: ['warm-up'] }), filename: 'warm.pdf' });
  for (const doc of documents) {
    const started = process.hrtime.bigint();
    try {
      const result = await pool.extract({ bytes: new Uint8Array(doc.bytes), filename: doc.name, contentType: 'application/pdf' });
      seconds += Number(process.hrtime.bigint() - started) / 1e9;
      pages += result.metadata.pages;
      if (doc.bytes.length <= limits.inlineDocumentBytes) {
        inlineJobs++;
        inlineBytes += doc.bytes.length;
      }
    } catch (error) {
      failed.push(`${doc.name}: ${(error as Error).message}`);
    }
  }
} finally {
  await pool.close();
}
const done = documents.length - failed.length;
if (failed.length) console.log(`  not counted (${failed.length}): ${failed.join('; ')}`);
const perPage = seconds / pages;
const pagesPerJob = pages / done;
console.log(`  ${pages} pages in ${done} documents, ${seconds.toFixed(2)} s of extraction: ${(perPage * 1000).toFixed(2)} ms/page, ${pagesPerJob.toFixed(1)} pages/document`);

const jobs = 1000 / pagesPerJob;
const gb = (mb: number) => mb / 1024;
const sqsRequestsPerMessage = (bytes: number) => Math.max(1, Math.ceil(bytes / (64 * KB)));
const inlineShare = inlineJobs / done;
const avgInline = inlineJobs ? inlineBytes / inlineJobs : 0;
const lines: [string, number][] = [
  ['worker compute (measured time per page)', 1000 * perPage * gb(worker.memoryMb) * PRICE.lambdaArmGbSecond],
  ['worker overhead per job (assumed)', jobs * PER_JOB.workerOverheadSeconds * gb(worker.memoryMb) * PRICE.lambdaArmGbSecond],
  [
    'API functions compute (assumed durations)',
    jobs *
      (PER_JOB.apiLambdaSeconds.submit * gb(functions.submit.memoryMb) +
        PER_JOB.polls * PER_JOB.apiLambdaSeconds.getJob * gb(functions['get-job'].memoryMb)) *
      PRICE.lambdaArmGbSecond,
  ],
  ['Lambda requests', jobs * (2 + PER_JOB.polls) * PRICE.lambdaRequest],
  ['API Gateway requests', jobs * (1 + PER_JOB.polls) * PRICE.apiGatewayRequest],
  [
    // send and receive carry the document when inline; delete is one request
    'SQS (send, receive, delete; inline documents in 64 KB units)',
    jobs * (inlineShare * 2 * sqsRequestsPerMessage(avgInline) + (1 - inlineShare) * 2 + 1) * PRICE.sqsRequest,
  ],
  [
    'DynamoDB on-demand',
    jobs *
      ((PER_JOB.dynamoWrites + PER_JOB.polls * PER_JOB.perPoll.writes) * PRICE.dynamoWrite +
        (PER_JOB.dynamoReadsSubmit + PER_JOB.dynamoReadsWorker + PER_JOB.polls * PER_JOB.perPoll.reads) * PRICE.dynamoRead),
  ],
  [
    'S3 (result put and read; stored documents put and get)',
    jobs * ((PER_JOB.s3Results.puts + (1 - inlineShare)) * PRICE.s3Put + (PER_JOB.polls * PER_JOB.s3Results.getsPerPoll + (1 - inlineShare)) * PRICE.s3Get),
  ],
];
const total = lines.reduce((sum, [, usd]) => sum + usd, 0);
console.log(`\ncost per 1,000 pages (${jobs.toFixed(1)} jobs of ${pagesPerJob.toFixed(1)} pages; worker ${worker.memoryMb} MB arm64; us-east-1 list prices):`);
for (const [label, usd] of lines) console.log(`  ${label.padEnd(62)} $${usd.toFixed(5)}`);
console.log(`  ${'total'.padEnd(62)} $${total.toFixed(5)}`);
console.log(
  '\nassumes one local core does per page what the worker does on Lambda (2048 MB is about 1.16 vCPU; extraction uses one thread);' +
    `\nprices: Lambda arm64 $${PRICE.lambdaArmGbSecond}/GB-s and $0.20/M requests, API Gateway REST $3.50/M, SQS $0.40/M requests,` +
    '\nDynamoDB $0.625/M writes and $0.125/M reads, S3 $0.005/1,000 PUT and $0.0004/1,000 GET; storage, logs and transfer not counted.' +
    `\nqueue visibility ${queues.extraction.visibilityTimeoutSeconds} s, maxReceiveCount ${queues.extraction.maxReceiveCount}: retries are not priced.`,
);
// Unlinked first, so that removing the asset folder can never reach into the project's node_modules.
fs.unlinkSync(runtimeModules);
fs.rmSync(outdir, { recursive: true, force: true });
