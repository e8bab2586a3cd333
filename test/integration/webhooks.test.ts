// Webhook delivery with real parts: the delivery handler on the SQS twin's
// event-source mapping (time scaled down), the store on dynalite (or
// AWS_ENDPOINT_URL), the local secret cipher, and a real HTTP receiver on
// loopback that answers each attempt as the test scripts it.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { portsOf } from '../support/record-ports.ts';
import { createWebhookSender } from '../../lambdas/adapters/webhook-http.ts';
import type { Job } from '../../lambdas/core/job.ts';
import { systemClock, type MessageVisibility, type WebhookEventRecord } from '../../lambdas/core/ports.ts';
import { WebhookEvents } from '../../lambdas/core/webhook-events.ts';
import { sealSecret } from '../../lambdas/core/webhook-secret.ts';
import { makeHandler } from '../../lambdas/handlers/webhook-delivery.ts';
import { startEventSourceMapping } from '../../lib/local/event-source.ts';
import { FileSecretCipher } from '../../lib/local/file-secret-cipher.ts';
import { QueueTwin } from '../../lib/local/sqs-twin.ts';
import { TwinMessageVisibility, TwinWebhookQueue } from '../../lib/local/twin-webhook-queue.ts';
import { skipWithoutEndpoint, startBackend, storeClient, type Backend } from '../support/aws-backend.ts';
import { makeJob } from '../support/jobs.ts';
import { signatureValid, startReceiver, type Receiver } from '../support/webhook-receiver.ts';

/** 5 minutes become 300 ms. */
const TIME_SCALE = 0.001;
const ATTEMPT_TIMEOUT_MS = 400;

describe.skipIf(skipWithoutEndpoint())('webhook delivery', () => {
  let backend: Backend;
  let store: DynamoStore;
  let cipher: FileSecretCipher;
  let keyDir: string;
  let receiver: Receiver;
  let queue: QueueTwin;
  let dlq: QueueTwin;
  let mapping: { stop(): Promise<void> };
  let events: WebhookEvents;
  /** Every visibility the handler set, per event: the waits between attempts. */
  const waits = new Map<string, number[]>();

  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-webhooks-'));
    cipher = FileSecretCipher.open(keyDir);
    // The huge answer must outgrow what loopback TCP can buffer (autotuned up to tcp_rmem's
    // maximum, 32 MB on some kernels), or it is all written before the client cuts it short.
    receiver = await startReceiver({ slowMs: 1500, hugeBytes: 256 * 1024 * 1024 });
    dlq = new QueueTwin({ name: 'webhooks-dlq', dir: null, visibilityTimeoutSeconds: 30, timeScale: TIME_SCALE });
    // In-flight visibility far beyond one attempt, so no attempt can be received twice while it runs.
    queue = new QueueTwin({ name: 'webhooks', dir: null, visibilityTimeoutSeconds: 20_000, maxReceiveCount: 5, deadLetter: dlq, timeScale: TIME_SCALE });
    const twinVisibility = new TwinMessageVisibility([queue]);
    const visibility: MessageVisibility = {
      change: async (handle, seconds, arn) => {
        const body = JSON.parse((await peekBody(handle)) ?? '{}');
        waits.set(body.event_id, [...(waits.get(body.event_id) ?? []), seconds]);
        await twinVisibility.change(handle, seconds, arn);
      },
    };
    const bodies = new Map<string, string>();
    const peekBody = async (handle: string) => bodies.get(handle);
    const handler = makeHandler({
      ...portsOf(store),
      cipher,
      clock: systemClock,
      sender: createWebhookSender({ allowLoopback: true, timeoutMs: ATTEMPT_TIMEOUT_MS }),
      visibility,
    });
    mapping = startEventSourceMapping(
      queue,
      async (event, context) => {
        for (const r of event.Records) bodies.set(r.receiptHandle, r.body);
        return handler(event);
      },
      { batchSize: 10, maxConcurrency: 2, functionName: 'webhook-delivery' },
    );
    events = new WebhookEvents({ ...portsOf(store), queue: new TwinWebhookQueue(queue), clock: systemClock });
  });

  afterAll(async () => {
    await mapping?.stop();
    await queue?.close();
    await dlq?.close();
    await receiver?.close();
    await backend?.dispose();
    if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    receiver.fallback = 200;
  });

  /** A terminal job with an inline webhook to a fresh path on the receiver. */
  async function finishedJob(overrides: Partial<Job> = {}, secret?: string): Promise<{ job: Job; path: string }> {
    const hookPath = `/hook/${randomUUID()}`;
    const base = makeJob({ status: 'completed', ...overrides });
    const job: Job = {
      ...base,
      webhook:
        overrides.webhook === undefined
          ? { url: receiver.url + hookPath, ...(secret ? { secret: await sealSecret(cipher, secret, base.project_id) } : {}) }
          : overrides.webhook,
    };
    await store.putJobs([job]);
    return { job, path: hookPath };
  }

  async function eventSettles(jobId: string, states: WebhookEventRecord['state'][], timeoutMs = 20_000): Promise<WebhookEventRecord> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const attempts = await store.listDeliveryAttempts(jobId);
      const attempt = attempts.at(-1);
      const record = attempt ? await store.getWebhookEvent(jobId, attempt.event_id) : null;
      if (record && states.includes(record.state)) return record;
      if (Date.now() > deadline) {
        const log = attempts.map((a) => `${a.attempt}:${a.outcome}`).join(', ');
        throw new Error(`event of job ${jobId} did not reach ${states.join('/')}; now ${JSON.stringify(record)}; attempts [${log}]; queue ${JSON.stringify(queue.stats())}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const until = async (check: () => boolean, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('delivers a signed payload that an independent HMAC verifies, and a wrong secret or changed body does not', async () => {
    const secret = `s3cret-${randomUUID()}-${randomUUID()}`;
    const { job, path: hook } = await finishedJob({}, secret);
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);

    const [got] = receiver.at(hook);
    expect(signatureValid(got!, secret)).toBe(true);
    expect(signatureValid(got!, `${secret}x`)).toBe(false);
    expect(signatureValid({ ...got!, body: got!.body.replace('"completed"', '"failed"') }, secret)).toBe(false);
    const payload = JSON.parse(got!.body);
    expect(payload).toEqual({
      event_id: expect.stringMatching(/^evt_/),
      job_id: job.id,
      project_id: job.project_id,
      status: 'completed',
      error_message: null,
      timestamp: expect.any(Number),
      attempt_count: 1,
    });
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['user-agent']).toMatch(/^docex-webhook\/\d+\.\d+\.\d+$/);
    expect(got!.headers['x-idempotency-key']).toBe(payload.event_id);
  });

  it('sends no signature header when the webhook has no secret', async () => {
    const { job, path: hook } = await finishedJob({ status: 'failed', error_message: 'The PDF is encrypted.' });
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);
    const [got] = receiver.at(hook);
    expect(got!.headers['x-webhook-signature']).toBeUndefined();
    expect(JSON.parse(got!.body)).toMatchObject({ status: 'failed', error_message: 'The PDF is encrypted.' });
  });

  it('retries 500 and 429 with waits of 5 s, 30 s and 5 min, numbering attempts by receive count', async () => {
    const { job, path: hook } = await finishedJob();
    receiver.script(hook, [500, 429, 503, 200]);
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);

    expect(receiver.at(hook).map((r) => JSON.parse(r.body).attempt_count)).toEqual([1, 2, 3, 4]);
    const eventId = JSON.parse(receiver.at(hook)[0]!.body).event_id;
    expect(waits.get(eventId)).toEqual([5, 30, 300]);
    const log = await store.listDeliveryAttempts(job.id);
    expect(log.map((a) => [a.attempt, a.status_code, a.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 429, 'retrying'],
      [3, 503, 'retrying'],
      [4, 200, 'delivered'],
    ]);
    expect(log[0]!.error).toMatch(/^HTTP 500/);
    expect(new Set(receiver.at(hook).map((r) => JSON.parse(r.body).event_id)).size).toBe(1);
  });

  it('dead-letters after exactly five attempts, and a redrive sends the event again from attempt 1', async () => {
    const { job, path: hook } = await finishedJob();
    receiver.script(hook, [500, 500, 500, 500, 500]);
    await events.jobFinished(job);
    await eventSettles(job.id, ['dead_lettered']);
    await until(() => dlq.stats().visible === 1);

    expect(receiver.at(hook)).toHaveLength(5);
    const eventId = JSON.parse(receiver.at(hook)[0]!.body).event_id;
    expect(waits.get(eventId)).toEqual([5, 30, 300, 300, 0]);
    expect((await store.listDeliveryAttempts(job.id)).map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'dead_lettered']);

    expect(await dlq.moveMessagesTo(queue)).toBe(1);
    await eventSettles(job.id, ['delivered']);
    expect(receiver.at(hook).map((r) => JSON.parse(r.body).attempt_count)).toEqual([1, 2, 3, 4, 5, 1]);
  });

  it('stops at once on a 4xx other than 429', async () => {
    const { job, path: hook } = await finishedJob();
    receiver.script(hook, [410]);
    await events.jobFinished(job);
    const record = await eventSettles(job.id, ['failed']);
    expect(record.state).toBe('failed');
    await new Promise((r) => setTimeout(r, 500)); // 5 s at this scale: a retry would have come
    expect(receiver.at(hook)).toHaveLength(1);
    expect((await store.listDeliveryAttempts(job.id)).map((a) => [a.status_code, a.outcome])).toEqual([[410, 'failed']]);
  });

  it('counts an answer slower than the time limit as a timeout and tries again', async () => {
    const { job, path: hook } = await finishedJob();
    receiver.script(hook, ['slow', 200]);
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);
    const log = await store.listDeliveryAttempts(job.id);
    expect(log.map((a) => [a.status_code, a.outcome])).toEqual([
      [null, 'retrying'],
      [200, 'delivered'],
    ]);
    expect(log[0]!.error).toMatch(/No answer within/);
  });

  it('takes a 2xx with a huge body as delivered without reading all of it', async () => {
    const { job, path: hook } = await finishedJob();
    receiver.script(hook, ['huge']);
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);
    await until(() => receiver.at(hook)[0]!.cutShort !== undefined && receiver.at(hook)[0]!.cutShort !== false);
    expect(receiver.at(hook)[0]!.cutShort).toBe(true);
  });

  it('never posts an event successfully twice: not for a redelivered message, not for a re-announced job', async () => {
    const { job, path: hook } = await finishedJob();
    await events.jobFinished(job);
    await eventSettles(job.id, ['delivered']);
    const first = JSON.parse(receiver.at(hook)[0]!.body);

    // SQS delivers at least once: the same message again, as after a lost delete.
    await queue.send({
      body: JSON.stringify({ event_id: first.event_id, event: 'job.completed', job_id: job.id, project_id: job.project_id, status: 'completed', error_message: null, target: { kind: 'inline' } }),
    });
    // And the extraction worker announces the job again when its own message is redelivered.
    await events.jobFinished(job);
    await until(() => queue.stats().visible + queue.stats().inFlight === 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at(hook)).toHaveLength(1);
  });

  it('sends only the kinds a registration selected, and the inline webhook replaces registrations', async () => {
    const projectId = randomUUID();
    const register = async (events: ('job.completed' | 'job.failed' | 'job.cancelled')[]) => {
      const id = randomUUID();
      await store.putWebhook({ id, project_id: projectId, url: `${receiver.url}/reg/${id}`, events, secret: await sealSecret(cipher, 'x'.repeat(32), projectId), created_at: Date.now() });
      return `/reg/${id}`;
    };
    const onCompleted = await register(['job.completed']);
    const onFailed = await register(['job.failed']);
    const onBoth = await register(['job.completed', 'job.failed']);

    const failed = await finishedJob({ project_id: projectId, status: 'failed', error_message: 'bad', webhook: null });
    await events.jobFinished(failed.job);
    const partial = await finishedJob({ project_id: projectId, status: 'partial_success', webhook: null });
    await events.jobFinished(partial.job);
    const inline = await finishedJob({ project_id: projectId, status: 'completed' });
    await events.jobFinished(inline.job);
    const filteredInline = await finishedJob({ project_id: projectId, status: 'completed', webhook: { url: `${receiver.url}/inline-failed-only`, events: ['job.failed'] } });
    await events.jobFinished(filteredInline.job);

    await until(() => receiver.at(onBoth).length === 2 && receiver.at(onFailed).length === 1 && receiver.at(onCompleted).length === 1 && receiver.at(inline.path).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at(onFailed).map((r) => JSON.parse(r.body).job_id)).toEqual([failed.job.id]);
    expect(receiver.at(onCompleted).map((r) => JSON.parse(r.body))).toMatchObject([{ job_id: partial.job.id, status: 'partial_success' }]);
    expect(receiver.at(onBoth).map((r) => JSON.parse(r.body).job_id).sort()).toEqual([failed.job.id, partial.job.id].sort());
    expect(receiver.at('/inline-failed-only')).toHaveLength(0);
    expect(await store.listDeliveryAttempts(filteredInline.job.id)).toEqual([]);
  });
});

describe.skipIf(skipWithoutEndpoint())("the store's webhook records", () => {
  let backend: Backend;
  let store: DynamoStore;
  beforeAll(async () => {
    backend = await startBackend();
    store = new DynamoStore(storeClient(backend), backend.table);
  });
  afterAll(async () => backend?.dispose());

  const record = (jobId: string, queuedAt: number) => ({ job_id: jobId, event_id: 'evt_1', state: 'queued' as const, queued_at: queuedAt, updated_at: queuedAt });

  it('claims an event once, again only when its claim went stale, and never once delivered', async () => {
    const jobId = randomUUID();
    expect(await store.claimWebhookEvent(record(jobId, 1000), 0)).toBe(true);
    expect(await store.claimWebhookEvent(record(jobId, 2000), 1000)).toBe(false);
    expect(await store.claimWebhookEvent(record(jobId, 3000), 1001)).toBe(true);
    await store.setWebhookEventState(jobId, 'evt_1', 'delivered', 4000);
    expect(await store.claimWebhookEvent(record(jobId, 9e12), 9e12)).toBe(false);
  });

  it('keeps an event delivered when a late copy fails, and forgets a released claim', async () => {
    const jobId = randomUUID();
    await store.claimWebhookEvent(record(jobId, 1000), 0);
    await store.setWebhookEventState(jobId, 'evt_1', 'delivered', 2000);
    await store.setWebhookEventState(jobId, 'evt_1', 'dead_lettered', 3000);
    expect((await store.getWebhookEvent(jobId, 'evt_1'))?.state).toBe('delivered');

    const other = randomUUID();
    await store.claimWebhookEvent(record(other, 1000), 0);
    await store.releaseWebhookEvent(other, 'evt_1');
    expect(await store.getWebhookEvent(other, 'evt_1')).toBeNull();
    expect(await store.claimWebhookEvent(record(other, 1001), 0)).toBe(true);
  });

  it('lists, finds and deletes registrations within their project only', async () => {
    const projectId = randomUUID();
    const registration = { id: randomUUID(), project_id: projectId, url: 'https://h.example/x', events: ['job.failed' as const], secret: { ciphertext: 'c', fingerprint: 'sha256:f' }, created_at: 1 };
    await store.putWebhook(registration);
    expect(await store.listWebhooks(projectId)).toEqual([registration]);
    expect(await store.listWebhooks(randomUUID())).toEqual([]);
    expect(await store.getWebhook(randomUUID(), registration.id)).toBeNull();
    expect(await store.deleteWebhook(randomUUID(), registration.id)).toBe(false);
    expect(await store.deleteWebhook(projectId, registration.id)).toBe(true);
    expect(await store.deleteWebhook(projectId, registration.id)).toBe(false);
    expect(await store.listWebhooks(projectId)).toEqual([]);
  });
});

describe('the delivery client refuses addresses inside the network when it connects', () => {
  let receiver: Receiver;
  beforeAll(async () => (receiver = await startReceiver()));
  afterAll(async () => receiver?.close());

  it.each([
    ['a name that resolves to loopback', '127.0.0.1', 4, /loopback/],
    ['a name that resolves to an IPv4-mapped loopback', '::ffff:127.0.0.1', 6, /loopback/],
    ['a name that resolves to the metadata service', '169.254.169.254', 4, /link-local/],
    // Issue #18 item 5: the IPv6 forms that embed an IPv4 address are refused at connect time too.
    ['a name that resolves to an SIIT address', '::ffff:0:7f00:1', 6, /SIIT/],
    ['a name that resolves to a local-use NAT64 address', '64:ff9b:1::7f00:1', 6, /NAT64/],
    ['a name that resolves to a Teredo address', '2001:0:4136:e378:8000:63bf:80ff:fffe', 6, /Teredo/],
    ['a name that resolves to 6to4 of private space', '2002:a00:1::1', 6, /6to4.*10\.0\.0\.1/],
  ])('in the cloud: %s', async (_, address, family, why) => {
    const port = new URL(receiver.url).port;
    // The name resolved somewhere public at registration; now it answers with an inside address (DNS rebinding).
    const sender = createWebhookSender({ allowLoopback: false, resolve: async () => [{ address, family }] });
    const before = receiver.received.length;
    const outcome = await sender.post(`https://rebind.example:${port}/x`, '{}', {});
    expect(outcome).toMatchObject({ kind: 'refused', message: expect.stringMatching(why) });
    expect(receiver.received.length).toBe(before);
  });

  it('in the cloud: plain http and loopback literals never connect', async () => {
    const sender = createWebhookSender({ allowLoopback: false });
    expect(await sender.post(receiver.url, '{}', {})).toMatchObject({ kind: 'refused' });
    expect(await sender.post(`https://[::ffff:7f00:1]:${new URL(receiver.url).port}/`, '{}', {})).toMatchObject({ kind: 'refused' });
    expect(receiver.received).toHaveLength(0);
  });

  it('on the local server: loopback receivers are reached, private ones are not', async () => {
    const sender = createWebhookSender({ allowLoopback: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    expect(await sender.post(`http://localhost:${new URL(receiver.url).port}/ok`, '{}', {})).toMatchObject({ kind: 'response', status: 200 });
    const privateSender = createWebhookSender({ allowLoopback: true, resolve: async () => [{ address: '10.0.0.8', family: 4 }] });
    expect(await privateSender.post('https://intranet.example/x', '{}', {})).toMatchObject({ kind: 'refused', message: expect.stringMatching(/private/) });
    const nat64Sender = createWebhookSender({ allowLoopback: true, resolve: async () => [{ address: '64:ff9b::7f00:1', family: 6 }] });
    expect(await nat64Sender.post('https://nat64.example/x', '{}', {})).toMatchObject({ kind: 'refused', message: expect.stringMatching(/NAT64/) });
  });

  it('does not follow redirects', async () => {
    receiver.script('/moved', [302]);
    const sender = createWebhookSender({ allowLoopback: true });
    const outcome = await sender.post(`${receiver.url}/moved`, '{}', {});
    expect(outcome).toMatchObject({ kind: 'response', status: 302 });
    expect(receiver.at('/moved')).toHaveLength(1);
  });
});
