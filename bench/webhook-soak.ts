// npm run bench:webhooks: a soak of webhook delivery, printed, never asserted.
//
// 1,000 terminal jobs announce themselves through the real JobEvents
// implementation onto the webhooks queue twin (persisted, as on the local
// server); the real delivery handler consumes it through the event-source
// mapping twin with the batch size and concurrency of lib/wiring.ts, against a
// receiver on loopback that fails 30% of attempts at random with a 500. The
// store is dynalite. Time runs at DOCEX_TIME_SCALE (default 0.01), so the
// 635 s retry schedule takes about 6 s; latencies are reported in scaled
// (service) time: real time divided by the scale. SOAK_RATE=50 paces the
// announcements (per real second) instead of sending them in one burst.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { dynamoClient } from '../lambdas/adapters/aws-clients.ts';
import { DynamoStore } from '../lambdas/adapters/dynamo-store.ts';
import { createWebhookSender } from '../lambdas/adapters/webhook-http.ts';
import type { Job } from '../lambdas/core/job.ts';
import { systemClock } from '../lambdas/core/ports.ts';
import { ATTEMPT_TIMEOUT_MS } from '../lambdas/core/webhook-delivery.ts';
import { WebhookEvents } from '../lambdas/core/webhook-events.ts';
import { sealSecret } from '../lambdas/core/webhook-secret.ts';
import { makeHandler } from '../lambdas/handlers/webhook-delivery.ts';
import { LOCAL_REGION, startEmbeddedAws } from '../lib/local/embedded-aws.ts';
import { startWiredMapping } from '../lib/local/event-source.ts';
import { FileSecretCipher } from '../lib/local/file-secret-cipher.ts';
import { QueueTwin } from '../lib/local/sqs-twin.ts';
import { TwinMessageVisibility, TwinWebhookQueue } from '../lib/local/twin-webhook-queue.ts';
import { queues } from '../lib/wiring.ts';
import { makeJob } from '../test/support/jobs.ts';
import { portsOf } from '../test/support/record-ports.ts';
import { signatureValid, startReceiver } from '../test/support/webhook-receiver.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const EVENTS = Number(process.env.SOAK_EVENTS ?? 1000);
const FAILURE_RATE = Number(process.env.SOAK_FAILURE_RATE ?? 0.3);
const TIME_SCALE = Number(process.env.DOCEX_TIME_SCALE ?? 0.01);
/** Events announced per real second; 0 announces all at once (a burst). */
const RATE = Number(process.env.SOAK_RATE ?? 0);
const SECRET = `soak-secret-${randomUUID()}`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-soak-'));
const aws = await startEmbeddedAws(dataDir);
const store = new DynamoStore(
  dynamoClient({ dynamodbEndpoint: aws.dynamodbEndpoint, region: LOCAL_REGION, credentials: aws.credentials }),
  aws.table,
);
const cipher = FileSecretCipher.open(dataDir);
const receiver = await startReceiver();
receiver.fallback = () => (Math.random() < FAILURE_RATE ? 500 : 200);

// Built as lib/local/server.ts builds them.
const spec = queues.webhooks;
const attemptTimeoutMs = Math.max(1000, ATTEMPT_TIMEOUT_MS * TIME_SCALE);
const dlq = new QueueTwin({ name: 'webhooks-dlq', dir: path.join(dataDir, 'queues', 'webhooks-dlq'), visibilityTimeoutSeconds: 30, timeScale: TIME_SCALE });
const queue = new QueueTwin({
  name: 'webhooks',
  dir: path.join(dataDir, 'queues', 'webhooks'),
  visibilityTimeoutSeconds: Math.max(spec.visibilityTimeoutSeconds, Math.ceil((6 * attemptTimeoutMs) / 1000 / TIME_SCALE)),
  maxReceiveCount: spec.maxReceiveCount,
  deadLetter: dlq,
  timeScale: TIME_SCALE,
});
const handler = makeHandler({
  ...portsOf(store),
  cipher,
  clock: systemClock,
  sender: createWebhookSender({ allowLoopback: true, timeoutMs: attemptTimeoutMs }),
  visibility: new TwinMessageVisibility([queue]),
});
const mapping = startWiredMapping('webhooks', queue, handler);
const events = new WebhookEvents({ ...portsOf(store), queue: new TwinWebhookQueue(queue), clock: systemClock });

const projectId = randomUUID();
const secret = await sealSecret(cipher, SECRET, projectId);
const jobs: Job[] = Array.from({ length: EVENTS }, (_, i) =>
  makeJob({ project_id: projectId, status: i % 10 === 0 ? 'failed' : 'completed', error_message: i % 10 === 0 ? 'soak failure' : null, webhook: { url: `${receiver.url}/soak`, secret } }),
);
for (let i = 0; i < jobs.length; i += 100) await store.putJobs(jobs.slice(i, i + 100));

console.log(
  `soak: ${EVENTS} events ${RATE > 0 ? `at ${RATE}/s` : 'in one burst'}, ${FAILURE_RATE * 100}% of attempts fail with 500, ` +
    `time scale ${TIME_SCALE}, batch ${spec.batchSize} x ${spec.maxConcurrency} consumers`,
);
const started = Date.now();
const announcedAt = new Map<string, number>();
await Promise.all(
  jobs.map(async (job, i) => {
    if (RATE > 0) await new Promise((r) => setTimeout(r, (i / RATE) * 1000));
    announcedAt.set(job.id, Date.now());
    await events.jobFinished(job);
  }),
);

// Done when every event has a final state: delivered, or dead-lettered and moved to the DLQ.
const settled = async () => {
  const s = queue.stats();
  return s.visible + s.inFlight + s.delayed === 0;
};
const deadline = Date.now() + 10 * 60_000;
while (!(await settled())) {
  if (Date.now() > deadline) throw new Error(`soak did not settle: ${JSON.stringify(queue.stats())}`);
  await new Promise((r) => setTimeout(r, 200));
}
const wallMs = Date.now() - started;

const successes = receiver.received.filter((r) => r.answer === 200);
const byEvent = new Map<string, number>();
for (const r of successes) {
  const { event_id } = JSON.parse(r.body);
  byEvent.set(event_id, (byEvent.get(event_id) ?? 0) + 1);
}
const duplicates = [...byEvent.values()].filter((n) => n > 1).length;
const badSignatures = receiver.received.filter((r) => !signatureValid(r, SECRET)).length;

const latencies: number[] = [];
const firstAttemptLatencies: number[] = [];
const attemptsPerEvent: number[] = [];
for (const job of jobs) {
  const log = await store.listDeliveryAttempts(job.id);
  attemptsPerEvent.push(log.length);
  const delivered = log.find((a) => a.outcome === 'delivered');
  if (!delivered) continue;
  const realMs = delivered.at + delivered.duration_ms - announcedAt.get(job.id)!;
  latencies.push(realMs / TIME_SCALE);
  if (delivered.attempt === 1) firstAttemptLatencies.push(realMs);
}
latencies.sort((a, b) => a - b);
firstAttemptLatencies.sort((a, b) => a - b);
const histogram: Record<number, number> = {};
for (const n of attemptsPerEvent) histogram[n] = (histogram[n] ?? 0) + 1;

const report = {
  events: EVENTS,
  delivered: byEvent.size,
  attempts: receiver.received.length,
  attempts_recorded: attemptsPerEvent.reduce((a, b) => a + b, 0),
  attempts_per_event: histogram,
  duplicates_seen_by_receiver: duplicates,
  dead_lettered: dlq.stats().visible,
  bad_signatures: badSignatures,
  latency_scaled_s: {
    p50: +(percentile(latencies, 50) / 1000).toFixed(1),
    p99: +(percentile(latencies, 99) / 1000).toFixed(1),
    max: +(latencies.at(-1)! / 1000).toFixed(1),
  },
  // Queueing behind the 1,000-event burst on this machine, in real time: scaling does not shrink it, so it is
  // reported apart from the scaled figures, which it inflates by 1 / DOCEX_TIME_SCALE.
  first_attempt_delivery_real_ms: { p50: percentile(firstAttemptLatencies, 50), p99: percentile(firstAttemptLatencies, 99) },
  wall_clock_s: +(wallMs / 1000).toFixed(1),
};
console.log(JSON.stringify(report, null, 2));

await mapping.stop();
await queue.close();
await dlq.close();
await receiver.close();
await aws.close();
fs.rmSync(dataDir, { recursive: true, force: true });
