import type { ExtractionResult } from '../extract/types.ts';
import type { Principal } from './auth.ts';
import { ApiError, forbidden, invalidRequest, notFound, rateLimited } from './errors.ts';
import { JsonText } from './http.ts';
import type { Job, JobStatus } from './job.ts';
import { limits } from './limits.ts';
import type { Blobs, Clock, Store } from './ports.ts';

export interface JobView {
  id: string;
  filename: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  pages?: number;
  result?: ExtractionResult;
  /** Instead of `result` when the result is larger than a response can carry: a presigned GET, valid while the result is kept. */
  result_url?: string;
  error_message?: string;
  /** While a large document is split and merged (chunking, aggregating): pages extracted so far of those planned. */
  progress?: { pages_done: number; pages_total: number };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The job as the JSON text of a JobView. A stored result goes into it as the
 * bytes it was stored as: results run to megabytes, and parsing one only to
 * write it out again would cost more than the rest of the request.
 */
export async function getJobView(
  deps: { store: Store; blobs: Blobs; clock: Clock },
  principal: Principal,
  id: string,
): Promise<JsonText> {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a job id; job ids are the UUIDs returned in job_ids.`);
  const now = deps.clock.now();
  const claim = await deps.store.claimPoll(id.toLowerCase(), principal.project_id, now, limits.minPollIntervalMs);
  const job = claim.job;
  // TTL deletes late, so an expired record is treated as gone here.
  if (!job || job.expires_at * 1000 <= now) throw notFound(`No job ${id}. Job records are kept for 7 days after submission.`);
  if (job.project_id !== principal.project_id) throw forbidden(`Job ${id} belongs to another project; use that project's API key.`);
  if (!claim.ok) {
    throw rateLimited('Poll a job at most once per second; wait for Retry-After, or use a webhook instead of polling.', claim.retryAfterMs);
  }

  const view: JobView = {
    id: job.id,
    filename: job.filename,
    status: job.status,
    created_at: new Date(job.created_at).toISOString(),
    updated_at: new Date(job.updated_at).toISOString(),
  };
  if (job.pages !== null) view.pages = job.pages;
  if ((job.status === 'chunking' || job.status === 'aggregating') && job.pages_total !== undefined) {
    view.progress = { pages_done: job.pages_done ?? 0, pages_total: job.pages_total };
  }
  if (job.status === 'failed') view.error_message = job.error_message ?? 'The job failed.';
  if (job.status !== 'completed' && job.status !== 'partial_success') return new JsonText(JSON.stringify(view));
  const result = await loadResult(deps, job, now);
  if ('result_url' in result) return new JsonText(JSON.stringify({ ...view, ...result }));
  // The view's own text with `"result": <stored JSON>` as its last member.
  return new JsonText(`${JSON.stringify(view).slice(0, -1)},"result":${result.json}}`);
}

/** The stored result JSON inline, or a link to it when it is too large to inline; never a truncated result. */
async function loadResult(deps: { blobs: Blobs }, job: Job, now: number): Promise<{ json: string } | { result_url: string }> {
  const expired = () =>
    new ApiError(
      410,
      'result_expired',
      `The result of job ${job.id} is no longer kept (results are kept for 12 hours after completion). Submit the file again.`,
    );
  const ref = job.result_ref;
  if (!ref || ref.expires_at * 1000 <= now) throw expired();
  if (ref.size > limits.inlineResultBytes) {
    return { result_url: await deps.blobs.presignGet(ref.key, Math.max(1, Math.floor(ref.expires_at - now / 1000))) };
  }
  const bytes = await deps.blobs.get(ref.key);
  if (!bytes) throw expired();
  return { json: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}
