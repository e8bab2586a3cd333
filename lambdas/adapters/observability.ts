// Logging in Lambda through Powertools for AWS Lambda's logger: each line is
// one JSON object carrying the invocation's request id, function, cold start
// and, where the event names them, the job and project it is about, so
// CloudWatch Logs Insights can follow one job across functions. The level is
// POWERTOOLS_LOG_LEVEL, else Lambda's own log level (AWS_LAMBDA_LOG_LEVEL), else INFO.

import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { setLogSink } from '../core/log.ts';

export const logger = new Logger({ serviceName: 'docex' });

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

/** Called at the start of each invocation: the lines that follow carry its context and ids. */
export function beginInvocation(event: unknown, context: Context | undefined): void {
  if (!routed) {
    // The core's own lines (lambdas/core/log.ts) go through the logger, with the same keys.
    setLogSink((message, fields) => logger.info(message, fields));
    routed = true;
  }
  logger.resetKeys();
  if (context) logger.addContext(context);
  logger.appendKeys(correlationOf(event));
}
