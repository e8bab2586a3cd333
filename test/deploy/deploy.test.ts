// `npm run test:deploy`: the stack as deployed. Synthesizes it, deploys it into
// moto server with the real CDK CLI, then drives every function through its
// synthesized asset, invoked as Lambda would from the deployed routes,
// event-source mappings, bucket notifications and state machine definition
// (test/deploy/harness.ts), and checks every AWS call each function made
// against its deployed role. Needs python3 with moto[server]==5.2.5 and
// openssl; .ci/run provides both.

import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, ListExecutionsCommand, SFNClient } from '@aws-sdk/client-sfn';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, submit, multipart, type Answer } from '../support/api-client.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { textImagePng } from '../support/text-image.ts';
import { ACCOUNT, adminCredentials, deploy, lambdaNode, readDeployed, REGION, STACK, startMoto, synth, takeOverEventSources, type Deployed, type Moto } from './deployment.ts';
import { Harness, writeReport } from './harness.ts';
import { grantedPermissions, withoutAction } from './iam-policy.ts';
import { startRecordingProxy, type RecordingProxy } from './recording-proxy.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const RECEIVER_HOST = 'receiver.docex-deploy.test';
// The Lambda runtime's own copy of the SDK: what the bundles leave out (lib/constructs/bundling.ts) resolves here.
const RUNTIME_PACKAGES = ['@aws-sdk', '@smithy', '@aws-crypto', 'tslib', 'bowser', 'fast-xml-parser', 'strnum', 'uuid'];

let work: string;
let moto: Moto | undefined;
let proxy: RecordingProxy | undefined;
let harness: Harness;
let deployed: Deployed;
let api: string;
let liveKey: string;
let nodeNote: string;
let receiver: { url: string; received: { path: string; headers: Record<string, unknown>; body: string }[]; answers: number[]; close(): Promise<void> } | undefined;
const timings: string[] = [];

async function timed<T>(what: string, fn: () => Promise<T> | T): Promise<T> {
  const started = Date.now();
  const result = await fn();
  timings.push(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function httpsReceiver(dir: string) {
  const key = path.join(dir, 'receiver.key');
  const cert = path.join(dir, 'receiver.crt');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1',
    '-subj', `/CN=${RECEIVER_HOST}`, '-addext', `subjectAltName=DNS:${RECEIVER_HOST}`], { stdio: 'ignore' });
  const received: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  // Statuses to answer, in order, before the default 200.
  const answers: number[] = [];
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answers.shift() ?? 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise<{ port: number; cert: string; url: string; received: typeof received; answers: number[]; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({ port, cert, url: `https://${RECEIVER_HOST}`, received, answers, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    }));
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-deploy-'));
  const cdkOut = path.join(work, 'cdk.out');
  const node = await timed('Node 22 from the npm registry', () => lambdaNode());
  nodeNote = node.note;
  console.log(nodeNote);
  await timed('cdk synth', () => synth(cdkOut));
  fs.mkdirSync(path.join(work, 'node_modules'));
  for (const pkg of RUNTIME_PACKAGES) {
    if (fs.existsSync(path.join(ROOT, 'node_modules', pkg))) fs.symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(work, 'node_modules', pkg));
  }
  moto = await startMoto(work);
  await timed('cdk bootstrap + cdk deploy into moto', () => deploy(cdkOut, moto!.endpoint, path.join(work, 'deploy.log')));
  deployed = await readDeployed(moto.endpoint, cdkOut);
  await takeOverEventSources(moto.endpoint, deployed);
  proxy = await startRecordingProxy(moto.endpoint);
  const r = await httpsReceiver(work);
  receiver = r;
  harness = new Harness(deployed, proxy, node, {
    NODE_EXTRA_CA_CERTS: r.cert,
    DOCEX_HARNESS_RECEIVER_PORT: String(r.port),
  }, [path.join(import.meta.dirname, 'webhook-loopback.mjs')]);
  api = await harness.startApi();

  // The README's admin command against the deployed stack: it finds the table through the stack's outputs.
  const created = execFileSync(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'create-project', '--name', 'deploy-suite', '--pages', '2000', '--stack', STACK], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, AWS_ENDPOINT_URL: moto.endpoint, AWS_ACCESS_KEY_ID: adminCredentials.accessKeyId, AWS_SECRET_ACCESS_KEY: adminCredentials.secretAccessKey, AWS_REGION: REGION },
  });
  liveKey = JSON.parse(created.trim().split('\n').pop()!).api_key;
}, 900_000);

afterAll(async () => {
  // The emulator, the runtimes and the receiver stop even when the report cannot be written (a call the check cannot read).
  try {
    if (harness) writeRunReport();
  } finally {
    await harness?.stop();
    await receiver?.close();
    await proxy?.close();
    moto?.stop();
    if (work && !process.env.DOCEX_DEPLOY_KEEP) fs.rmSync(work, { recursive: true, force: true });
  }
});

function writeRunReport(): void {
  const lines = [nodeNote, ...timings, '', 'AWS calls by function (operation: count), each checked against its deployed role:'];
  const byFn = new Map<string, Map<string, number>>();
  for (const c of harness.checkedCalls()) {
    const m = byFn.get(c.fn) ?? new Map<string, number>();
    m.set(c.operation, (m.get(c.operation) ?? 0) + 1);
    byFn.set(c.fn, m);
  }
  const used = new Map<string, Set<string>>();
  for (const c of harness.checkedCalls()) for (const p of c.permissions) (used.get(c.fn) ?? used.set(c.fn, new Set()).get(c.fn)!).add(p.action.toLowerCase());
  for (const fn of deployed.functions) {
    const calls = [...(byFn.get(fn.name) ?? new Map())].map(([op, n]) => `${op} ${n}`).join(', ');
    lines.push(`  ${fn.name} (${harness.invocations.get(fn.name) ?? 0} invocations): ${calls || 'no AWS calls'}`);
    // Granted but not called in this run: the logs actions are the runtime's, the SQS consume actions the event-source mapping's or a retry path's.
    const idle = [...new Set(grantedPermissions(fn.policies).map((p) => p.action))].filter((a) => !used.get(fn.name)?.has(a.toLowerCase()));
    if (idle.length > 0) lines.push(`    granted, not called here: ${idle.join(', ')}`);
  }
  writeReport(path.join(ROOT, 'test-artifacts', 'deploy-report.txt'), lines);
  console.log(lines.join('\n'));
}

const ok = (a: Answer, status: number) => {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  return a.body;
};
const queueArn = (output: string) => {
  const url = deployed.outputs[output]!;
  return `arn:aws:sqs:${REGION}:${ACCOUNT}:${url.split('/').pop()}`;
};
const drain = (queue: 'Extraction' | 'Chunks' | 'Webhooks') => harness.drainQueue(queueArn(`${queue}QueueUrl`));
const s3 = () => new S3Client({ endpoint: moto!.endpoint, region: REGION, credentials: adminCredentials, forcePathStyle: true });
const sfn = () => new SFNClient({ endpoint: moto!.endpoint, region: REGION, credentials: adminCredentials });

async function uploadLarge(pdf: Uint8Array): Promise<string> {
  const created = ok(await request(api, 'POST', '/v1/uploads', { key: liveKey, body: JSON.stringify({ filename: 'large.pdf', size: pdf.length }), headers: { 'content-type': 'application/json' } }), 201);
  // The presigned URL is signed by the uploads function, so the PUT is authorized (and checked) as its role.
  const put = await fetch(created.upload_url, { method: 'PUT', body: Buffer.from(pdf) });
  expect(put.status).toBe(200);
  const key = decodeURIComponent(new URL(created.upload_url).pathname.split('/').slice(2).join('/'));
  expect(await harness.objectCreated(deployed.outputs.BucketName!, key, pdf.length)).toBe(1);
  return created.job_id;
}

/** GET /v1/jobs/{id}, waiting out the once-a-second polling limit as a client must (Retry-After). */
async function job(id: string) {
  for (let attempt = 0; ; attempt++) {
    const answer = await request(api, 'GET', `/v1/jobs/${id}`, { key: liveKey });
    if (answer.status !== 429 || attempt === 3) return ok(answer, 200);
    await new Promise((r) => setTimeout(r, Number(answer.headers['retry-after'] ?? 1) * 1000 + 50));
  }
}

describe.sequential('the stack deployed into moto, driven through its synthesized assets', () => {
  it('deployed every function from its synthesized asset, with the runtime and wiring the template gives', () => {
    expect(deployed.functions.length).toBe(16);
    for (const fn of deployed.functions) {
      expect(fs.existsSync(fn.codeDir), `${fn.name}: ${fn.codeDir}`).toBe(true);
      expect(fn.config.Runtime).toBe('nodejs22.x');
    }
    expect(deployed.routes.length).toBeGreaterThan(0);
    expect(deployed.mappings.map((m) => m.queueArn).sort()).toEqual(['Extraction', 'Chunks', 'Webhooks'].map((q) => queueArn(`${q}QueueUrl`)).sort());
    expect(deployed.notifications.length).toBe(1);
  });

  it('site: the dashboard and the OpenAPI document', async () => {
    const doc = await fetch(`${api}/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect((await doc.json()).openapi).toMatch(/^3\./);
    const page = await fetch(`${api}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('sandbox-key: an anonymous trial key', async () => {
    const body = ok(await request(api, 'POST', '/v1/sandbox/key'), 201);
    expect(body.api_key).toMatch(/^sk_sandbox_/);
  });

  it('project: keys, jobs and usage', async () => {
    const created = ok(await request(api, 'POST', '/v1/keys', { key: liveKey }), 201);
    expect(ok(await request(api, 'GET', '/v1/keys', { key: liveKey }), 200).keys.length).toBe(2);
    expect((await request(api, 'DELETE', `/v1/keys/${created.id}`, { key: liveKey })).status).toBe(204);
    ok(await request(api, 'GET', '/v1/jobs', { key: liveKey }), 200);
    ok(await request(api, 'GET', '/v1/usage', { key: liveKey }), 200);
  });

  let webhookSecret = '';
  it('webhooks: a registration whose secret is sealed with the stack\'s KMS key, and its test delivery', async () => {
    const created = ok(await request(api, 'POST', '/v1/webhooks', {
      key: liveKey,
      body: JSON.stringify({ url: `${receiver!.url}/hook`, events: ['job.completed', 'job.failed', 'job.cancelled'] }),
      headers: { 'content-type': 'application/json' },
    }), 201);
    webhookSecret = created.secret;
    expect(ok(await request(api, 'GET', '/v1/webhooks', { key: liveKey }), 200).webhooks.length).toBe(1);
    const tested = ok(await request(api, 'POST', `/v1/webhooks/${created.id}/test`, { key: liveKey }), 200);
    expect(tested).toMatchObject({ delivered: true, status_code: 200 });
    const seen = receiver!.received.at(-1)!;
    expect(seen.headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', webhookSecret).update(seen.body).digest('hex')}`);
  });

  let pdfJob = '';
  it('submit, extract-worker (a PDF, and OCR of a scanned image), get-job, get-page, webhook-delivery', async () => {
    const png = await textImagePng('Deployed asset reads this');
    const answer = ok(await submit(api, liveKey, multipart([
      { name: 'report.pdf', bytes: makePdf({ pages: ['Deployed page one', 'Deployed page two'] }), type: 'application/pdf' },
      { name: 'scan.png', bytes: png, type: 'image/png' },
    ])), 202);
    const [pdfId, pngId] = answer.job_ids as string[];
    pdfJob = pdfId!;
    expect((await drain('Extraction')).failures).toBe(0);
    const pdf = await job(pdfId!);
    expect(pdf.status).toBe('completed');
    expect(pdf.result.content).toBe('Deployed page one\n\nDeployed page two');
    const scan = await job(pngId!);
    expect(scan.status).toBe('completed');
    expect(scan.result.content).toBe('Deployed asset reads this');
    expect(scan.result.metadata.ocr_pages).toEqual([1]);

    const page = await fetch(`${api}/v1/jobs/${pdfId}/pages/1`, { headers: { authorization: `Bearer ${liveKey}`, accept: 'image/png' } });
    expect(page.status).toBe(200);
    expect(Buffer.from(await page.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    const before = receiver!.received.length;
    expect((await drain('Webhooks')).failures).toBe(0);
    const deliveries = receiver!.received.slice(before);
    expect(deliveries.map((d) => JSON.parse(d.body).status).sort()).toEqual(['completed', 'completed']);
    for (const d of deliveries) expect(d.headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', webhookSecret).update(d.body).digest('hex')}`);
    const log = ok(await request(api, 'GET', `/v1/jobs/${pdfId}/deliveries`, { key: liveKey }), 200);
    expect(log.deliveries.length).toBeGreaterThan(0);
  });

  it('webhook-delivery: a failed attempt hides its message for the retry wait (GetQueueUrl, ChangeMessageVisibility), the next delivers', async () => {
    receiver!.answers.push(503);
    const answer = ok(await submit(api, liveKey, multipart([{ name: 'again.pdf', bytes: makePdf({ pages: ['Retried delivery'] }), type: 'application/pdf' }])), 202);
    expect((await drain('Extraction')).failures).toBe(0);
    const before = receiver!.received.length;
    expect(await harness.pollQueue(queueArn('WebhooksQueueUrl'), 1)).toEqual({ records: 1, failures: 1 });
    // The first retry waits 5 s (SQS brings the message back then, with its receive count as the attempt number).
    await new Promise((r) => setTimeout(r, 5_500));
    expect((await drain('Webhooks')).failures).toBe(0);
    const attempts = receiver!.received.slice(before).map((d) => JSON.parse(d.body));
    expect(attempts.map((a) => [a.job_id, a.attempt_count])).toEqual([[answer.job_ids[0], 1], [answer.job_ids[0], 2]]);
    const log = ok(await request(api, 'GET', `/v1/jobs/${answer.job_ids[0]}/deliveries`, { key: liveKey }), 200);
    expect(log.deliveries.length).toBeGreaterThan(0);
  });

  it('logs as Powertools does, with the invocation\'s request id and cold start, at the level the environment sets', async () => {
    const queueUrl = `${moto!.endpoint}/${ACCOUNT}/${deployed.outputs.ExtractionQueueUrl!.split('/').pop()}`;
    await new SQSClient({ endpoint: moto!.endpoint, region: REGION, credentials: adminCredentials }).send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not a job' }));
    expect(await drain('Extraction')).toEqual({ records: 1, failures: 0 });
    const lines = harness.output('extract-worker').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const dropped = lines.find((l) => l.message === 'dropping malformed extraction message');
    expect(dropped).toMatchObject({ level: 'INFO', service: 'docex', cold_start: false, function_name: harness.fn('extract-worker').config.FunctionName });
    expect(dropped!.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes its metrics as embedded metric format lines: the jobs the worker finished, the webhooks it delivered', () => {
    const emf = (fn: string) =>
      harness.output(fn).split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>).filter((l) => l._aws?.CloudWatchMetrics);
    const worker = emf('extract-worker');
    expect(worker.find((l) => l.JobsFinished !== undefined && l.format === 'pdf')).toMatchObject({ service: 'docex', status: 'completed' });
    expect(worker.find((l) => l.PagesExtracted !== undefined && l.format === 'png')?._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'Docex',
      Dimensions: [['service', 'format']],
    });
    const delivery = emf('webhook-delivery');
    expect(delivery.filter((l) => l.WebhookAttempts !== undefined).map((l) => l.outcome)).toEqual(expect.arrayContaining(['delivered', 'retrying']));
  });

  const large: Record<'cancelled' | 'merged' | 'failed', string> = { cancelled: '', merged: '', failed: '' };
  it('uploads, upload-arrived, extract-worker splitting, chunk-worker: three large documents reach aggregation', async () => {
    // Over limits.splitBytes (10 MB) in an unreferenced stream, so it is split yet quick to read: two chunks of 50 and 10 pages.
    const pages = Array.from({ length: 60 }, (_, i) => `Large page ${i + 1}`);
    const pdf = makePdf({ pages, padding: 10.5 * 1024 * 1024 });
    for (const which of ['cancelled', 'merged', 'failed'] as const) large[which] = await uploadLarge(pdf);
    expect((await drain('Extraction')).failures).toBe(0);
    expect((await drain('Chunks')).failures).toBe(0);
    for (const id of Object.values(large)) expect((await job(id)).status).toBe('aggregating');
    // The chunk worker that recorded the last part started an execution named after the job, in moto's Step Functions.
    const executions = (await sfn().send(new ListExecutionsCommand({ stateMachineArn: deployed.stateMachine.arn }))).executions ?? [];
    expect(executions.map((e) => e.name).sort()).toEqual(Object.values(large).sort());
  });

  it('cancel-job: cancelling an aggregating job stops its running execution', async () => {
    const body = ok(await request(api, 'POST', `/v1/jobs/${large.cancelled}/cancel`, { key: liveKey }), 200);
    expect(body.status).toBe('cancelled');
    const arn = `${deployed.stateMachine.arn.replace(':stateMachine:', ':execution:')}:${large.cancelled}`;
    expect((await sfn().send(new DescribeExecutionCommand({ executionArn: arn }))).status).toBe('ABORTED');
    expect((await job(large.cancelled)).status).toBe('cancelled');
  });

  const executionInput = async (id: string) =>
    JSON.parse((await sfn().send(new DescribeExecutionCommand({ executionArn: `${deployed.stateMachine.arn.replace(':stateMachine:', ':execution:')}:${id}` }))).input!);

  it('the aggregation state machine, run by aws-local-stepfunctions: aggregate-part, aggregate-finish', async () => {
    const run = await harness.runStateMachine(await executionInput(large.merged));
    expect(run.status, `${JSON.stringify(run.error)}\n${harness.functionErrors.join('\n')}`).toBe('SUCCEEDED');
    const merged = await job(large.merged);
    expect(merged.status).toBe('completed');
    expect(merged.pages).toBe(60);
    expect(merged.result.content).toContain('Large page 1\n\nLarge page 2');
    expect(merged.result.content).toContain('Large page 60');
  });

  it('aggregate-fail: a part that cannot be read fails the merge after its retries, and FailJob fails the job', async () => {
    const bucket = deployed.outputs.BucketName!;
    const parts = (await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'parts/' }))).Contents ?? [];
    const ofJob = parts.filter((p) => p.Key!.includes(large.failed));
    expect(ofJob.length).toBeGreaterThan(0);
    // A missing part is a document problem the merge reports itself; a corrupt one makes aggregate-part throw, which only the catch step handles.
    await s3().send(new PutObjectCommand({ Bucket: bucket, Key: ofJob[0]!.Key!, Body: 'not a part' }));
    const run = await harness.runStateMachine(await executionInput(large.failed));
    expect(run.status).toBe('FAILED');
    expect(run.error?.name, harness.functionErrors.join('\n')).toBe('docex.AggregationFailed');
    // Four retries after the first attempt, then the catch: the definition's Retry, as deployed.
    expect(harness.functionErrors.filter((e) => e.startsWith('aggregate-part: SyntaxError')).length).toBe(5);
    expect((await job(large.failed)).status).toBe('failed');
    expect((await drain('Webhooks')).failures).toBe(0);
  });

  it('invoked every deployed function', () => {
    const missing = deployed.functions.filter((fn) => !harness.invocations.get(fn.name)).map((fn) => fn.name);
    expect(missing).toEqual([]);
    expect(harness.invokeRefusals).toEqual([]);
  });

  it('every AWS call each function made is allowed by its deployed role', () => {
    const calls = harness.checkedCalls();
    expect(calls.length).toBeGreaterThan(50);
    expect(calls.filter((c) => c.denied.length > 0).map((c) => `${c.fn} ${c.operation}: ${c.denied.join('; ')}`)).toEqual([]);
  });

  it('fails a role that lacks any one action its function called', () => {
    const calls = harness.checkedCalls();
    const used = new Map<string, Set<string>>();
    for (const c of calls) for (const p of c.permissions) (used.get(c.fn) ?? used.set(c.fn, new Set()).get(c.fn)!).add(p.action);
    let removed = 0;
    for (const [name, actions] of used) {
      for (const action of actions) {
        const lacking = harness.checkedCalls((fn) => (fn.name === name ? withoutAction(fn.policies, action) : fn.policies));
        const denied = lacking.filter((c) => c.denied.length > 0);
        expect(denied.length, `${name} without ${action}`).toBeGreaterThan(0);
        expect(denied.every((c) => c.fn === name)).toBe(true);
        removed++;
      }
    }
    expect(removed).toBeGreaterThan(20);
  });
});
