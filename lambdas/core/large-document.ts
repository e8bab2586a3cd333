// The large-document pipeline before aggregation (DESIGN.md section 4): the
// extraction worker splits a document over limits.splitBytes into chunks and
// fans them out on the chunk queue; chunk workers extract their pages, store
// their part and record it on the job, once; whoever records the last part
// moves the job to `aggregating` and starts the aggregation state machine.

import { detect } from '../extract/engine/detect.ts';
import { countPages } from '../extract/engine/page-count.ts';
import { inOriginalPages } from '../extract/engine/page-numbers.ts';
import { DEFAULT_CONFIG, ExtractionError, type ExtractInput, type ExtractionResult } from '../extract/engine/types.ts';
import type { ByteRun, RangeLayout, RangePlan, RangeSlice } from '../extract/engine/byte-ranges.ts';
import { mergeRulesOf } from '../extract/engine/merge.ts';
import { CELLS_PER_CHUNK, checkUnitLimit } from '../extract/engine/limits.ts';
import { descriptorOf, type Format } from '../extract/engine/registry.ts';
import type { PlannedPage } from '../extract/engine/page-parts.ts';
import { storedResult, type ResultMeasure, type StoredResult } from './job-result.ts';
import { chunkPages, partedChunks, planChunks, plannedPages } from './chunk-plan.ts';
import { isTerminal, type ChunkRange, type Job, type OriginalMetadata } from './job.ts';
import type { AggregationStarter, Blobs, ChunkMessage, ChunkQueue, Clock, JobEvents, Jobs, PartRef } from './ports.ts';

export interface SplitSettings {
  queue: ChunkQueue;
  /** Documents over this many bytes are split (limits.splitBytes). */
  splitBytes: number;
  pagesPerChunk: number;
  /** Cuts a PDF into one PDF per chunk (the extractor pool, which parses it under the usual limits); without it, chunk workers read the whole document. */
  pdf?: PdfSplitter;
  /** Finds where each chunk's text lies in a text file's bytes (the extractor pool); without it, chunk workers read the whole file. */
  ranges?: RangePlanner;
  /** Cuts the pages too large for one chunk into parts (the extractor pool); without it, a chunk reads its pages whole. */
  pages?: PagePlanner;
}

export interface PagePlanner {
  /** The format's planner (engine/page-planners.ts), off the caller's thread. Takes the buffer over. */
  planPages(bytes: Uint8Array, format: string, pages: number[] | null): Promise<PlannedPage[] | null>;
}

export interface RangePlanner {
  /** The format's planner (engine/range-planners.ts), off the caller's thread. Takes the buffer over. */
  planRanges(bytes: Uint8Array, format: string, runs: ChunkRange[]): Promise<RangePlan | null>;
}

export interface PdfSplitter {
  /** One PDF per list of 1-based page numbers, or null for a list whose pages cannot be copied. */
  splitPdf(bytes: Uint8Array, pageLists: number[][]): Promise<Array<Uint8Array | null>>;
  /**
   * The PDF as the engine opens it: its own document metadata (title, author,
   * dates, ...), which the cuts lose, and its pages. Takes the buffer over and
   * hands it back (`bytes`), so a large document is never copied for it.
   */
  pdfDocument?(bytes: Uint8Array): Promise<{ metadata: OriginalMetadata; pages: number; bytes: Uint8Array }>;
}

export const partKey = (projectId: string, jobId: string, index: number) => `parts/${projectId}/${jobId}/${index}.json`;
export const manifestKey = (projectId: string, jobId: string) => `parts/${projectId}/${jobId}/manifest.json`;
/** The ByteRun of each chunk of a file split by byte ranges, in plan order: what a re-sent chunk message carries. */
export const rangesKey = (projectId: string, jobId: string) => `parts/${projectId}/${jobId}/ranges.json`;
/** What one Map iteration measured: the summaries of its batch of parts (aggregate.ts). */
export const measuredKey = (projectId: string, jobId: string, first: number) => `parts/${projectId}/${jobId}/measured-${first}.json`;

/**
 * Parts one aggregation Map iteration measures: few enough iterations that the
 * state and the execution history stay small for the largest document (a
 * 500 MB text file is 3,334 parts, 67 iterations), few enough parts that one
 * iteration reads them, one at a time, well inside the task's time limit.
 */
export const PARTS_PER_BATCH = 50;

/** [first, last] positions of each batch of `parts` parts. */
export const aggregationBatches = (parts: number): Array<[number, number]> =>
  Array.from({ length: Math.ceil(parts / PARTS_PER_BATCH) }, (_, i) => [i * PARTS_PER_BATCH, Math.min(parts, (i + 1) * PARTS_PER_BATCH) - 1]);
const sourceKey = (projectId: string, jobId: string, index: number) => `parts/${projectId}/${jobId}/${index}.pdf`;

/** Every object a job's pipeline stores: its document, its chunks' PDFs and their parts (deleted when the job ends). */
export const jobObjectKeys = (job: Job): string[] => [
  ...(job.document.kind === 's3' ? [job.document.key] : []),
  ...(job.chunk_plan ?? []).flatMap((range) => (range.source ? [range.source.key] : [])),
  ...partRefs(job).map((ref) => ref.key),
  ...(job.chunk_plan ? [manifestKey(job.project_id, job.id), ...aggregationBatches(job.chunk_plan.length).map(([first]) => measuredKey(job.project_id, job.id, first))] : []),
  ...(job.range_layout ? [rangesKey(job.project_id, job.id)] : []),
];

/** A chunk's part object: its pages' result (measured, in parts written since measures were), or why they could not be extracted. */
export type StoredPart = ChunkRange & ({ ok: true; result: ExtractionResult; measure?: ResultMeasure } | { ok: false; error: string });

export const partRefs = (job: Job): PartRef[] =>
  (job.chunk_plan ?? []).map((range) => ({ ...range, key: partKey(job.project_id, job.id, range.index) }));

const recorded = (job: Job) => (job.chunks_done?.length ?? 0) + (job.chunks_failed?.length ?? 0);
const isRecorded = (job: Job, index: number) => job.chunks_done?.includes(index) || job.chunks_failed?.includes(index);

/**
 * For the extraction worker: splits `job` if its document is large and of a
 * splittable format, or re-sends the chunks of a job already split whose
 * fan-out may have been cut short. Returns the document bytes when the job is
 * to be extracted whole after all, null when the pipeline took it.
 */
export async function splitIfLarge(
  deps: { jobs: Jobs; blobs: Blobs; clock: Clock; events: JobEvents; split: SplitSettings; log?: (m: string, f?: Record<string, unknown>) => void },
  job: Job,
  bytes: Uint8Array,
): Promise<Uint8Array | null> {
  if (job.status === 'chunking') {
    const runs = job.range_layout ? await storedRuns(deps.blobs, job) : null;
    await fanOut(deps.split.queue, job, (job.chunk_plan ?? []).filter((r) => !isRecorded(job, r.index)), runs);
    return null;
  }
  if (job.status !== 'pending' || bytes.byteLength <= deps.split.splitBytes) return bytes;
  const input: ExtractInput = { bytes, filename: job.filename, contentType: job.content_type };
  let format: Format;
  try {
    format = detect(input).format;
  } catch (error) {
    // An unsupported or refused document: the whole-document path fails the job with the reason.
    if (error instanceof ExtractionError) return bytes;
    throw error;
  }
  const { split, limit } = descriptorOf(format);
  if (!split) return bytes;

  const selected = job.config?.pages ?? null;
  // The original's metadata first (the cut takes the buffer over): each cut is a new PDF, with PDFium's.
  const cuts = split.chunks === 'cut' && deps.split.pdf;
  let opened: { metadata: OriginalMetadata; pages: number } | null = null;
  if (cuts && deps.split.pdf?.pdfDocument) {
    try {
      const answer = await deps.split.pdf.pdfDocument(bytes);
      opened = answer;
      bytes = input.bytes = answer.bytes;
    } catch {
      // Not opened (the cut will say why, or the chunks will); the pool took the buffer, so the document is read again.
      const again = job.document.kind === 's3' ? await deps.blobs.get(job.document.key) : null;
      if (!again) throw new Error(`job ${job.id}: the document could not be read again after the engine failed to open it`);
      bytes = input.bytes = again;
    }
  }
  const metadata = opened?.metadata ?? null;
  // Planned over the pages the engine finds where it opened the document: the count at submission reads the
  // file's structure without parsing it, and pages it missed would be missing from the result, not failed.
  const pagesTotal = opened && opened.pages > 0 ? opened.pages : countPages(input);
  // Each chunk is held to the limits only over its own pages: the whole document is held to them here, with the same error.
  checkUnitLimit(limit, pagesTotal);
  const planned = planChunks(pagesTotal, selected, deps.split.pagesPerChunk);
  // Nothing selected exists (pages beyond the end): the whole-document path says so properly.
  if (planned.length === 0) return bytes;
  // Cut before the job moves on, so that every chunk message finds its PDF; a crash in between cuts again, to the same keys.
  let plan = cuts && deps.split.pdf ? await cutPdf(deps, deps.split.pdf, job, bytes, planned, pagesTotal) : planned;
  if (split.pageParts && deps.split.pages) plan = await planPageParts(deps, deps.split.pages, job, bytes, format, planned);
  const ranges = split.chunks === 'ranges' && deps.split.ranges ? await planRanges(deps, deps.split.ranges, job, bytes, format, planned) : null;
  // Stored before the job moves on, so a fan-out cut short can be sent again with them; a crash in between writes the same again.
  if (ranges) await deps.blobs.put(rangesKey(job.project_id, job.id), Buffer.from(JSON.stringify(ranges.runs)), 'application/json');
  const cut = plan.some((r) => r.source);
  const chunking = await deps.jobs.transitionJob(
    job.id,
    'chunking',
    {
      chunk_plan: plan,
      pages_total: plannedPages(plan, selected),
      pages_done: 0,
      attempts: job.attempts + 1,
      updated_at: deps.clock.now(),
      ...(cut && metadata ? { document_metadata: metadata } : {}),
      ...(ranges ? { range_layout: ranges.layout } : {}),
      merge_rules: mergeRulesOf(split),
    },
    ['pending'],
  );
  if (!chunking) {
    // Cancelled (or taken by another delivery) meanwhile: what this attempt cut or stored is nobody's.
    await Promise.all(plan.flatMap((r) => (r.source ? [deps.blobs.delete(r.source.key).catch(() => undefined)] : [])));
    if (ranges && !(await deps.jobs.getJob(job.id))?.range_layout) await deps.blobs.delete(rangesKey(job.project_id, job.id)).catch(() => undefined);
    const now = await deps.jobs.getJob(job.id);
    if (now && isTerminal(now.status)) await deps.events.jobFinished(now);
    return null;
  }
  deps.log?.('split large document', { job_id: job.id, format, bytes: job.size, chunks: plan.length });
  await fanOut(deps.split.queue, chunking, plan, ranges?.runs ?? null);
  return null;
}

async function cutPdf(
  deps: { blobs: Blobs; log?: (m: string, f?: Record<string, unknown>) => void },
  splitter: PdfSplitter,
  job: Job,
  bytes: Uint8Array,
  plan: ChunkRange[],
  pagesTotal: number,
): Promise<ChunkRange[]> {
  const selected = job.config?.pages ?? null;
  let pdfs: Array<Uint8Array | null>;
  try {
    // The pool takes the buffer over; the document is already stored, and nothing here needs it after.
    pdfs = await splitter.splitPdf(bytes, plan.map((range) => chunkPages(range, selected)));
  } catch (error) {
    // A document PDFium cannot even open: its chunks read the whole document and report why they fail.
    if (!(error instanceof ExtractionError)) throw error;
    deps.log?.('could not cut the PDF into chunks', { job_id: job.id, error: error.message });
    return plan;
  }
  return Promise.all(
    plan.map(async (range, i) => {
      const pdf = pdfs[i];
      if (!pdf) return range;
      const key = sourceKey(job.project_id, job.id, range.index);
      await deps.blobs.put(key, pdf, 'application/pdf');
      return { ...range, source: { key, pages_total: pagesTotal } };
    }),
  );
}

/** The plan with the pages too large for one chunk cut into parts; the plan by pages when the document's pages could not be read. */
async function planPageParts(
  deps: { split: SplitSettings; log?: (m: string, f?: Record<string, unknown>) => void },
  planner: PagePlanner,
  job: Job,
  bytes: Uint8Array,
  format: string,
  byPages: ChunkRange[],
): Promise<ChunkRange[]> {
  try {
    // The pool takes the buffer over; nothing here needs it after.
    const planned = await planner.planPages(bytes, format, job.config?.pages ?? null);
    return planned && planned.length > 0 ? partedChunks(planned, deps.split.pagesPerChunk, CELLS_PER_CHUNK) : byPages;
  } catch (error) {
    // Over the format's limit as a whole (a workbook's cells): the job fails now, with the whole-document error.
    if (!(error instanceof ExtractionError) || error.code === 'too_many_pages') throw error;
    // A document the planner cannot read (damaged): its chunks read their pages whole and report why they fail.
    deps.log?.('could not plan the parts of the pages', { job_id: job.id, error: error.message });
    return byPages;
  }
}

async function planRanges(
  deps: { log?: (m: string, f?: Record<string, unknown>) => void },
  planner: RangePlanner,
  job: Job,
  bytes: Uint8Array,
  format: string,
  plan: ChunkRange[],
): Promise<RangePlan | null> {
  try {
    // The pool takes the buffer over; nothing here needs it after.
    const ranges = await planner.planRanges(bytes, format, plan);
    if (!ranges) deps.log?.('chunks not located in the file (its encoding); each chunk reads the whole file', { job_id: job.id });
    return ranges;
  } catch (error) {
    // Over the worker's time or memory: the chunks still extract, each reading the whole file, as they did before ranges were located.
    if (!(error instanceof ExtractionError)) throw error;
    deps.log?.('could not locate the chunks in the file', { job_id: job.id, error: error.message });
    return null;
  }
}

async function fanOut(queue: ChunkQueue, job: Job, ranges: ChunkRange[], runs: ByteRun[] | null): Promise<void> {
  if (ranges.length === 0) return;
  await queue.send(ranges.map((r): ChunkMessage => ({ job_id: job.id, project_id: job.project_id, index: r.index, ...(runs?.[r.index] ? { run: runs[r.index] } : {}) })));
}

/** The runs planning stored; null when they are gone (the chunks then read the whole file). */
async function storedRuns(blobs: Blobs, job: Job): Promise<ByteRun[] | null> {
  const bytes = await blobs.get(rangesKey(job.project_id, job.id));
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as ByteRun[]) : null;
}

export interface ChunkWorkerDeps {
  jobs: Jobs;
  blobs: Blobs;
  clock: Clock;
  /** With extractStored, the worker that extracts a chunk writes its JSON too: this thread neither copies the result's objects nor serializes them. */
  extractor: { extract(input: ExtractInput): Promise<ExtractionResult>; extractStored?(input: ExtractInput): Promise<StoredResult> };
  aggregation: AggregationStarter;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * Extracts one chunk and records it. Safe to run twice for one message: a
 * recorded chunk is not extracted again, and the record itself is a
 * conditional write. A job that is no longer chunking (cancelled, failed) is
 * skipped. Problems with our infrastructure throw so SQS redelivers, until
 * the last delivery, which records the chunk as failed rather than leave the
 * job waiting for it forever.
 */
export async function processChunk(
  deps: ChunkWorkerDeps,
  message: ChunkMessage,
  delivery: { receiveCount: number; maxReceiveCount: number },
): Promise<void> {
  const job = await deps.jobs.getJob(message.job_id);
  if (!job) return;
  if (job.status === 'aggregating') return startAggregation(deps, job);
  if (job.status !== 'chunking') return deps.log?.('skipping chunk of a job that is not chunking', { job_id: job.id, status: job.status });
  const range = job.chunk_plan?.find((r) => r.index === message.index);
  if (!range) return deps.log?.('dropping chunk message outside the plan', { job_id: job.id, index: message.index });
  if (isRecorded(job, range.index)) return finishIfLast(deps, job);

  let part: ChunkOutcome;
  try {
    part = await extractChunk(deps, job, range, message.run ?? null);
  } catch (error) {
    if (delivery.receiveCount < delivery.maxReceiveCount) throw error;
    deps.log?.('giving up on chunk after last delivery', { job_id: job.id, index: range.index, error: String(error) });
    part = { ok: false, error: `Pages ${range.first_page}-${range.last_page} failed after ${delivery.receiveCount} attempts because of an internal error.` };
  }
  await deps.blobs.put(partKey(job.project_id, job.id, range.index), partJson(range, part), 'application/json');
  // Failed pages count as done for progress: they are behind the job, not ahead of it.
  const pages = chunkPages(range, job.config?.pages ?? null).length;
  const after = await deps.jobs.recordChunk(job.id, range.index, part.ok ? 'done' : 'failed', pages, deps.clock.now());
  // Null: a duplicate delivery recorded it first, or the job was cancelled meanwhile; the re-read tells which.
  const current = after ?? (await deps.jobs.getJob(job.id));
  if (current) await finishIfLast(deps, current);
}

/** A chunk's result: as objects (a cut PDF's, renumbered here), as the JSON its worker wrote, or why it failed. */
type ChunkOutcome = { ok: true; result: ExtractionResult } | { ok: true; stored: StoredResult } | { ok: false; error: string };

/**
 * The part object (StoredPart) of a chunk's outcome, as JSON bytes: the
 * worker's JSON is put in place, not parsed. The result comes last, after
 * where each of its members lies in it (`members`), so the merge reads a
 * member without scanning the rest (aggregate.ts readPart).
 */
function partJson(range: ChunkRange, outcome: ChunkOutcome): Uint8Array {
  const { source: _, ...plain } = range;
  if (!outcome.ok) return Buffer.from(JSON.stringify({ ...plain, ...outcome }));
  const { json, members, measure } = 'result' in outcome ? storedResult(outcome.result) : outcome.stored;
  const head = JSON.stringify({ ...plain, ok: true, measure, members });
  return Buffer.concat([Buffer.from(`${head.slice(0, -1)},"result":`), json, Buffer.from('}')]);
}

async function extractChunk(deps: ChunkWorkerDeps, job: Job, range: ChunkRange, run: ByteRun | null): Promise<ChunkOutcome> {
  const config = job.config ?? DEFAULT_CONFIG;
  const pages = range.page_part ? [range.page_part.page] : chunkPages(range, config.pages);
  const { source } = range;
  const own = source ? await deps.blobs.get(source.key) : null;
  const read = async (input: ExtractInput): Promise<ChunkOutcome> =>
    deps.extractor.extractStored ? { ok: true, stored: await deps.extractor.extractStored(input) } : { ok: true, result: await deps.extractor.extract(input) };
  const missing: ChunkOutcome = { ok: false, error: 'The uploaded document could not be found (it may have expired).' };
  try {
    if (run && job.range_layout && job.document.kind === 's3') {
      const slice = await readRange(deps.blobs, job.document.key, job.range_layout, run);
      if (!slice) return missing;
      return await read({ bytes: slice.bytes, filename: job.filename, contentType: job.content_type, config: { ...config, pages }, range: slice.range });
    }
    if (source && own) {
      const result = await deps.extractor.extract({ bytes: own, filename: job.filename, contentType: 'application/pdf', config: { ...config, pages: null } });
      return { ok: true, result: inOriginalPages(result, pages, source.pages_total) };
    }
    if (job.document.kind !== 's3') throw new Error(`job ${job.id} was split but its document is not in S3`);
    const bytes = await deps.blobs.get(job.document.key);
    if (!bytes) return missing;
    const outcome = await read({ bytes, filename: job.filename, contentType: job.content_type, config: { ...config, pages }, ...(range.page_part ? { pagePart: range.page_part } : {}) });
    // A damaged page tree reads as shorter than it is: pages the parser cannot find are a failure, not an empty success.
    const found = !outcome.ok ? null : 'stored' in outcome ? outcome.stored : { pages: outcome.result.metadata.pages, pages_total: outcome.result.metadata.pages_total ?? 0 };
    if (found && found.pages === 0) {
      return { ok: false, error: `Pages ${range.first_page}-${range.last_page} could not be read: the document as read has ${found.pages_total} pages.` };
    }
    return outcome;
  } catch (error) {
    if (error instanceof ExtractionError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * A chunk's bytes: its run's (up to where its last block ends), after the
 * file's header row when the file has one before them (a CSV chunk's table
 * keeps the file's header).
 */
async function readRange(blobs: Blobs, key: string, layout: RangeLayout, run: ByteRun): Promise<{ bytes: Uint8Array; range: RangeSlice } | null> {
  const [start, end, , , readEnd = end] = run;
  const headerAt = 'header' in layout ? layout.header : null;
  const header = headerAt && headerAt[0] < start ? await blobs.getRange(key, headerAt[0], headerAt[1]) : new Uint8Array(0);
  const rows = await blobs.getRange(key, start, readEnd);
  if (!header || !rows) return null;
  if (header.byteLength === 0) return { bytes: rows, range: { layout, run, header_bytes: 0 } };
  const bytes = new Uint8Array(header.byteLength + rows.byteLength);
  bytes.set(header, 0);
  bytes.set(rows, header.byteLength);
  return { bytes, range: { layout, run, header_bytes: header.byteLength } };
}

/** When every chunk is recorded: one conditional write moves the job to `aggregating`, then the aggregation starts. */
async function finishIfLast(deps: ChunkWorkerDeps, job: Job): Promise<void> {
  if (job.status === 'aggregating') return startAggregation(deps, job);
  if (job.status !== 'chunking' || recorded(job) < (job.chunk_plan?.length ?? Infinity)) return;
  const aggregating = await deps.jobs.transitionJob(job.id, 'aggregating', { updated_at: deps.clock.now() }, ['chunking']);
  if (aggregating) await startAggregation(deps, aggregating);
}

/**
 * Also run by a redelivered chunk message that finds the job aggregating: the
 * worker that moved it there may have died before starting the execution, and
 * the execution is named after the job, so starting it again starts it once.
 * The manifest is written again too, with the same content.
 */
async function startAggregation(deps: ChunkWorkerDeps, job: Job): Promise<void> {
  const manifest = manifestKey(job.project_id, job.id);
  const refs = partRefs(job);
  await deps.blobs.put(manifest, Buffer.from(JSON.stringify(refs)), 'application/json');
  await deps.aggregation.start({ job_id: job.id, project_id: job.project_id, manifest, batches: aggregationBatches(refs.length) });
}
