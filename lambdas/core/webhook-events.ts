// Turns a job reaching a terminal status into webhook events: one per target,
// queued on the webhooks queue. Called again for every redelivered extraction
// message that finds the job terminal, so it is idempotent: the event id is
// derived from job, status and target, and each event is claimed with one
// conditional write before its message is sent.

import { createHash } from 'node:crypto';
import type { Job, JobStatus, WebhookEventKind } from './job.ts';
import type { Clock, JobEvents, WebhookEventClaims, WebhookMessage, WebhookQueue, WebhookRegistrations } from './ports.ts';

/** partial_success has no kind of its own in the spec: it is announced as job.completed with its status in the payload. */
export function eventKindOf(status: JobStatus): WebhookEventKind | null {
  switch (status) {
    case 'completed':
    case 'partial_success':
      return 'job.completed';
    case 'failed':
      return 'job.failed';
    case 'cancelled':
      return 'job.cancelled';
    default:
      return null;
  }
}

export const eventIdOf = (jobId: string, status: JobStatus, targetKey: string) =>
  `evt_${createHash('sha256').update(`${jobId}\n${status}\n${targetKey}`).digest('hex').slice(0, 32)}`;

/**
 * A claimed event still `queued` after this long lost its message (a crash
 * between claim and send): the next announcement queues it again. Longer than
 * the whole schedule (5 attempts of 30 s and 635 s of waits) with room to spare.
 */
export const EVENT_REQUEUE_AFTER_MS = 20 * 60_000;

export interface WebhookEventsDeps {
  eventClaims: WebhookEventClaims;
  webhooks: WebhookRegistrations;
  queue: WebhookQueue;
  clock: Clock;
  /** Scaled on the local server with DOCEX_TIME_SCALE, like every other wait. */
  requeueAfterMs?: number;
}

export class WebhookEvents implements JobEvents {
  constructor(private readonly deps: WebhookEventsDeps) {}

  async jobFinished(job: Job): Promise<void> {
    const kind = eventKindOf(job.status);
    if (!kind) return;
    const targets = await this.targetsFor(job, kind);
    const now = this.deps.clock.now();
    const staleBefore = now - (this.deps.requeueAfterMs ?? EVENT_REQUEUE_AFTER_MS);
    await Promise.all(
      targets.map(async (target) => {
        const message: WebhookMessage = {
          event_id: eventIdOf(job.id, job.status, target.kind === 'inline' ? 'inline' : `webhook:${target.webhook_id}`),
          event: kind,
          job_id: job.id,
          project_id: job.project_id,
          status: job.status,
          error_message: job.status === 'failed' ? (job.error_message ?? 'The job failed.') : null,
          target,
        };
        const record = { job_id: job.id, event_id: message.event_id, state: 'queued' as const, queued_at: now, updated_at: now };
        if (!(await this.deps.eventClaims.claimWebhookEvent(record, staleBefore))) return;
        try {
          await this.deps.queue.send(message);
        } catch (error) {
          // Unclaimed, the redelivered extraction message that this throw causes will queue it again.
          await this.deps.eventClaims.releaseWebhookEvent(job.id, message.event_id);
          throw error;
        }
      }),
    );
  }

  /** The inline webhook replaces the project's registrations for its job. */
  private async targetsFor(job: Job, kind: WebhookEventKind): Promise<WebhookMessage['target'][]> {
    if (job.webhook) return !job.webhook.events || job.webhook.events.includes(kind) ? [{ kind: 'inline' }] : [];
    const registrations = await this.deps.webhooks.listWebhooks(job.project_id);
    return registrations.filter((r) => r.events.includes(kind)).map((r) => ({ kind: 'registration', webhook_id: r.id }));
  }
}
