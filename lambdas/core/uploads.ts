// The upload flow, for documents too large for a direct request: the job is
// created `awaiting_upload` with a presigned PUT URL, the storage event of the
// arriving object moves it to `pending`, and a delayed message fails it if
// nothing arrived before the URL expired.

import { randomUUID } from 'node:crypto';
import { OverReadLimit, PageCountBudgetExceeded } from '../extract/engine/page-count.ts';
import type { Principal } from './auth.ts';
import { ApiError } from './errors.ts';
import { parseExtractionConfig } from './extraction-config.ts';
import { isTerminal, type Job } from './job.ts';
import { formatHint, recordJobFinished } from './metrics.ts';
import { newJob } from './new-job.ts';
import { parseJson } from './json-schema.ts';
import { validate as uploadRequest } from './validators/upload-request.js';
import { limits } from './limits.ts';
import type { Blobs, Clock, ExtractionQueue, JobEvents, Jobs, Quotas, UploadUrls } from './ports.ts';
import { parseWebhookField, sealInlineWebhook, type WebhookIntake } from './webhook-target.ts';

export interface UploadDeps {
  jobs: Jobs;
  quotas: Quotas;
  queue: ExtractionQueue;
  urls: UploadUrls;
  clock: Clock;
  intake: WebhookIntake;
}

export interface UploadCreated {
  job_id: string;
  status: 'awaiting_upload';
  upload_url: string;
  expires_at: string;
}

const HELP = 'Send JSON {"filename":"big.pdf","size":<bytes>,"content_type"?:"application/pdf","webhook"?:{...},"config"?:{...}}.';

export const uploadKey = (projectId: string, jobId: string) => `uploads/${projectId}/${jobId}`;

/** Reads `uploads/<project>/<job>` back into its parts; null for any other key. */
export function parseUploadKey(key: string): { project_id: string; job_id: string } | null {
  const match = /^uploads\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/.exec(key);
  return match ? { project_id: match[1]!, job_id: match[2]! } : null;
}

/**
 * Reserves pages for the document before it exists (one per started MB: the
 * count is settled when it arrives) and creates the job with its upload URL.
 */
export async function createUpload(deps: UploadDeps, principal: Principal, rawBody: string): Promise<UploadCreated> {
  const request = parseJson(uploadRequest, rawBody, 'body', HELP) as {
    filename: string;
    size: number;
    content_type?: string;
    webhook?: unknown;
    config?: unknown;
  };
  // The same parsers as the multipart fields, so both ways in accept exactly the same values.
  const config = request.config === undefined ? null : parseExtractionConfig(JSON.stringify(request.config));
  const inline = request.webhook === undefined ? null : parseWebhookField(JSON.stringify(request.webhook), deps.intake);
  const webhook = inline ? await sealInlineWebhook(inline, deps.intake, principal.project_id) : null;

  const estimate = Math.max(1, Math.ceil(request.size / 1e6) * limits.uploadPagesPerMb);
  const reservation = await deps.quotas.reservePages(principal.quota, estimate);
  if (reservation === 'insufficient') {
    throw new ApiError(
      429,
      'quota_exceeded',
      `An upload of ${request.size} bytes reserves ${estimate} page(s) until the document is counted, and the ` +
        `${principal.tier === 'sandbox' ? 'sandbox key' : 'project'} has fewer left.`,
    );
  }
  const quota = reservation === 'reserved' ? principal.quota : null;

  const now = deps.clock.now();
  const id = randomUUID();
  const key = uploadKey(principal.project_id, id);
  const job = newJob(
    {
      id,
      project_id: principal.project_id,
      filename: request.filename,
      content_type: request.content_type ?? null,
      size: request.size,
      status: 'awaiting_upload',
      document: { kind: 's3', key },
      webhook,
      config,
      quota,
      pages: estimate,
    },
    now,
  );
  try {
    const url = await deps.urls.presignPut(key, job.content_type, limits.uploadWindowSeconds);
    await deps.jobs.putJobs([job]);
    await deps.queue.send({ job_id: id, project_id: job.project_id, kind: 'upload_deadline' }, null, limits.uploadWindowSeconds);
    return { job_id: id, status: 'awaiting_upload', upload_url: url, expires_at: new Date(now + limits.uploadWindowSeconds * 1000).toISOString() };
  } catch (error) {
    if (quota) await deps.quotas.refundPages(quota, estimate);
    throw error;
  }
}

export interface ArrivalDeps {
  jobs: Jobs;
  quotas: Quotas;
  blobs: Blobs;
  queue: ExtractionQueue;
  clock: Clock;
  events: JobEvents;
  /**
   * Within the counting budget (page-count.ts): rejects with PageCountBudgetExceeded past it, or OverReadLimit for a document over its format's read limit; either fails the job.
   * `release`: the caller is done with the bytes, so a counter in another thread may take them over rather than copy them.
   */
  countPages: (input: { bytes: Uint8Array; filename: string; contentType: string | null; release?: true }) => Promise<number>;
  /** The format a filename names, or "other" (the engine's registry): the job's metric dimension should it end without a result. */
  nameFormat: (filename: string) => string;
}

/**
 * The storage event of an uploaded object. A repeated event, or one for a job
 * no longer waiting, changes nothing; a document of another size than
 * declared fails its job. The page reservation is settled to the real count
 * here, before extraction, so the quota refuses what it cannot cover.
 */
export async function uploadArrived(deps: ArrivalDeps, key: string, size: number): Promise<void> {
  const ref = parseUploadKey(key);
  if (!ref) return;
  const stored = await deps.jobs.getJob(ref.job_id);
  if (!stored || stored.project_id !== ref.project_id || isTerminal(stored.status)) {
    // A PUT after its job ended (completed, failed, cancelled) or for no job at all: nothing will
    // ever read it, so it is deleted as it lands rather than kept outside any quota.
    await deps.blobs.delete(key);
    return;
  }
  if (stored.status !== 'awaiting_upload') return;

  // Named as the document arrives, as a submission names its files.
  const job: Job = { ...stored, format_hint: deps.nameFormat(stored.filename) };
  if (size !== job.size) {
    return failUpload(deps, job, `The upload arrived with ${size} bytes, but ${job.size} were declared. Create a new upload with the right size.`);
  }
  const bytes = await deps.blobs.get(key);
  if (!bytes) return; // a later event of a replaced object, or the object already expired; the deadline message settles the job

  let counted: number;
  try {
    // Up to 500 MB: a second copy for the counter's thread was the largest thing the local server held for an upload.
    counted = Math.max(1, await deps.countPages({ bytes, filename: job.filename, contentType: job.content_type, release: true }));
  } catch (error) {
    if (error instanceof PageCountBudgetExceeded || error instanceof OverReadLimit) return failUpload(deps, job, error.message);
    throw error;
  }
  const selected = job.config?.pages ?? null;
  const pages = selected ? Math.max(1, selected.filter((n) => n <= counted).length) : counted;
  const shortfall = job.quota ? pages - job.pages_reserved : 0;
  if (shortfall > 0 && (await deps.quotas.reservePages(job.quota!, shortfall)) === 'insufficient') {
    return failUpload(deps, job, `The document has ${pages} pages and the quota has ${job.pages_reserved} reserved and too few left for the rest.`);
  }
  const pending = await deps.jobs.transitionJob(job.id, 'pending', { pages_reserved: job.quota ? pages : 0, format_hint: job.format_hint, updated_at: deps.clock.now() }, ['awaiting_upload']);
  if (!pending) {
    if (shortfall > 0) await deps.quotas.refundPages(job.quota!, shortfall);
    return;
  }
  if (shortfall < 0) await deps.quotas.refundPages(job.quota!, -shortfall);
  await deps.queue.send({ job_id: job.id, project_id: job.project_id }, null);
}

/**
 * The delayed message sent at creation. An upload that never came fails its
 * job. One that came but whose storage event was lost (a crash, a failed
 * notification) is taken up here instead: true means the job is now pending
 * and the caller extracts it; its pages are settled by the extraction.
 */
export async function uploadDeadline(deps: { jobs: Jobs; quotas: Quotas; blobs: Blobs; clock: Clock; events: JobEvents }, jobId: string): Promise<boolean> {
  const job = await deps.jobs.getJob(jobId);
  if (!job || job.status !== 'awaiting_upload' || job.document.kind !== 's3') return false;
  const bytes = await deps.blobs.get(job.document.key);
  if (!bytes) {
    await failUpload(deps, job, `The upload did not arrive within ${limits.uploadWindowSeconds / 60} minutes of creating it. Create a new upload and PUT the file before its upload_url expires.`);
    return false;
  }
  if (bytes.byteLength !== job.size) {
    await failUpload(deps, job, `The upload arrived with ${bytes.byteLength} bytes, but ${job.size} were declared. Create a new upload with the right size.`);
    return false;
  }
  return (await deps.jobs.transitionJob(job.id, 'pending', { updated_at: deps.clock.now() }, ['awaiting_upload'])) !== null;
}

async function failUpload(deps: { jobs: Jobs; quotas: Quotas; blobs: Blobs; clock: Clock; events: JobEvents }, job: Job, message: string): Promise<void> {
  const failed = await deps.jobs.transitionJob(job.id, 'failed', { error_message: message, pages_reserved: 0, updated_at: deps.clock.now() }, ['awaiting_upload']);
  if (!failed) return;
  recordJobFinished(failed.status, formatHint(job));
  if (job.quota && job.pages_reserved > 0) await deps.quotas.refundPages(job.quota, job.pages_reserved);
  if (job.document.kind === 's3') await deps.blobs.delete(job.document.key).catch(() => undefined);
  await deps.events.jobFinished(failed);
}
