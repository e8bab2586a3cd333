import type { ExtractionResult } from '../extract/engine/types.ts';
import type { Principal } from './auth.ts';
import { ApiError, forbidden, invalidRequest, notFound, rateLimited } from './errors.ts';
import { JsonText } from './http.ts';
import type { Job, JobStatus } from './job.ts';
import { limits } from './limits.ts';
import type { Blobs, Clock, DownloadUrls, JobQueries } from './ports.ts';

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
  /** While a large document is split and merged (chunking, aggregating): pages extracted so far of those planned; while a PDF is read whole (processing): its pages read. */
  progress?: { pages_done: number; pages_total: number };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The job as the JSON text of a JobView. A stored result goes into it as the
 * bytes it was stored as: results run to megabytes, and parsing one only to
 * write it out again would cost more than the rest of the request.
 */
export async function getJobView(
  deps: { jobQueries: JobQueries; blobs: Blobs; downloadUrls: DownloadUrls; clock: Clock },
  principal: Principal,
  id: string,
): Promise<JsonText> {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a job id; job ids are the UUIDs returned in job_ids.`);
  const now = deps.clock.now();
  const claim = await deps.jobQueries.claimPoll(id.toLowerCase(), principal.project_id, now, limits.minPollIntervalMs);
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
  // A large document's chunks finished, or a whole document's pages read (recorded while it is read).
  if ((job.status === 'chunking' || job.status === 'aggregating' || job.status === 'processing') && job.pages_total !== undefined) {
    view.progress = { pages_done: job.pages_done ?? 0, pages_total: job.pages_total };
  }
  if (job.status === 'failed') view.error_message = job.error_message ?? 'The job failed.';
  if (job.status !== 'completed' && job.status !== 'partial_success') return new JsonText(JSON.stringify(view));
  if (expiredResult(job, now)) throw expired(job);
  const linked = async () => new JsonText(JSON.stringify({ ...view, result_url: await resultUrl(deps, job, now) }));
  // Stored larger than a response can be, it cannot fit once escaped either: not even read.
  if (job.result_ref!.size > limits.responseBytes) return linked();
  const result = await loadResult(deps, job);
  // The view's own text with `"result": <stored JSON>` as its last member.
  const answer = `${JSON.stringify(view).slice(0, -1)},"result":${result}}`;
  return fitsResponse(answer) ? new JsonText(answer) : linked();
}

/** Whether `body` fits a Lambda response as Lambda measures it: the body string escaped inside the proxy object's JSON. */
export const fitsResponse = (body: string) => Buffer.byteLength(JSON.stringify(body), 'utf8') <= limits.responseBytes - limits.responseEnvelopeBytes;

const expired = (job: Job) =>
  new ApiError(410, 'result_expired', `The result of job ${job.id} is no longer kept (results are kept for 12 hours after completion). Submit the file again.`);

const expiredResult = (job: Job, now: number) => !job.result_ref || job.result_ref.expires_at * 1000 <= now;

/** A presigned GET of the stored result, valid while the result is kept. */
const resultUrl = (deps: { downloadUrls: DownloadUrls }, job: Job, now: number) =>
  deps.downloadUrls.presignGet(job.result_ref!.key, Math.max(1, Math.floor(job.result_ref!.expires_at - now / 1000)));

/** The stored result JSON, as stored; never a truncated result. */
async function loadResult(deps: { blobs: Blobs }, job: Job): Promise<string> {
  const bytes = await deps.blobs.get(job.result_ref!.key);
  if (!bytes) throw expired(job);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
