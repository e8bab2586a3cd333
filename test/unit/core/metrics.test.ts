import { afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../lambdas/core/job.ts';
import { setMetricSink, type MetricPoint } from '../../../lambdas/core/metrics.ts';
import type { Blobs, DeliveryAttempt, DeliveryLog, WebhookEventRecord, WebhookMessage } from '../../../lambdas/core/ports.ts';
import { deliverWebhookEvent, MAX_ATTEMPTS, type SendOutcome } from '../../../lambdas/core/webhook-delivery.ts';
import { processJob } from '../../../lambdas/core/process-job.ts';
import { ExtractionError, type ExtractionResult } from '../../../lambdas/extract/engine/types.ts';
import { makeJob } from '../../support/jobs.ts';
import { MemoryJobs, unlimitedQuotas } from '../../support/memory-jobs.ts';

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

const blobs = { put: async () => undefined, get: async () => null, delete: async () => undefined } as unknown as Blobs;

/** A clock that moves 40 ms per reading: the extractor's call spans two of them. */
function steppingClock() {
  let t = 1_000_000;
  return { now: () => (t += 40) };
}

function run(job: Job, extract: () => Promise<ExtractionResult>) {
  const points: MetricPoint[] = [];
  setMetricSink((point) => points.push(point));
  const deps = { jobs: new MemoryJobs([job]), quotas: unlimitedQuotas, blobs, clock: steppingClock(), events: { jobFinished: async () => undefined }, extractor: { extract } };
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

  it('a failed job records only its status, with the format its filename named when the document was taken in', async () => {
    const points = await run(makeJob({ filename: 'Scan.JPG', format_hint: 'jpeg' }), async () => {
      throw new ExtractionError('corrupt_file', 'The image is damaged.');
    });
    expect(points).toEqual([{ name: 'JobsFinished', unit: 'Count', value: 1, dimensions: { status: 'failed', format: 'jpeg' } }]);
  });

  it('a job whose document was never taken in (an upload that did not arrive) counts as unknown, whatever its filename', async () => {
    const points = await run(makeJob({ filename: 'report.pdf' }), async () => {
      throw new ExtractionError('unsupported_format', 'Not a document.');
    });
    expect(points[0]!.dimensions.format).toBe('unknown');
  });
});

describe('metrics from webhook delivery', () => {
  afterEach(() => setMetricSink(() => undefined));

  const job = makeJob({ status: 'completed', webhook: { url: 'https://hooks.example.com/docex' } });
  const message: WebhookMessage = { event_id: 'evt_1', event: 'job.completed', job_id: job.id, project_id: job.project_id, status: 'completed', error_message: null, target: { kind: 'inline' } };
  const jobs = { getJob: async (id: string) => (id === job.id ? job : null) };
  const webhooks = { getWebhook: async () => null };

  /** Events and attempts in memory; as in the table, an event once delivered stays delivered. */
  function deliveryLog(): DeliveryLog {
    const events = new Map<string, WebhookEventRecord>();
    const attempts: DeliveryAttempt[] = [];
    return {
      getWebhookEvent: async (jobId, eventId) => events.get(`${jobId}/${eventId}`) ?? null,
      setWebhookEventState: async (jobId, eventId, state, now) => {
        const event = events.get(`${jobId}/${eventId}`);
        if (event?.state === 'delivered') return;
        events.set(`${jobId}/${eventId}`, { job_id: jobId, event_id: eventId, state, queued_at: event?.queued_at ?? now, updated_at: now });
      },
      recordDeliveryAttempt: async (attempt) => void attempts.push(attempt),
      listDeliveryAttempts: async (jobId) => attempts.filter((a) => a.job_id === jobId).sort((a, b) => a.at - b.at),
    };
  }

  async function outcomeOf(answer: SendOutcome, attempt: number, msg = message): Promise<MetricPoint[]> {
    const points: MetricPoint[] = [];
    setMetricSink((point) => points.push(point));
    const sender = { post: async () => answer };
    await deliverWebhookEvent({ jobs, webhooks, deliveries: deliveryLog(), cipher: {} as never, sender, clock: { now: () => 0 } }, msg, attempt);
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
