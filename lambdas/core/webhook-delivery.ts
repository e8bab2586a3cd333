// One delivery attempt of one webhook event, and what follows from its
// outcome (SPEC.md section 6, DESIGN.md section 6). The attempt number is the
// SQS receive count: the wait before the next attempt is set as the message's
// own visibility, so no other state is needed to follow the schedule, and the
// queue's redrive policy dead-letters the event after the fifth failure.

import { recordWebhookAttempt } from './metrics.ts';
import type { Clock, DeliveryAttempt, DeliveryLog, JobLookup, WebhookLookup, WebhookMessage, WebhookRegistration } from './ports.ts';
import { openSecret, signatureOf, type SealedSecret, type SecretCipher } from './webhook-secret.ts';
import { SERVICE_NAME, SERVICE_VERSION } from './version.ts';

export const MAX_ATTEMPTS = 5;
/** Seconds to wait after attempt n (1-based) fails, before attempt n + 1. */
export const RETRY_WAITS_SECONDS = [5, 30, 300, 300] as const;
export const ATTEMPT_TIMEOUT_MS = 30_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const USER_AGENT = `${SERVICE_NAME}-webhook/${SERVICE_VERSION}`;

export interface WebhookPayload {
  event_id: string;
  job_id: string;
  project_id: string;
  status: string;
  error_message: string | null;
  timestamp: number;
  attempt_count: number;
}

export type SendOutcome =
  | { kind: 'response'; status: number; durationMs: number; excerpt: string }
  /** timeout: no status within the time limit; connection: DNS, TCP or TLS failed; refused: the address rules forbade it. */
  | { kind: 'timeout' | 'connection' | 'refused'; durationMs: number; message: string };

export interface WebhookSender {
  post(url: string, body: string, headers: Record<string, string>): Promise<SendOutcome>;
}

export type Verdict = 'delivered' | 'retry' | 'permanent';

/** 2xx succeeds; 429, 5xx, timeouts and connection errors are retried; anything else will not get better by retrying. */
export function judge(outcome: SendOutcome): { verdict: Verdict; error: string | null } {
  switch (outcome.kind) {
    case 'timeout':
    case 'connection':
      return { verdict: 'retry', error: outcome.message };
    case 'refused':
      return { verdict: 'permanent', error: outcome.message };
    case 'response': {
      const { status, excerpt } = outcome;
      const detail = excerpt ? `: ${excerpt.slice(0, 200)}` : '';
      if (status >= 200 && status < 300) return { verdict: 'delivered', error: null };
      if (status === 429 || status >= 500) return { verdict: 'retry', error: `HTTP ${status}${detail}` };
      if (status >= 300 && status < 400) {
        return { verdict: 'permanent', error: `HTTP ${status}: redirects are not followed; register the final URL` };
      }
      return { verdict: 'permanent', error: `HTTP ${status}${detail}` };
    }
  }
}

export function buildRequest(
  payload: WebhookPayload,
  secret: string | null,
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Idempotency-Key': payload.event_id,
  };
  if (secret !== null) headers['X-Webhook-Signature'] = signatureOf(body, secret);
  return { body, headers };
}

export interface DeliveryDeps {
  jobs: JobLookup;
  webhooks: WebhookLookup;
  deliveries: DeliveryLog;
  cipher: SecretCipher;
  sender: WebhookSender;
  clock: Clock;
}

/** What the consumer does with the message: delete it, or hide it for `seconds` and report it failed. */
export type NextStep = { action: 'done' } | { action: 'retry'; seconds: number };

interface ResolvedTarget {
  url: string;
  secret: SealedSecret | null;
  webhookId: string | null;
}

async function resolveTarget(deps: { jobs: JobLookup; webhooks: WebhookLookup }, message: WebhookMessage): Promise<ResolvedTarget | string> {
  if (message.target.kind === 'inline') {
    const job = await deps.jobs.getJob(message.job_id);
    if (!job?.webhook) return 'the job or its inline webhook no longer exists';
    return { url: job.webhook.url, secret: job.webhook.secret ?? null, webhookId: null };
  }
  const registration: WebhookRegistration | null = await deps.webhooks.getWebhook(message.project_id, message.target.webhook_id);
  if (!registration) return `webhook ${message.target.webhook_id} was deleted`;
  return { url: registration.url, secret: registration.secret, webhookId: registration.id };
}

/** Runs attempt number `attempt` (the message's receive count) and records it. */
export async function deliverWebhookEvent(deps: DeliveryDeps, message: WebhookMessage, attempt: number): Promise<NextStep> {
  const { deliveries, clock } = deps;
  const event = await deliveries.getWebhookEvent(message.job_id, message.event_id);
  // Already delivered (a redelivered message, or a second copy queued by a re-announcement): never POST it again.
  if (event?.state === 'delivered') return { action: 'done' };

  const started = clock.now();
  const record = (fields: Pick<DeliveryAttempt, 'url' | 'webhook_id' | 'status_code' | 'duration_ms' | 'error' | 'outcome'>) =>
    deliveries.recordDeliveryAttempt({ job_id: message.job_id, event_id: message.event_id, event: message.event, attempt, at: started, ...fields });

  const target = await resolveTarget(deps, message);
  if (typeof target === 'string') {
    await record({ url: '', webhook_id: message.target.kind === 'registration' ? message.target.webhook_id : null, status_code: null, duration_ms: 0, error: `Not sent: ${target}.`, outcome: 'skipped' });
    recordWebhookAttempt('skipped');
    return { action: 'done' };
  }

  const secret = target.secret ? await openSecret(deps.cipher, target.secret, message.project_id) : null;
  const payload: WebhookPayload = {
    event_id: message.event_id,
    job_id: message.job_id,
    project_id: message.project_id,
    status: message.status,
    error_message: message.error_message,
    timestamp: Math.floor(clock.now() / 1000),
    attempt_count: attempt,
  };
  const { body, headers } = buildRequest(payload, secret);
  const outcome = await deps.sender.post(target.url, body, headers);
  const { verdict, error } = judge(outcome);
  const last = attempt >= MAX_ATTEMPTS;
  const outcomeName = verdict === 'delivered' ? 'delivered' : verdict === 'permanent' ? 'failed' : last ? 'dead_lettered' : 'retrying';
  await record({
    url: target.url,
    webhook_id: target.webhookId,
    status_code: outcome.kind === 'response' ? outcome.status : null,
    duration_ms: outcome.durationMs,
    error,
    outcome: outcomeName,
  });
  recordWebhookAttempt(outcomeName);
  if (outcomeName !== 'retrying') await deliveries.setWebhookEventState(message.job_id, message.event_id, outcomeName, clock.now());
  if (outcomeName === 'delivered' || outcomeName === 'failed') return { action: 'done' };
  // The last failure comes back at once, and SQS's redrive moves it to the dead-letter queue on that receive.
  return { action: 'retry', seconds: last ? 0 : RETRY_WAITS_SECONDS[attempt - 1]! };
}
