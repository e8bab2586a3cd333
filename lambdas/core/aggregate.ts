// The two tasks of the aggregation state machine (aggregation-definition.ts).
// Both are idempotent: Step Functions retries them, and an execution may be
// started again for a job (its name is the job id, so AWS refuses a second).

import type { ExtractionResult } from '../extract/engine/types.ts';
import { objectMembers, parseMember } from './json-members.ts';
import { cellLimitMessage, MAX_CELLS } from '../extract/engine/limits.ts';
import { isTerminal, type Job, type ResultRef } from './job.ts';
import type { Part } from '../extract/engine/merge.ts';
import { mergedJson, planMerge, type PartSource, type ResultMember } from '../extract/engine/merge-stream.ts';
import { describeRanges } from './chunk-plan.ts';
import { completion, measureResult, resultKey, resultRef, shortfallRefused, type MemberRanges, type ResultMeasure } from './job-result.ts';
import { jobObjectKeys, measuredKey, partRefs, type StoredPart } from './large-document.ts';
import { formatHint, recordJobFinished } from './metrics.ts';
import type { Blobs, Clock, JobEvents, Jobs, PartRef, Quotas } from './ports.ts';

/** What one Map iteration answers: measurements of a part, never its text. */
export interface PartSummary extends PartRef {
  ok: boolean;
  pages: number;
  chars: number;
  tables: number;
  chunks: number;
  /** Cells with text in the part's sheets (XLSX, ODS): the workbook's cell cap is checked over all parts. */
  cells?: number;
  error?: string;
}

/** One Map iteration: a batch of positions in the job's manifest of parts. */
export interface PartEvent {
  job_id: string;
  project_id: string;
  manifest: string;
  batch: [number, number];
}

/** What one Map iteration answers, kept small for the state: its parts' summaries are in the bucket, at `key`. */
export interface BatchSummary {
  batch: [number, number];
  key: string;
  /** Cells of the batch's parts: the workbook's cell cap is checked over all of them before any part is loaded. */
  cells: number;
}

/**
 * Loads the batch's parts one at a time, checks each is the part the plan
 * names, measures it, and stores the measurements (idempotent: a retry
 * writes the same object).
 */
export async function aggregatePart(deps: { blobs: Blobs }, event: PartEvent): Promise<BatchSummary> {
  const refs = await loadManifest(deps.blobs, event.manifest);
  const [first, last] = event.batch;
  const summaries: PartSummary[] = [];
  for (const ref of refs.slice(first, last + 1)) summaries.push(await measurePart(deps.blobs, ref));
  const key = measuredKey(event.project_id, event.job_id, first);
  await deps.blobs.put(key, Buffer.from(JSON.stringify(summaries)), 'application/json');
  return { batch: event.batch, key, cells: summaries.reduce((n, s) => n + (s.cells ?? 0), 0) };
}

async function loadManifest(blobs: Blobs, key: string): Promise<PartRef[]> {
  const bytes = await blobs.get(key);
  // Written before the execution started, deleted only when the job ends: missing means the job ended meanwhile.
  if (!bytes) throw new Error(`the aggregation manifest ${key} is missing; the job may have ended (cancelled) meanwhile`);
  return JSON.parse(Buffer.from(bytes).toString('utf8')) as PartRef[];
}

/** Loads one part, checks it is the part the plan names, and measures it. */
async function measurePart(blobs: Blobs, part: PartRef): Promise<PartSummary> {
  const bytes = await blobs.get(part.key);
  // The chunk worker measured the part as it wrote it: nothing of the result is parsed.
  const stored = readPart(part, bytes, []);
  const base = { ...part, pages: 0, chars: 0, tables: 0, chunks: 0 };
  if (!stored.ok) return { ...base, ok: false, error: stored.error };
  const measure = stored.measure ?? measureResult((readPart(part, bytes, ['metadata', 'tables', 'chunks']) as Extract<StoredPart, { ok: true }>).result);
  return { ...base, ok: true, ...measure };
}

async function loadPart(blobs: Blobs, ref: PartRef, members?: readonly ResultMember[]): Promise<StoredPart> {
  return readPart(ref, await blobs.get(ref.key), members);
}

/**
 * A stored part, checked to be the part the plan names; with `members`, its
 * result holds only those (the others are not parsed: a pass of the merge
 * reads what it writes).
 */
export function readPart(ref: PartRef, bytes: Uint8Array | null, members?: readonly ResultMember[]): StoredPart {
  const missing = (why: string): StoredPart => ({ ...ref, ok: false, error: why });
  if (!bytes) return missing(`The part for pages ${ref.first_page}-${ref.last_page} is missing.`);
  // The result is the part's last member, and large: the scan stops where it starts.
  const top = objectMembers(bytes, 0, 'result');
  const field = <T>(name: string): T | undefined => {
    const at = top.get(name);
    return at ? parseMember<T>(bytes, at) : undefined;
  };
  const [index, first, last] = [field<number>('index'), field<number>('first_page'), field<number>('last_page')];
  if (index !== ref.index || first !== ref.first_page || last !== ref.last_page) {
    return missing(`The part stored for pages ${ref.first_page}-${ref.last_page} covers other pages (${first}-${last}).`);
  }
  const at = top.get('result');
  if (field<boolean>('ok') !== true || !at) return missing(field<string>('error') ?? 'The part holds no result.');
  const measure = field<ResultMeasure>('measure');
  const measured = measure ? { measure } : {};
  if (!members) return { ...ref, ok: true, ...measured, result: parseMember<ExtractionResult>(bytes, [at[0], bytes.lastIndexOf(0x7d)]) };
  // Where the chunk worker wrote down where each member lies (partJson), nothing of the result is scanned.
  const written = field<MemberRanges>('members');
  const inner = written ? new Map(Object.entries(written).map(([m, [s, e]]) => [m, [at[0] + s, at[0] + e] as [number, number]])) : objectMembers(bytes, at[0]);
  const result = Object.fromEntries(members.flatMap((m) => (inner.has(m) ? [[m, parseMember(bytes, inner.get(m)!)]] : [])));
  return { ...ref, ok: true, ...measured, result: result as unknown as ExtractionResult };
}

/** The execution's state after the Map: its input, and each batch's summary at `measured`. */
export interface FinishEvent {
  job_id: string;
  project_id: string;
  measured: BatchSummary[];
}

export interface FinishDeps {
  jobs: Jobs;
  quotas: Quotas;
  blobs: Blobs;
  clock: Clock;
  events: JobEvents;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * Merges the parts in page order into the job's result and sets its terminal
 * status with a conditional write from `aggregating`, so a job cancelled
 * meanwhile stays cancelled and a second run changes nothing.
 */
export async function aggregateFinish(deps: FinishDeps, event: FinishEvent): Promise<{ job_id: string; status: string }> {
  const job = await deps.jobs.getJob(event.job_id);
  if (!job) return { job_id: event.job_id, status: 'missing' };
  if (isTerminal(job.status)) {
    await cleanUp(deps, job);
    await deps.events.jobFinished(job);
    return { job_id: job.id, status: job.status };
  }
  if (job.status !== 'aggregating') throw new Error(`job ${job.id} is ${job.status}, not aggregating; its chunks are not all recorded yet`);

  // Each chunk of a workbook is held to the cell cap as it is read (engine/limits.ts); the workbook as a whole is held to it
  // here, before any part is loaded, as a whole read would have refused it.
  const cells = event.measured.reduce((n, s) => n + s.cells, 0);
  if (cells > MAX_CELLS) {
    const failed = await fail(deps, job, cellLimitMessage('spreadsheet'));
    await cleanUp(deps, job);
    if (failed) await deps.events.jobFinished(failed);
    return { job_id: job.id, status: (failed ?? (await deps.jobs.getJob(job.id)))?.status ?? 'missing' };
  }

  const summaries = new Map<number, PartSummary>();
  for (const batch of event.measured) {
    const bytes = await deps.blobs.get(batch.key);
    if (!bytes) throw new Error(`the measurements ${batch.key} are missing; the job may have ended (cancelled) meanwhile`);
    for (const s of JSON.parse(Buffer.from(bytes).toString('utf8')) as PartSummary[]) summaries.set(s.index, s);
  }
  // Planned before the rules were recorded on the job (a deployment in between): how its parts join is not known here.
  if (!job.merge_rules) throw new Error(`job ${job.id} has no merge rules: it was planned by an older version; submit the document again`);

  // The parts are read one at a time, once for the plan and again for each section of the result, which is written out
  // as it is made: holding every part and the merged result made memory grow with many times the document.
  const refs = partRefs(job);
  let firstError: string | null = null;
  const source: PartSource = {
    count: refs.length,
    async read(position, members) {
      const ref = refs[position]!;
      const summary = summaries.get(ref.index);
      const stored = summary && !summary.ok ? { ok: false as const, error: summary.error ?? 'The part could not be read.' } : await loadPart(deps.blobs, ref, members);
      if (!stored.ok) firstError ??= stored.error;
      const place = { first_page: ref.first_page, last_page: ref.last_page, ...(ref.page_part ? { pagePart: { first: ref.page_part.first, continues: ref.page_part.continues } } : {}) };
      return stored.ok ? { ...place, ok: true, result: stored.result } : ({ ...place, ok: false, error: stored.error } satisfies Part);
    },
  };
  const plan = await planMerge(source, job.merge_rules, job.document_metadata ?? null);
  let outcome: Job | null;
  if (!plan) outcome = await fail(deps, job, `No chunk of the document could be extracted (pages ${describeRanges(refs)}): ${firstError ?? 'unknown error'}`);
  else {
    const key = resultKey(job.project_id, job.id);
    const size = await deps.blobs.putStream(key, mergedJson(source, plan), 'application/json');
    const now = deps.clock.now();
    outcome = await complete(deps, job, { ref: resultRef(key, size, now), pages: plan.pages, partial: plan.partial, now });
  }
  await cleanUp(deps, job);
  if (outcome) await deps.events.jobFinished(outcome);
  const now = outcome ?? (await deps.jobs.getJob(job.id));
  return { job_id: job.id, status: now?.status ?? 'missing' };
}

export interface FailedEvent {
  job_id: string;
  project_id: string;
  /** What the state machine caught (ResultPath $.error): the error's name and its cause. */
  error?: { Error?: string; Cause?: string };
}

/** What the job says when its merge failed: not the document's fault, so what to try is to submit it again. */
export const MERGE_FAILED_MESSAGE =
  'The document was extracted in chunks, but merging them into one result failed because of an internal error, after several retries. ' +
  'Submit the file again; if it fails again, submit it in smaller files or select fewer pages with config.pages.';

/**
 * The aggregation state machine's catch step, run when measuring or merging
 * failed after its retries: fails the job with a conditional write from
 * `aggregating` (the failure transition of every other failed job: quota
 * returned, job.failed announced), so it does not stay `aggregating` for
 * ever. A job that already ended (cancelled meanwhile, or completed by a
 * merge that failed only afterwards) keeps its status and is announced again,
 * which is idempotent.
 */
export async function aggregateFailed(deps: FinishDeps, event: FailedEvent): Promise<{ job_id: string; status: string }> {
  deps.log?.('aggregation failed after its retries', { job_id: event.job_id, error: event.error?.Error, cause: event.error?.Cause?.slice(0, 2000) });
  const job = await deps.jobs.getJob(event.job_id);
  if (!job) return { job_id: event.job_id, status: 'missing' };
  const failed = job.status === 'aggregating' ? await fail(deps, job, MERGE_FAILED_MESSAGE) : null;
  const now = failed ?? (await deps.jobs.getJob(job.id));
  if (now && isTerminal(now.status)) {
    await cleanUp(deps, now);
    await deps.events.jobFinished(now);
  }
  return { job_id: job.id, status: now?.status ?? 'missing' };
}

async function complete(deps: FinishDeps, job: Job, result: { ref: ResultRef; pages: number; partial: boolean; now: number }): Promise<Job | null> {
  // Charged as extracted, as for a whole document (process-job.ts): failed chunks cost nothing.
  const { pages, partial, now, ref: result_ref } = result;
  // One write for the transition, the quota and the usage (Jobs.finishJob): a redelivered Finish charges nothing twice.
  const done = await deps.jobs.finishJob(completion(job, partial ? 'partial_success' : 'completed', ['aggregating'], pages, result_ref, now));
  if (done === 'insufficient') {
    await deps.blobs.delete(result_ref.key).catch(() => undefined);
    return fail(deps, job, shortfallRefused(job, pages));
  }
  // No ExtractionTime: the chunks were extracted in parallel by separate invocations, so no one wall time is "the" extraction.
  if (done) recordJobFinished(done.status, formatHint(job), { pages });
  return done;
}

async function fail(deps: FinishDeps, job: Job, message: string): Promise<Job | null> {
  const failed = await deps.jobs.transitionJob(job.id, 'failed', { error_message: message, pages_reserved: 0, updated_at: deps.clock.now() }, ['aggregating']);
  if (failed && job.quota && job.pages_reserved > 0) await deps.quotas.refundPages(job.quota, job.pages_reserved);
  if (failed) recordJobFinished(failed.status, formatHint(job));
  return failed;
}

/** The document and the parts are only needed until the job ends; the bucket's lifecycle rules catch anything missed. */
async function cleanUp(deps: FinishDeps, job: Job): Promise<void> {
  await Promise.all(jobObjectKeys(job).map((key) => deps.blobs.delete(key).catch((error) => deps.log?.('could not delete', { key, error: String(error) }))));
}
