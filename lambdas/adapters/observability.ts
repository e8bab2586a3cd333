// Logging in Lambda through Powertools for AWS Lambda's logger: each line is
// one JSON object carrying the invocation's request id, function, cold start
// and, where the event names them, the job and project it is about, so
// CloudWatch Logs Insights can follow one job across functions. The level is
// POWERTOOLS_LOG_LEVEL, else Lambda's own log level (AWS_LAMBDA_LOG_LEVEL), else INFO.
//
// The core's metrics (lambdas/core/metrics.ts) leave through Powertools'
// Metrics as embedded metric format: JSON lines on stdout from which
// CloudWatch Logs makes the metrics, with no PutMetricData call (and no
// permission for one) on the request path.

import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { setLogSink } from '../core/log.ts';
import { setMetricSink, type MetricPoint } from '../core/metrics.ts';

export const logger = new Logger({ serviceName: 'docex' });

export const metrics = new Metrics({ namespace: 'Docex', serviceName: 'docex' });

/** The dimensions of the metrics stored and not yet published, as a comparable key. */
let storedKey: string | null = null;

/**
 * Powertools gives one set of dimensions to every metric stored between two
 * publishes, so a point whose dimensions differ from the stored ones first
 * publishes those; points that share them (a batch's jobs of one format)
 * travel in one line.
 */
export function recordToPowertools(point: MetricPoint): void {
  const key = JSON.stringify(Object.entries(point.dimensions).sort(([a], [b]) => a.localeCompare(b)));
  if (metrics.hasStoredMetrics() && key !== storedKey) publishMetrics();
  if (!metrics.hasStoredMetrics()) {
    metrics.addDimensions(point.dimensions);
    storedKey = key;
  }
  metrics.addMetric(point.name, point.unit, point.value);
}

/**
 * Called at the end of every invocation, whether it succeeded or threw. Most
 * invocations (the API's reads, most of all) record nothing, and Powertools
 * warns on every publish of nothing, so only stored metrics are published.
 */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  storedKey = null;
}

type Fields = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function fromBody(body: unknown): { job_id?: string; project_id?: string } {
  try {
    const parsed = typeof body === 'string' ? (JSON.parse(body) as Fields) : null;
    return { job_id: str(parsed?.job_id), project_id: str(parsed?.project_id) };
  } catch {
    return {};
  }
}

/** The job and project an event is about: a job route's path, a one-record SQS batch, a state machine task's input. */
export function correlationOf(event: unknown): Record<string, string> {
  const e = (event ?? {}) as Fields;
  let ids: { job_id?: string; project_id?: string } = {};
  const records = Array.isArray(e.Records) ? (e.Records as Fields[]) : null;
  if (records && records.length === 1 && records[0]!.eventSource === 'aws:sqs') ids = fromBody(records[0]!.body);
  else if (typeof e.resource === 'string' && e.resource.startsWith('/v1/jobs/{id}')) ids = { job_id: str((e.pathParameters as Fields | null)?.id) };
  else if (!records) ids = { job_id: str(e.job_id), project_id: str(e.project_id) };
  return Object.fromEntries(Object.entries(ids).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

let routed = false;

/** Called at the start of each invocation: the lines that follow carry its context and ids, and its metrics go to CloudWatch. */
export function beginInvocation(event: unknown, context: Context | undefined): void {
  if (!routed) {
    // The core's own lines (lambdas/core/log.ts) go through the logger, with the same keys.
    setLogSink((message, fields) => logger.info(message, fields));
    setMetricSink(recordToPowertools);
    routed = true;
  }
  logger.resetKeys();
  if (context) logger.addContext(context);
  logger.appendKeys(correlationOf(event));
}
