import { randomUUID } from 'node:crypto';
import type { Principal } from './auth.ts';
import { ApiError } from './errors.ts';
import type { Job } from './job.ts';
import { formatHint, recordJobFinished } from './metrics.ts';
import { newJob } from './new-job.ts';
import { limits } from './limits.ts';
import { OverReadLimit, PageCountBudgetExceeded } from '../extract/engine/page-count.ts';
import type { Blobs, Clock, ExtractionQueue, Jobs, Quotas } from './ports.ts';
import type { Submission, Upload } from './submission-form.ts';

export interface SubmitDeps {
  jobs: Jobs;
  quotas: Quotas;
  blobs: Blobs;
  queue: ExtractionQueue;
  clock: Clock;
  /**
   * Page count used to reserve quota before any job exists, within a budget
   * (page-count.ts): rejects with PageCountBudgetExceeded past it. Locally it
   * runs in a worker thread, off the API's event loop.
   */
  countPages: (upload: Upload) => Promise<number>;
  /** The format a filename names, or "other" (the engine's registry): the job's metric dimension should it end without a result. */
  nameFormat: (filename: string) => string;
}

export interface Accepted {
  job_ids: string[];
  status: 'pending';
}

const documentKey = (projectId: string, jobId: string) => `documents/${projectId}/${jobId}`;

/**
 * Reserves the pages of every file with one conditional write, then creates
 * one job per file and queues it. A failure after the reservation gives the
 * pages back, so nothing is charged for jobs that never ran.
 */
export async function submitJobs(deps: SubmitDeps, principal: Principal, submission: Submission): Promise<Accepted> {
  const now = deps.clock.now();
  const selected = submission.config?.pages ?? null;
  const pages: number[] = [];
  for (const file of submission.files) {
    const counted = Math.max(1, await countWithinBudget(deps, file));
    // A page selection charges only the selected pages that exist.
    pages.push(selected ? Math.max(1, selected.filter((n) => n <= counted).length) : counted);
  }
  const totalPages = pages.reduce((a, b) => a + b, 0);

  const reservation = await deps.quotas.reservePages(principal.quota, totalPages);
  if (reservation === 'insufficient') {
    throw new ApiError(
      429,
      'quota_exceeded',
      `This submission needs ${totalPages} page(s) and the ${principal.tier === 'sandbox' ? 'sandbox key' : 'project'} ` +
        `has fewer left. ${principal.tier === 'sandbox' ? 'Sandbox keys carry 50 pages; use a live key for more.' : 'Raise the project quota or submit fewer pages.'}`,
    );
  }
  const quota = reservation === 'reserved' ? principal.quota : null;

  const jobs: Job[] = submission.files.map((file, i) => {
    const id = randomUUID();
    const inline = file.bytes.byteLength <= limits.inlineDocumentBytes;
    return newJob(
      {
        id,
        project_id: principal.project_id,
        filename: file.filename,
        content_type: file.contentType,
        format_hint: deps.nameFormat(file.filename),
        size: file.bytes.byteLength,
        status: 'pending',
        document: inline ? { kind: 'inline' } : { kind: 's3', key: documentKey(principal.project_id, id) },
        webhook: submission.webhook,
        config: submission.config ?? null,
        quota,
        pages: pages[i]!,
      },
      now,
    );
  });

  // All or none: putJobs writes every job or none of them; on any failure the stored documents
  // are deleted and the pages given back, so a client told it failed has nothing left behind.
  try {
    await Promise.all(
      jobs.map((job, i) => (job.document.kind === 's3' ? deps.blobs.put(job.document.key, submission.files[i]!.bytes) : undefined)),
    );
    await deps.jobs.putJobs(jobs);
  } catch (error) {
    await Promise.all(jobs.map((job) => (job.document.kind === 's3' ? deps.blobs.delete(job.document.key).catch(() => undefined) : undefined)));
    if (quota) await deps.quotas.refundPages(quota, totalPages);
    throw error;
  }

  const sent = await Promise.allSettled(
    jobs.map((job, i) =>
      deps.queue.send(
        { job_id: job.id, project_id: job.project_id },
        job.document.kind === 'inline' ? submission.files[i]!.bytes : null,
      ),
    ),
  );
  const unsent = jobs.filter((_, i) => sent[i]!.status === 'rejected');
  for (const job of unsent) {
    // The job exists but no worker will ever see it: fail it visibly instead of leaving it pending.
    const failed = await deps.jobs.transitionJob(job.id, 'failed', {
      error_message: 'The job could not be queued for extraction. Submit the file again.',
      updated_at: deps.clock.now(),
    });
    if (failed) recordJobFinished(failed.status, formatHint(job));
    if (quota) await deps.quotas.refundPages(quota, job.pages_reserved);
  }
  if (unsent.length === jobs.length) {
    throw new ApiError(503, 'internal_error', 'The extraction queue is unavailable. Retry the submission in a few seconds.');
  }
  return { job_ids: jobs.map((job) => job.id), status: 'pending' };
}

/** A document over the counting budget is the client's to fix: a 413 that names the file and says why. */
async function countWithinBudget(deps: SubmitDeps, file: Upload): Promise<number> {
  try {
    return await deps.countPages(file);
  } catch (error) {
    if (error instanceof PageCountBudgetExceeded || error instanceof OverReadLimit) throw new ApiError(413, 'payload_too_large', `"${file.filename}": ${error.message}`);
    throw error;
  }
}
