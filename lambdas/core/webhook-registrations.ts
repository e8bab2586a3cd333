// Project-level webhooks by API (the spec's dashboard actions) and the
// delivery log of a job.

import { randomUUID } from 'node:crypto';
import type { Principal } from './auth.ts';
import { forbidden, invalidRequest, notFound } from './errors.ts';
import { parseJson } from './json-schema.ts';
import { validate as webhookRegistration } from './validators/webhook-registration.js';
import type { WebhookEventKind } from './job.ts';
import type { Clock, DeliveryAttempt, DeliveryLog, JobLookup, WebhookRegistration, WebhookRegistrations } from './ports.ts';
import { buildRequest, judge, type WebhookSender } from './webhook-delivery.ts';
import { checkSuppliedSecret, generateSecret, openSecret, sealSecret } from './webhook-secret.ts';
import { checkEventKinds, checkWebhookHost, checkWebhookUrl, type WebhookIntake } from './webhook-target.ts';

export const MAX_WEBHOOKS_PER_PROJECT = 10;

export interface RegistrationDeps {
  webhooks: WebhookRegistrations;
  clock: Clock;
  intake: WebhookIntake;
  sender: WebhookSender;
}

export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventKind[];
  secret_fingerprint: string;
  created_at: string;
}

const view = (r: WebhookRegistration): WebhookView => ({
  id: r.id,
  url: r.url,
  events: r.events,
  secret_fingerprint: r.secret.fingerprint,
  created_at: new Date(r.created_at).toISOString(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_HELP = 'Send JSON {"url":"https://…","events":["job.completed","job.failed","job.cancelled"],"secret":"<optional, 32+ bytes>"}.';

export async function createWebhook(deps: RegistrationDeps, principal: Principal, rawBody: string): Promise<WebhookView & { secret: string }> {
  const { url, events, secret } = parseJson(webhookRegistration, rawBody, 'body', BODY_HELP) as { url: string; events?: unknown; secret?: unknown };
  const checkedUrl = checkWebhookUrl(url.trim(), deps.intake, 'url');
  const kinds = checkEventKinds(events, 'events');
  const plaintext = secret === undefined || secret === null || secret === '' ? generateSecret() : checkSuppliedSecret(secret, 'secret');
  await checkWebhookHost(checkedUrl, deps.intake, 'url');

  const existing = await deps.webhooks.listWebhooks(principal.project_id);
  if (existing.length >= MAX_WEBHOOKS_PER_PROJECT) {
    throw invalidRequest(`A project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks; delete one with DELETE /v1/webhooks/{id} first.`);
  }
  const registration: WebhookRegistration = {
    id: randomUUID(),
    project_id: principal.project_id,
    url: checkedUrl,
    events: kinds,
    secret: await sealSecret(deps.intake.cipher, plaintext, principal.project_id),
    created_at: deps.clock.now(),
  };
  await deps.webhooks.putWebhook(registration);
  return { ...view(registration), secret: plaintext };
}

export async function listWebhooks(deps: { webhooks: WebhookRegistrations }, principal: Principal): Promise<{ webhooks: WebhookView[] }> {
  const registrations = await deps.webhooks.listWebhooks(principal.project_id);
  return { webhooks: registrations.sort((a, b) => a.created_at - b.created_at).map(view) };
}

function checkId(id: string): string {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a webhook id; ids are the UUIDs returned by POST /v1/webhooks and GET /v1/webhooks.`);
  return id.toLowerCase();
}

const missing = (id: string) => notFound(`No webhook ${id} in this project; GET /v1/webhooks lists them.`);

export async function deleteWebhook(deps: { webhooks: WebhookRegistrations }, principal: Principal, id: string): Promise<void> {
  if (!(await deps.webhooks.deleteWebhook(principal.project_id, checkId(id)))) throw missing(id);
}

export const TEST_JOB_ID = '00000000-0000-0000-0000-000000000000';

/** Sends a synthetic, correctly signed `job.completed` payload now and reports what the receiver answered. */
export async function testWebhook(deps: RegistrationDeps, principal: Principal, id: string) {
  const registration = await deps.webhooks.getWebhook(principal.project_id, checkId(id));
  if (!registration) throw missing(id);
  const secret = await openSecret(deps.intake.cipher, registration.secret, principal.project_id);
  const eventId = `evt_test_${randomUUID().replaceAll('-', '')}`;
  const { body, headers } = buildRequest(
    {
      event_id: eventId,
      job_id: TEST_JOB_ID,
      project_id: principal.project_id,
      status: 'completed',
      error_message: null,
      timestamp: Math.floor(deps.clock.now() / 1000),
      attempt_count: 1,
    },
    secret,
  );
  const outcome = await deps.sender.post(registration.url, body, headers);
  const { verdict, error } = judge(outcome);
  return {
    delivered: verdict === 'delivered',
    event_id: eventId,
    status_code: outcome.kind === 'response' ? outcome.status : null,
    duration_ms: outcome.durationMs,
    error,
  };
}

export interface DeliveryView {
  event_id: string;
  event: WebhookEventKind;
  webhook_id: string | null;
  url: string;
  attempt: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: DeliveryAttempt['outcome'];
}

export async function listJobDeliveries(deps: { jobs: JobLookup; deliveries: DeliveryLog; clock: Clock }, principal: Principal, id: string): Promise<{ deliveries: DeliveryView[] }> {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a job id; job ids are the UUIDs returned in job_ids.`);
  const job = await deps.jobs.getJob(id.toLowerCase());
  if (!job || job.expires_at * 1000 <= deps.clock.now()) throw notFound(`No job ${id}. Job records are kept for 7 days after submission.`);
  if (job.project_id !== principal.project_id) throw forbidden(`Job ${id} belongs to another project; use that project's API key.`);
  const attempts = await deps.deliveries.listDeliveryAttempts(job.id);
  return {
    deliveries: attempts.map((a) => ({
      event_id: a.event_id,
      event: a.event,
      webhook_id: a.webhook_id,
      url: a.url,
      attempt: a.attempt,
      at: new Date(a.at).toISOString(),
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      outcome: a.outcome,
    })),
  };
}
