// docex's own metrics, recorded by the core without knowing where they go: in
// Lambda the adapter (lambdas/adapters/observability.ts) writes them as
// CloudWatch embedded metric format through Powertools; the local server has
// no CloudWatch, so there they go nowhere. DLQ depth is not among them: SQS
// publishes ApproximateNumberOfMessagesVisible for every queue itself.

import type { Job, JobStatus } from './job.ts';

export type MetricUnit = 'Count' | 'Milliseconds';

export interface MetricPoint {
  name: 'PagesExtracted' | 'ExtractionTime' | 'JobsFinished' | 'WebhookAttempts';
  unit: MetricUnit;
  value: number;
  dimensions: Record<string, string>;
}

type Sink = (point: MetricPoint) => void;

let sink: Sink = () => undefined;

export const recordMetric = (point: MetricPoint): void => sink(point);

export const setMetricSink = (next: Sink): void => {
  sink = next;
};

/**
 * The format dimension of a job that ended without a result to say what it
 * was (failed, cancelled, or a large document merged from its parts): the
 * bytes decide formats (extract/detect.ts), but by then they are gone or were
 * never read, so the format its filename names stands in, as recorded when
 * the document was taken in (Job.format_hint, from the engine's registry,
 * which the functions that take documents in bundle anyway); "unknown" for a
 * job whose document never arrived. Every distinct dimension value is a
 * separate CloudWatch metric, billed by the month, so the hint is a format's
 * name or "other", never the client's own extension.
 */
export function formatHint(job: Pick<Job, 'format_hint'>): string {
  return job.format_hint ?? 'unknown';
}

/**
 * Recorded by the call whose conditional write moved the job to `status`,
 * never by a redelivery that finds it finished, so each job counts once.
 * `extractionMs` is the extractor's own wall time, known only where one call
 * extracted the whole document.
 */
export function recordJobFinished(status: JobStatus, format: string, result?: { pages: number; extractionMs?: number }): void {
  recordMetric({ name: 'JobsFinished', unit: 'Count', value: 1, dimensions: { status, format } });
  if (!result) return;
  recordMetric({ name: 'PagesExtracted', unit: 'Count', value: result.pages, dimensions: { format } });
  if (result.extractionMs !== undefined) recordMetric({ name: 'ExtractionTime', unit: 'Milliseconds', value: result.extractionMs, dimensions: { format } });
}

/** One delivery attempt of one webhook event, as webhook-delivery.ts judged it. */
export function recordWebhookAttempt(outcome: 'delivered' | 'retrying' | 'failed' | 'dead_lettered' | 'skipped'): void {
  recordMetric({ name: 'WebhookAttempts', unit: 'Count', value: 1, dimensions: { outcome } });
}
