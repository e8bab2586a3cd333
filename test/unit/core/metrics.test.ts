import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../lambdas/core/job.ts';
import { setMetricSink, type MetricPoint } from '../../../lambdas/core/metrics.ts';
import type { Blobs, JobFinish, Store, WebhookMessage } from '../../../lambdas/core/ports.ts';
import { deliverWebhookEvent, MAX_ATTEMPTS, type SendOutcome } from '../../../lambdas/core/webhook-delivery.ts';
import { processJob } from '../../../lambdas/core/process-job.ts';
import { ExtractionError, type ExtractionResult } from '../../../lambdas/extract/engine/types.ts';
import { makeJob } from '../../support/jobs.ts';

const resultOf = (pages: number, failedSections = 0): ExtractionResult => ({
  content: 'words',
  metadata: {
    format: 'pdf',
    mime_type: 'application/pdf',
    pages,
    char_count: 5,
    word_count: 1,
    ocr_pages: [],
    ...(failedSections ? { failed_sections: Array.from({ length: failedSections }, (_, i) => ({ name: `part${i}`, error: 'unreadable' })) } : {}),
  },
  tables: [],
  chunks: [],
});

/** The store calls the inline whole-document path makes, answering as DynamoDB's conditional writes would for one delivery. */
function storeFor(job: Job) {
  let current: Job = job;
  const store = {
    claimJob: async () => (current = { ...current, status: 'processing', attempts: current.attempts + 1 }),
    finishJob: async (finish: JobFinish) => (current = { ...current, ...finish.patch, status: finish.to }),
    transitionJob: async (_id: string, to: Job['status'], patch: Partial<Job>) => (current = { ...current, ...patch, status: to }),
    getJob: async () => current,
    refundPages: async () => undefined,
  };
  return store as unknown as Store;
}

const blobs = { put: async () => undefined, get: async () => null, delete: async () => undefined } as unknown as Blobs;

/** A clock that moves 40 ms per reading: the extractor's call spans two of them. */
function steppingClock() {
  let t = 1_000_000;
  return { now: () => (t += 40) };
}

function run(job: Job, extract: () => Promise<ExtractionResult>) {
  const points: MetricPoint[] = [];
  setMetricSink((point) => points.push(point));
  const deps = { store: storeFor(job), blobs, clock: steppingClock(), events: { jobFinished: async () => undefined }, extractor: { extract } };
  return processJob(deps, { job_id: job.id, project_id: job.project_id }, new Uint8Array([1, 2, 3]), { receiveCount: 1, maxReceiveCount: 3 }).then(() => points);
}

describe('metrics from the extraction worker', () => {
  afterEach(() => setMetricSink(() => undefined));

  it('a completed job records its pages, its extraction time and its status, by the format extracted', async () => {
    const points = await run(makeJob({ filename: 'report.bin' }), async () => resultOf(7));
    expect(points).toEqual([
      { name: 'JobsFinished', unit: 'Count', value: 1, dimensions: { status: 'completed', format: 'pdf' } },
      { name: 'PagesExtracted', unit: 'Count', value: 7, dimensions: { format: 'pdf' } },
      { name: 'ExtractionTime', unit: 'Milliseconds', value: 40, dimensions: { format: 'pdf' } },
    ]);
  });

  it('a partial result counts as partial_success', async () => {
    const points = await run(makeJob(), async () => resultOf(2, 1));
    expect(points.find((p) => p.name === 'JobsFinished')?.dimensions).toEqual({ status: 'partial_success', format: 'pdf' });
  });

  it('a failed job records only its status, with the format its filename names', async () => {
    const points = await run(makeJob({ filename: 'Scan.JPG' }), async () => {
      throw new ExtractionError('corrupt_file', 'The image is damaged.');
    });
    expect(points).toEqual([{ name: 'JobsFinished', unit: 'Count', value: 1, dimensions: { status: 'failed', format: 'jpeg' } }]);
  });

  it('a filename outside the known formats does not mint a dimension value', async () => {
    const points = await run(makeJob({ filename: 'x.unheard-of' }), async () => {
      throw new ExtractionError('unsupported_format', 'Not a document.');
    });
    expect(points[0]!.dimensions.format).toBe('other');
  });
});

describe('metrics from webhook delivery', () => {
  afterEach(() => setMetricSink(() => undefined));

  const job = makeJob({ status: 'completed', webhook: { url: 'https://hooks.example.com/docex' } });
  const message: WebhookMessage = { event_id: 'evt_1', event: 'job.completed', job_id: job.id, project_id: job.project_id, status: 'completed', error_message: null, target: { kind: 'inline' } };
  const store = {
    getWebhookEvent: async () => null,
    getJob: async (id: string) => (id === job.id ? job : null),
    recordDeliveryAttempt: async () => undefined,
    setWebhookEventState: async () => undefined,
  } as unknown as Store;

  async function outcomeOf(answer: SendOutcome, attempt: number, msg = message): Promise<MetricPoint[]> {
    const points: MetricPoint[] = [];
    setMetricSink((point) => points.push(point));
    const sender = { post: async () => answer };
    await deliverWebhookEvent({ store, cipher: {} as never, sender, clock: { now: () => 0 } }, msg, attempt);
    return points;
  }

  const response = (status: number) => ({ kind: 'response' as const, status, durationMs: 1, excerpt: '' });
  it.each([
    [response(204), 1, 'delivered'],
    [response(503), 1, 'retrying'],
    [response(503), MAX_ATTEMPTS, 'dead_lettered'],
    [response(404), 1, 'failed'],
  ] as const)('%j on attempt %i counts as %s', async (answer, attempt, outcome) => {
    expect(await outcomeOf(answer, attempt)).toEqual([{ name: 'WebhookAttempts', unit: 'Count', value: 1, dimensions: { outcome } }]);
  });

  it('an event whose job is gone counts as skipped', async () => {
    const points = await outcomeOf(response(204), 1, { ...message, job_id: 'gone' });
    expect(points).toEqual([{ name: 'WebhookAttempts', unit: 'Count', value: 1, dimensions: { outcome: 'skipped' } }]);
  });
});
