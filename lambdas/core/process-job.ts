import { ExtractionError, type ExtractInput, type ExtractionResult, type Progress } from '../extract/engine/types.ts';
import { isTerminal, type Job } from './job.ts';
import { completion, putResultJson, shortfallRefused, storedResult, type StoredResult } from './job-result.ts';
import { pageViewOf } from '../extract/engine/registry.ts';
import { pageDocumentKey } from './job-pages.ts';
import { formatHint, recordJobFinished } from './metrics.ts';
import { splitIfLarge, type SplitSettings } from './large-document.ts';
import type { Blobs, Clock, ExtractionMessage, JobEvents, Jobs, Quotas } from './ports.ts';

export interface WorkerDeps {
  jobs: Jobs;
  quotas: Quotas;
  blobs: Blobs;
  clock: Clock;
  events: JobEvents;
  extractor: {
    extract(input: ExtractInput): Promise<ExtractionResult>;
    /** The result already written out as JSON where it was extracted (a worker thread), so this thread never holds it as objects. */
    extractStored?(input: ExtractInput): Promise<StoredResult>;
  };
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** The large-document pipeline; without it every document is extracted whole. */
  split?: SplitSettings;
}

export interface Delivery {
  /** SQS ApproximateReceiveCount of this message, from 1. */
  receiveCount: number;
  /** The queue's redrive maxReceiveCount: the last delivery before the DLQ. */
  maxReceiveCount: number;
}

/**
 * Runs one job to a terminal status. Safe to run twice for one message: a
 * finished job is left alone, and every status change is conditional.
 * Problems with the document fail the job; problems with our infrastructure
 * throw, so SQS redelivers, until the last delivery, which fails the job
 * rather than leaving it in `processing` behind a dead-lettered message.
 */
export async function processJob(
  deps: WorkerDeps,
  message: ExtractionMessage,
  inlineDocument: Uint8Array | null,
  delivery: Delivery,
): Promise<void> {
  // A document that came in the message is small (at most 1 MB): nothing to
  // split, so the claim is the first touch of the store.
  const document = inlineDocument ?? (await beforeClaim(deps, message, delivery));
  if (document === HANDLED) return;

  const claimed = await deps.jobs.claimJob(message.job_id, deps.clock.now());
  if (!claimed) {
    // Finished already (a redelivery), or cancelled or finished since the read: announce it, as for any redelivery.
    const now = await deps.jobs.getJob(message.job_id);
    return now && isTerminal(now.status) ? deps.events.jobFinished(now) : undefined;
  }

  try {
    await extractAndFinish(deps, claimed, document);
  } catch (error) {
    if (delivery.receiveCount < delivery.maxReceiveCount) throw error;
    deps.log?.('giving up on job after last delivery', { job_id: claimed.id, error: String(error) });
    await fail(deps, claimed, `Extraction failed after ${delivery.receiveCount} attempts because of an internal error. Submit the file again.`);
  }
}

const HANDLED = Symbol('handled');

/**
 * A document read whole records its pages read (`progress` while
 * `processing`) at most this often, each time a write to the store: one that
 * takes less never writes at all.
 */
export const PROGRESS_WRITE_MS = 2000;

/**
 * The pages read so far, written to the job while it is `processing` (never
 * after: the write is conditional), one write at a time and at most every
 * PROGRESS_WRITE_MS. A write that fails is logged and skipped: progress is
 * worth no job.
 */
function progressWriter(deps: WorkerDeps, job: Job, started: number) {
  let last = started;
  let writing: Promise<unknown> | null = null;
  const report: Progress = (pagesDone, pagesTotal) => {
    const now = deps.clock.now();
    if (writing || pagesDone >= pagesTotal || now - last < PROGRESS_WRITE_MS) return;
    last = now;
    writing = deps.jobs
      .transitionJob(job.id, 'processing', { pages_done: pagesDone, pages_total: pagesTotal }, ['processing'])
      .catch((error: unknown) => deps.log?.('progress not recorded', { job_id: job.id, error: String(error) }))
      .finally(() => (writing = null));
  };
  return { report, settled: async () => void (await writing) };
}

/**
 * For a document in the bucket: reads the job first, to announce a finished
 * one again and to send a large one down the split path. The document when
 * splitting read it and kept it whole, null to read it after the claim, or
 * HANDLED when there is nothing left to claim.
 */
async function beforeClaim(deps: WorkerDeps, message: ExtractionMessage, delivery: Delivery): Promise<Uint8Array | null | typeof HANDLED> {
  const job = await deps.jobs.getJob(message.job_id);
  if (!job) return HANDLED;
  if (isTerminal(job.status)) return deps.events.jobFinished(job).then(() => HANDLED);
  if (!deps.split || !needsSplitCheck(job, deps.split.splitBytes)) return null;
  try {
    const bytes = job.status === 'chunking' ? new Uint8Array(0) : await deps.blobs.get((job.document as { key: string }).key);
    if (!bytes) return null;
    return (await splitIfLarge({ ...deps, split: deps.split }, job, bytes)) ?? HANDLED;
  } catch (error) {
    // The document over a limit (pages, slides, sheets): the whole-document path's failure, found when planning.
    if (error instanceof ExtractionError) {
      await failUnclaimed(deps, job, error.message);
      return HANDLED;
    }
    if (delivery.receiveCount < delivery.maxReceiveCount) throw error;
    deps.log?.('giving up on splitting job after last delivery', { job_id: job.id, error: String(error) });
    await failUnclaimed(deps, job, `Splitting the document failed after ${delivery.receiveCount} attempts because of an internal error. Submit the file again.`);
    return HANDLED;
  }
}

/**
 * A pending job reaches `failed` only through `processing` (job.ts), so it is
 * claimed first, as the whole-document path claims it before it can fail; a
 * job another delivery claimed or finished meanwhile is left to that one.
 */
async function failUnclaimed(deps: WorkerDeps, job: Job, message: string): Promise<void> {
  const claimed = job.status === 'pending' ? await deps.jobs.claimJob(job.id, deps.clock.now()) : job;
  if (claimed) await fail(deps, claimed, message);
}

async function extractAndFinish(deps: WorkerDeps, job: Job, inlineDocument: Uint8Array | null): Promise<void> {
  const bytes = inlineDocument ?? (job.document.kind === 's3' ? await deps.blobs.get(job.document.key) : emptyInline(job));
  if (!bytes) return fail(deps, job, 'The uploaded document could not be found (it may have expired). Submit the file again.');

  // A PDF or an image is kept for its page images (job-pages.ts) while the result is: a copy, since the pool takes the bytes over.
  const keep = pageViewOf(bytes) ? new Uint8Array(bytes) : null;
  let result: StoredResult;
  const started = deps.clock.now();
  const progress = progressWriter(deps, job, started);
  const input: ExtractInput = { bytes, filename: job.filename, contentType: job.content_type, config: job.config ?? null, onProgress: progress.report };
  try {
    result = deps.extractor.extractStored ? await deps.extractor.extractStored(input) : storedResult(await deps.extractor.extract(input));
  } catch (error) {
    if (error instanceof ExtractionError) return fail(deps, job, error.message);
    throw error;
  } finally {
    await progress.settled();
  }

  // Pages are charged as extracted. A shortfall (the cheap count at
  // submission was low) is taken before the job completes, so the quota can
  // refuse it; an over-reservation is refunded by the one worker whose
  // conditional write completed the job, so a redelivery cannot refund twice.
  const pages = result.pages;
  const now = deps.clock.now();
  const extractionMs = now - started;
  const result_ref = await putResultJson(deps.blobs, job, result.json, now);
  const kept = keep ? pageDocumentKey(job.project_id, job.id) : null;
  if (kept) await deps.blobs.put(kept, keep!);
  // Members or attachments that could not be read leave a result that is partial, not wrong.
  const outcome = result.partial ? 'partial_success' : 'completed';
  // The transition, the shortfall or refund and the day's usage in one write: only the delivery that finishes the job charges it.
  const finished = await deps.jobs.finishJob(completion(job, outcome, ['processing'], pages, result_ref, now));
  if (finished === 'insufficient') {
    if (kept) await deps.blobs.delete(kept).catch(() => undefined);
    await deps.blobs.delete(result_ref.key).catch(() => undefined);
    return fail(deps, job, shortfallRefused(job, pages));
  }
  const completed = finished;
  // Cancelled meanwhile (or completed by another delivery, which wrote the same key): only a job that did not complete here drops its copy.
  if (kept && !completed) {
    const now2 = await deps.jobs.getJob(job.id);
    if (now2?.status === 'cancelled') await deps.blobs.delete(kept).catch(() => undefined);
  }
  await discardDocument(deps, job);
  if (completed) {
    recordJobFinished(completed.status, result.format, { pages, extractionMs });
    await deps.events.jobFinished(completed);
  }
}

/** A failed job costs nothing: its reserved pages go back to the quota. */
async function fail(deps: WorkerDeps, job: Job, message: string): Promise<void> {
  const failed = await deps.jobs.transitionJob(job.id, 'failed', {
    error_message: message,
    pages_reserved: 0,
    updated_at: deps.clock.now(),
  });
  if (failed && job.quota && job.pages_reserved > 0) await deps.quotas.refundPages(job.quota, job.pages_reserved);
  await discardDocument(deps, job);
  if (failed) {
    recordJobFinished(failed.status, formatHint(job));
    await deps.events.jobFinished(failed);
  }
}

/** Large documents are always in S3 (inline ones are at most 1 MB); a job already split only needs its fan-out finished. */
const needsSplitCheck = (job: Job, splitBytes: number) =>
  job.status === 'chunking' || (job.status === 'pending' && job.document.kind === 's3' && job.size > splitBytes);

/** SQS refuses empty attribute values, so an empty inline document travels as no attribute at all. */
const emptyInline = (job: Job) => (job.size === 0 ? new Uint8Array(0) : null);

async function discardDocument(deps: WorkerDeps, job: Job): Promise<void> {
  if (job.document.kind !== 's3') return;
  // The document is only needed until the job ends; the bucket's lifecycle rule catches anything this misses.
  await deps.blobs.delete(job.document.key).catch((error) => deps.log?.('could not delete document', { key: job.document, error: String(error) }));
}
