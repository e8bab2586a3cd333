// POST /v1/jobs/{id}/cancel: stops a job that has not finished. A worker
// still extracting it loses its conditional write when it is done, so the
// result is never published; the reserved pages go back to the quota.

import type { Principal } from './auth.ts';
import { ApiError, forbidden, invalidRequest, notFound } from './errors.ts';
import { isTerminal } from './job.ts';
import { jobObjectKeys } from './large-document.ts';
import { formatHint, recordJobFinished } from './metrics.ts';
import type { AggregationStarter, Blobs, Clock, JobEvents, Jobs, Quotas } from './ports.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function cancelJob(
  deps: { jobs: Jobs; quotas: Quotas; blobs: Blobs; clock: Clock; events: JobEvents; aggregation?: AggregationStarter },
  principal: Principal,
  id: string,
): Promise<{ id: string; status: 'cancelled' }> {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a job id; job ids are the UUIDs returned in job_ids.`);
  const job = await deps.jobs.getJob(id.toLowerCase());
  if (!job || job.expires_at * 1000 <= deps.clock.now()) throw notFound(`No job ${id}. Job records are kept for 7 days after submission.`);
  if (job.project_id !== principal.project_id) throw forbidden(`Job ${id} belongs to another project; use that project's API key.`);
  const conflict = (status: string) => new ApiError(409, 'conflict', `Job ${id} already finished as ${status}; only unfinished jobs can be cancelled.`);
  if (isTerminal(job.status)) throw conflict(job.status);

  const cancelled = await deps.jobs.transitionJob(job.id, 'cancelled', { pages_reserved: 0, updated_at: deps.clock.now() });
  if (!cancelled) {
    // It finished (or was cancelled) between the read and the write.
    const now = await deps.jobs.getJob(job.id);
    throw conflict(now?.status ?? 'finished');
  }
  // The job as read holds the reservation the cancel released; a shortfall a worker took meanwhile it refunds itself.
  if (job.quota && job.pages_reserved > 0) await deps.quotas.refundPages(job.quota, job.pages_reserved);
  // A large document's chunk workers see the status and skip; its aggregation, if one runs, is stopped
  // (and could not complete a cancelled job anyway: its final write is conditional on aggregating).
  if (cancelled.chunk_plan && deps.aggregation) await deps.aggregation.stop(job.id);
  const leftovers = jobObjectKeys(cancelled);
  await Promise.all(leftovers.map((key) => deps.blobs.delete(key).catch(() => undefined)));
  recordJobFinished(cancelled.status, formatHint(job));
  await deps.events.jobFinished(cancelled);
  return { id: job.id, status: 'cancelled' };
}
