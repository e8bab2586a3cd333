// An isolated pool of extraction workers. Every upload is hostile: a parser
// that hangs or blows up its heap costs one job and one worker thread, never
// the process. The time limit is enforced from outside (the worker is
// terminated), the memory cap by V8's resource limits.
//
// This module is also the worker's entry: a worker loads this same file
// (import.meta.url), which works under tsx, vitest and an esbuild bundle alike.
// Its top-level imports stay light because every worker loads them.

import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import { engineMemoryBytes } from './memory.ts';
import { IDLE_HEAP_BYTES, trimHeap } from './heap-trim.ts';
import { compiledPdfium, usePdfiumModule } from '../formats/pdf/pdfium-module.ts';
import type { RangePlan, RangeSlice } from './byte-ranges.ts';
import type { PagePart, PlannedPage } from './page-parts.ts';
import { helpOver, type HelpCall, type HelpTask, type PageHelpers } from './shared-pages.ts';
import type { StoredResult } from '../../core/job-result.ts';
import { DEFAULT_CONFIG, ExtractionError, type ExtractionConfig, type ExtractionErrorCode, type ExtractInput, type ExtractionResult, type Progress } from './types.ts';

export interface Extractor {
  /** The buffer behind `input.bytes` is transferred to the worker (detached here) when the view covers all of it. */
  extract(input: ExtractInput): Promise<ExtractionResult>;
  /**
   * extract, but the worker writes the result out as JSON and hands over its
   * bytes: the calling thread neither copies the result's objects across nor
   * serializes them (for a job's result, which is only stored).
   */
  extractStored(input: ExtractInput): Promise<StoredResult>;
  /** One PDF per list of page numbers, or null where those pages cannot be copied (formats/pdf/split.ts), in a worker under the same limits as an extraction. */
  splitPdf(bytes: Uint8Array, pageLists: number[][]): Promise<Array<Uint8Array | null>>;
  /** Where each run of pages lies in a text file's bytes (range-planners.ts), in a worker; the buffer is taken over. */
  planRanges(bytes: Uint8Array, format: string, runs: Array<{ first_page: number; last_page: number }>): Promise<RangePlan | null>;
  /** The document's pages with the parts of those too large for one chunk (page-planners.ts), in a worker; null for a format that cuts none. The buffer is taken over. */
  planPages(bytes: Uint8Array, format: string, pages: number[] | null): Promise<PlannedPage[] | null>;
  /**
   * A PDF as PDFium opens it, in a worker: its document metadata (title,
   * author, subject, keywords, creator, producer, dates) and its pages. The
   * buffer is taken over and handed back, in `bytes` (never copied).
   */
  pdfDocument?(bytes: Uint8Array): Promise<{ metadata: PdfDocumentMetadata; pages: number; bytes: Uint8Array }>;
  /** Page `page` of a PDF as a colour PNG `width` pixels wide (page-image.ts), in a worker; png is null for a page the PDF does not have. The buffer is taken over. */
  renderPage?(bytes: Uint8Array, page: number, width: number): Promise<{ pages: number; png: Uint8Array | null }>;
  close(): Promise<void>;
}

export interface ExtractorPoolOptions {
  /** Workers running at once; further jobs queue. */
  size: number;
  /** Wall-clock limit per job, from when a ready worker receives it. */
  timeoutMs: number;
  /** V8 old-generation heap limit per worker. */
  maxMemoryMb: number;
  /**
   * The module each worker loads instead of this one; it starts the worker
   * itself with runWorker. The compiled local server's worker-entry.ts
   * (bin/start.mjs), and the tests' test/support/fault-worker.ts, which passes
   * a hook that makes chosen documents misbehave: so those faults exist only
   * in the tests, never in a Lambda bundle.
   */
  workerModule?: URL;
  /**
   * Start every worker now, each loading PDFium, rather than on demand: for a
   * long-running server, whose first documents should not wait for threads
   * and the engine to load. A Lambda keeps the default, so a container that
   * never sees a PDF never loads the engine.
   */
  prewarm?: boolean;
  /** Replace a worker after a job that left its PDF engine holding more than this (default RECYCLE_ENGINE_BYTES). */
  recycleEngineBytes?: number;
  /** Replace a worker after a job whose input was larger than this (default RECYCLE_INPUT_BYTES). */
  recycleInputBytes?: number;
}

export interface WorkerData {
  docexExtractWorker: true;
  /** Started by opts.workerModule, which calls runWorker itself. */
  ownEntry?: boolean;
  prewarm: boolean;
  /** A page counter's worker: loads page-count.ts only, never the extraction engine. */
  counter?: boolean;
  /** Reads a small PDF of its own before it says it is ready (warm-up.ts). */
  warmUp?: boolean;
  /** A prewarmed pool's PDF engine, compiled once for every worker it starts (pdfium-module.ts). */
  pdfium?: WebAssembly.Module;
}

type Task =
  | {
      op: 'extract';
      filename: string;
      contentType: string | null;
      config: ExtractionConfig | null;
      range?: RangeSlice;
      pagePart?: PagePart;
      stored?: boolean;
      /** Other workers of the pool the document's reader may call in (shared-pages.ts). */
      helpers?: number;
      /** The caller follows the pages read (ExtractInput.onProgress). */
      progress?: true;
    }
  /** A helper's share of a long document's pages (shared-pages.ts); the document is the request's bytes. */
  | { op: 'read-pages'; help: Omit<HelpTask, 'bytes'> }
  | { op: 'plan-ranges'; format: string; runs: Array<{ first_page: number; last_page: number }> }
  | { op: 'plan-pages'; format: string; pages: number[] | null }
  | { op: 'split'; pageLists: number[][] }
  | { op: 'count'; filename: string; contentType: string | null }
  | { op: 'metadata' }
  | { op: 'render'; page: number; width: number };

/** The document-level fields of a PDF's metadata. */
export type PdfDocumentMetadata = Partial<Record<'title' | 'author' | 'subject' | 'keywords' | 'creator' | 'producer' | 'created_at' | 'modified_at', string | null>>;
const PDF_METADATA_FIELDS = ['title', 'author', 'subject', 'keywords', 'creator', 'producer', 'created_at', 'modified_at'] as const;
/** What a count answers: the pages, why the document is over the counting budget, or why it is over its format's read limit. */
type CountAnswer = { pages: number } | { overBudget: string } | { overReadLimit: string };
type Request = Task & { id: number; bytes: Uint8Array };
/** Sent to a worker the pool has nothing more for: collect what the jobs left, down to IDLE_HEAP_BYTES. */
type Trim = { op: 'trim' };
type Reply =
  | { type: 'ready' }
  /** A job's reader calls idle workers in to read some of its pages. */
  | { type: 'help'; id: number; call: HelpCall }
  | { type: 'progress'; id: number; pagesDone: number; pagesTotal: number }
  | { type: 'done'; id: number; result: unknown; engineBytes: number }
  | { type: 'failed'; id: number; code: ExtractionErrorCode | null; message: string; engineBytes: number };

/**
 * WebAssembly memory only grows: a worker whose PDF engine grew past this on
 * one large document is replaced after it, so the next documents start small
 * and the engine's own cap (formats/pdf/extract.ts) measures what they need, not what came before.
 */
export const RECYCLE_ENGINE_BYTES = 512 * 1024 * 1024;

/**
 * A worker's heap keeps what a large job grew it to (V8 gives old-generation
 * space back slowly, if at all): a worker that read a document this large,
 * planned its rows or merged its parts is replaced after it, so the server's
 * memory goes back down once the job is done, not after the next ones.
 */
export const RECYCLE_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * A worker's young generation, where V8 allocates first. V8's default (16 MB
 * semi-spaces, 48 MB with their copy space) is sized for throughput on a big
 * heap; a worker's objects are short-lived pieces of one document, and the
 * smaller space cost nothing measurable in speed (35 corpus PDFs, warm and
 * cold) while a 15 MB CSV's peak fell by about 40 MB of the server's RSS.
 */
export const YOUNG_GENERATION_MB = 4;

interface Job {
  id: number;
  bytes: Uint8Array;
  /** The input's size when queued: the bytes are detached once they are sent to the worker. */
  size: number;
  task: Task;
  /** This job's own time limit, when not the pool's. */
  timeoutMs?: number;
  resolve(result: unknown): void;
  reject(err: Error): void;
  /** Its reader's call for helpers. */
  help?: Help;
  /** Hears of its pages read (ExtractInput.onProgress). */
  progress?: Progress;
}

interface Help {
  call: HelpCall;
  /** The helpers (their ports' indexes) not at work for it: given to idle workers, handed back when they leave. */
  free: number[];
  /** Its job is over: a port handed back is closed. */
  ended: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  dead: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  /** Set while the worker is idle: when it fires, the worker collects its heap (IDLE_HEAP_BYTES). */
  trim: NodeJS.Timeout | null;
}

/**
 * How long a worker waits for its next job before collecting its heap. A
 * forced collection also throws away the optimised code whose embedded object
 * shapes died with the last document, which the next documents then compile
 * again on V8's background threads: at 1 s, a client sending batches a second
 * or two apart paid that after every batch (35 corpus PDFs on a running
 * server, 1 s against 10 s, alternating: 3.5 to 4.6 s of background CPU a
 * batch against 2.3 to 3.0 s, 6 to 8% of the batch's CPU). Ten seconds still
 * gives the memory back soon after the work stops.
 */
export const IDLE_TRIM_MS = 10_000;

export function createExtractorPool(opts: ExtractorPoolOptions): Extractor {
  const pool = createPool(opts);
  return {
    extract: pool.extract,
    extractStored: pool.extractStored,
    splitPdf: pool.splitPdf,
    planRanges: (bytes, format, runs) => pool.run<RangePlan | null>(bytes, { op: 'plan-ranges', format, runs }),
    planPages: (bytes, format, pages) => pool.run<PlannedPage[] | null>(bytes, { op: 'plan-pages', format, pages }),
    pdfDocument: (bytes) => pool.run<{ metadata: PdfDocumentMetadata; pages: number; bytes: Uint8Array }>(bytes, { op: 'metadata' }),
    // A page image is wanted while someone waits: a minute at most, whatever the pool's limit for extractions.
    renderPage: (bytes, page, width) => pool.run<{ pages: number; png: Uint8Array | null }>(bytes, { op: 'render', page, width }, Math.min(opts.timeoutMs, 60_000)),
    close: pool.close,
  };
}

export interface PageCounter {
  /**
   * countPagesWithin (page-count.ts) in a worker thread, off the caller's
   * event loop: the pages, or a PageCountBudgetExceeded rejection when the
   * document is over the budget, took longer than it allows, or needed more
   * than the worker's memory, or an OverReadLimit one when it is larger than
   * its format's read limit. The bytes are copied, unless `release` says the
   * caller is done with them: then their buffer is taken over.
   */
  count(input: { bytes: Uint8Array; filename: string; contentType: string | null; release?: true }): Promise<number>;
  close(): Promise<void>;
}

/** Workers that only count pages, for the API: a hostile document costs a worker thread, never the server's main thread. */
export function createPageCounter(opts: { size: number; maxMemoryMb: number; prewarm?: boolean; workerModule?: URL }): PageCounter {
  const pool = createPool({ ...opts, timeoutMs: 60_000, counter: true });
  return {
    async count({ bytes, filename, contentType, release }) {
      const { countBudgetFor, OverReadLimit, PageCountBudgetExceeded } = await import('./page-count.ts');
      // The worker keeps to the budget's time itself; this is the backstop for one that cannot (a stuck regex).
      const timeoutMs = countBudgetFor(bytes.byteLength).timeMs + 5000;
      let answer: CountAnswer;
      try {
        answer = await pool.run<CountAnswer>(release ? bytes : new Uint8Array(bytes), { op: 'count', filename, contentType }, timeoutMs);
      } catch (error) {
        if (error instanceof ExtractionError && error.code === 'timeout') throw new PageCountBudgetExceeded(`counting took longer than ${Math.round(timeoutMs / 1000)} s`);
        if (error instanceof ExtractionError && error.code === 'out_of_memory') throw new PageCountBudgetExceeded(`counting needed more than ${opts.maxMemoryMb} MB of memory`);
        throw error;
      }
      if ('overBudget' in answer) throw new PageCountBudgetExceeded(answer.overBudget);
      if ('overReadLimit' in answer) throw new OverReadLimit(answer.overReadLimit);
      return answer.pages;
    },
    close: pool.close,
  };
}

function createPool(opts: ExtractorPoolOptions & { counter?: boolean }) {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  /** How many jobs wait for a worker, where the helpers see it (shared-pages.ts). */
  const queued = new Int32Array(new SharedArrayBuffer(4));
  let closed = false;
  let nextId = 1;

  /** `warmUp`: the pool's first workers, started before any job; one started for a waiting job goes straight to it. */
  function spawn(warmUp = false): void {
    const data: WorkerData = {
      docexExtractWorker: true,
      ownEntry: opts.workerModule !== undefined,
      prewarm: opts.prewarm === true,
      warmUp,
      counter: opts.counter === true,
      // Only a prewarmed pool (the local server's) compiles the engine up front; another's workers compile it on their first PDF, which a text-only caller never pays.
      ...(opts.prewarm && !opts.counter ? { pdfium: compiledPdfium() } : {}),
    };
    const self = opts.workerModule?.href ?? import.meta.url;
    const typescript = self.endsWith('.ts');
    const worker = new Worker(typescript ? tsxBootstrap(self) : new URL(self), {
      eval: typescript,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, ready: false, dead: false, job: null, timer: null, trim: null };
    slots.add(slot);
    worker.on('message', (msg: Reply) => onMessage(slot, msg));
    worker.on('error', (err) => onDeath(slot, err));
    worker.on('exit', (code) => onDeath(slot, null, code));
  }

  function onMessage(slot: Slot, msg: Reply): void {
    if (slot.dead) return;
    if (msg.type === 'ready') {
      slot.ready = true;
      pump();
      // Only a busy (or starting) worker keeps the process alive.
      if (!slot.job) slot.worker.unref();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    if (msg.type === 'help') {
      job.help = { call: msg.call, free: msg.call.ports.map((_, k) => k).reverse(), ended: false };
      pump();
      return;
    }
    if (msg.type === 'progress') return job.progress?.(msg.pagesDone, msg.pagesTotal);
    release(slot);
    if (msg.engineBytes > (opts.recycleEngineBytes ?? RECYCLE_ENGINE_BYTES) || job.size > (opts.recycleInputBytes ?? RECYCLE_INPUT_BYTES)) retire(slot);
    else idleTrimLater(slot);
    if (msg.type === 'done') job.resolve(msg.result);
    else job.reject(workerError(msg.code, msg.message));
    pump();
  }

  function onDeath(slot: Slot, err: Error | null, exitCode?: number): void {
    if (slot.dead) return;
    slot.dead = true;
    slots.delete(slot);
    const job = slot.job;
    release(slot);
    if (job) {
      job.reject(
        (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExtractionError('out_of_memory', `Extraction needed more than ${opts.maxMemoryMb} MB of memory; the document may be malformed or too complex.`)
          : workerError(null, err?.message ?? `the extraction worker stopped (exit code ${exitCode})`),
      );
    } else if (!slot.ready && !closed) {
      // A worker that cannot even start (a broken deployment) would fail the same way
      // again: fail what is waiting, as an infrastructure error, instead of respawning.
      const reason = new Error(`The extraction worker failed to start: ${err?.message ?? `exit code ${exitCode}`}`);
      for (const waiting of queue.splice(0)) waiting.reject(reason);
      return;
    }
    pump();
  }

  /** Out of the pool without failing anything; pump() starts a fresh worker when one is needed. */
  function retire(slot: Slot): void {
    slot.dead = true;
    slots.delete(slot);
    void slot.worker.terminate().catch(() => {});
  }

  function release(slot: Slot): void {
    if (slot.job?.help) endHelp(slot.job.help);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    if (!slot.dead) slot.worker.unref();
  }

  function idleTrimLater(slot: Slot): void {
    cancelIdleTrim(slot);
    slot.trim = setTimeout(() => {
      slot.trim = null;
      if (!slot.dead && !slot.job) slot.worker.postMessage({ op: 'trim' } satisfies Trim);
    }, IDLE_TRIM_MS);
    slot.trim.unref();
  }

  function cancelIdleTrim(slot: Slot): void {
    if (slot.trim) clearTimeout(slot.trim);
    slot.trim = null;
  }

  function assign(slot: Slot, job: Job): void {
    cancelIdleTrim(slot);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      retire(slot);
      release(slot);
      job.reject(
        new ExtractionError(
          'timeout',
          `Extraction took longer than ${(job.timeoutMs ?? opts.timeoutMs) / 1000} s; the document may be malformed or too complex.`,
        ),
      );
      pump();
    }, job.timeoutMs ?? opts.timeoutMs);
    post(slot.worker, job);
  }

  function pump(): void {
    try {
      while (!closed && queue.length > 0) {
        const idle = [...slots].find((s) => s.ready && !s.job);
        if (idle) {
          assign(idle, queue.shift()!);
          continue;
        }
        const starting = [...slots].filter((s) => !s.ready).length;
        if (slots.size >= Math.max(1, opts.size) || starting >= queue.length) return;
        spawn();
      }
      offerHelp();
    } finally {
      // Helpers read this between batches: a job waiting for a worker calls them back.
      Atomics.store(queued, 0, queue.length);
    }
  }

  /** Workers with nothing queued for them join a job whose reader called for help and still has pages to hand out. */
  function offerHelp(): void {
    for (const idle of [...slots].filter((s) => s.ready && !s.job)) {
      const lead = [...slots].find((s) => s.job?.help && s.job.help.free.length > 0 && !helpOver(s.job.help.call.claims));
      if (!lead) return;
      const help = lead.job!.help!;
      const helper = help.free.pop()!;
      const { bytes, ports, ...rest } = help.call;
      assign(idle, {
        id: nextId++,
        bytes,
        size: bytes.byteLength,
        task: { op: 'read-pages', help: { ...rest, port: ports[helper]!, helper, queued } },
        timeoutMs: lead.job!.timeoutMs,
        // A helper that leaves hands its port back for the next; the lead reads again what one that fails or dies did not deliver.
        resolve: (result) => {
          const { port } = result as { port: MessagePort };
          if (help.ended) return port.close();
          ports[helper] = port;
          help.free.push(helper);
        },
        reject: () => {},
      });
    }
  }

  function run<T>(bytes: Uint8Array, task: Task, timeoutMs?: number, progress?: Progress): Promise<T> {
    if (closed) return Promise.reject(new Error('The extractor pool is closed.'));
    if (isDetached(bytes)) return Promise.reject(detachedError());
    return new Promise<T>((resolve, reject) => {
      queue.push({ id: nextId++, bytes, size: bytes.byteLength, task, timeoutMs, resolve: resolve as (result: unknown) => void, reject, ...(progress ? { progress } : {}) });
      pump();
    });
  }

  if (opts.prewarm) for (let i = 0; i < opts.size; i++) spawn(true);

  const task = ({ filename, contentType, config, range, pagePart, onProgress }: ExtractInput) => ({
    op: 'extract' as const,
    filename,
    contentType: contentType ?? null,
    config: config ?? null,
    ...(range ? { range } : {}),
    ...(pagePart ? { pagePart } : {}),
    ...(opts.size > 1 ? { helpers: opts.size - 1 } : {}),
    ...(onProgress ? { progress: true as const } : {}),
  });
  // A document is read by one worker, however long: its structure (the body's style, running heads
  // and footers, heading ranks, paragraphs over page breaks) is read across all of its pages, which
  // runs of pages read apart would each get differently. Idle workers may read some of its pages
  // for it (shared-pages.ts), but the structure is still read by the one.
  const extract = (input: ExtractInput) => run<ExtractionResult>(input.bytes, task(input), undefined, input.onProgress);
  const extractStored = (input: ExtractInput) => run<StoredResult>(input.bytes, { ...task(input), stored: true }, undefined, input.onProgress);

  return {
    extract,
    extractStored,
    run,
    splitPdf: (bytes: Uint8Array, pageLists: number[][]) => run<Array<Uint8Array | null>>(bytes, { op: 'split', pageLists }),
    async close() {
      closed = true;
      const reason = new Error('The extractor pool was closed.');
      for (const job of queue.splice(0)) job.reject(reason);
      const live = [...slots];
      for (const slot of live) {
        slot.dead = true;
        slot.job?.reject(reason);
        release(slot);
      }
      slots.clear();
      await Promise.all(live.map((s) => s.worker.terminate().catch(() => {})));
    },
  };
}

/**
 * Bundled or compiled, a worker loads this very file. Unbundled TypeScript
 * (tsx, vitest) needs tsx's loader in the worker, and under Node 20 tsx
 * registers itself only on the main thread (`--import tsx` in execArgv does
 * not reach a worker), so this bootstrap registers it, then loads the file.
 */
function tsxBootstrap(self: string): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(self)}); });`;
}

/** Stops a job's helpers after their current batch, and closes the ports no helper holds. */
function endHelp(help: Help): void {
  Atomics.store(help.call.claims, 0, help.call.claims.length - 1);
  for (const k of help.free.splice(0)) help.call.ports[k]!.close();
  help.ended = true;
}

/** Sends the job, moving the bytes rather than copying them when the view owns its whole buffer. */
function post(worker: Worker, job: Job): void {
  const { bytes } = job;
  // A helper's document is shared with its lead and other helpers, never copied; its port goes with it.
  if (job.task.op === 'read-pages') {
    worker.postMessage({ ...job.task, id: job.id, bytes } satisfies Request, [job.task.help.port]);
    return;
  }
  // Never an empty buffer: a detached one (bytes already handed to the pool once) is empty too, and
  // Node drops, without an error, a message whose transfer list holds a detached buffer.
  const whole = bytes.byteLength > 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const request = (b: Uint8Array): Request => ({ ...job.task, id: job.id, bytes: b });
  if (whole) {
    try {
      worker.postMessage(request(bytes), [bytes.buffer as ArrayBuffer]);
      return;
    } catch {
      // Some buffers (Node's shared Buffer pool) refuse transfer: copy instead.
    }
  }
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  worker.postMessage(request(copy), [copy.buffer]);
}

/**
 * Bytes the pool already took over (transferred) once. Node 20 has no
 * ArrayBuffer.prototype.detached, but a view over a detached buffer cannot be made.
 */
function isDetached(bytes: Uint8Array): boolean {
  if (bytes.byteLength > 0) return false;
  try {
    new Uint8Array(bytes.buffer);
    return false;
  } catch {
    return true;
  }
}

const detachedError = () =>
  new Error('These bytes were handed to the extractor pool before, which took their buffer over; pass a copy (new Uint8Array(bytes)) for each call.');

function workerError(code: ExtractionErrorCode | null, message: string): ExtractionError {
  return code ? new ExtractionError(code, message) : new ExtractionError('corrupt_file', `Could not read the document: ${message}`);
}

// ---- Worker side ----------------------------------------------------------

async function runCounter(port: NonNullable<typeof parentPort>): Promise<void> {
  const { countPagesWithin, OverReadLimit, PageCountBudgetExceeded } = await import('./page-count.ts');
  port.on('message', (req: Request | Trim) => {
    if (req.op === 'trim') return trimHeap(IDLE_HEAP_BYTES);
    try {
      if (req.op !== 'count') throw new Error(`a page counter does not ${req.op}`);
      let result: CountAnswer;
      try {
        result = { pages: countPagesWithin({ bytes: req.bytes, filename: req.filename, contentType: req.contentType }) };
      } catch (err) {
        if (err instanceof PageCountBudgetExceeded) result = { overBudget: err.reason };
        else if (err instanceof OverReadLimit) result = { overReadLimit: err.message };
        else throw err;
      }
      port.postMessage({ type: 'done', id: req.id, result, engineBytes: 0 } satisfies Reply);
    } catch (err) {
      port.postMessage({ type: 'failed', id: req.id, code: null, message: err instanceof Error ? err.message : String(err), engineBytes: 0 } satisfies Reply);
    } finally {
      trimHeap();
    }
  });
  port.postMessage({ type: 'ready' } satisfies Reply);
}

/** A prewarmed pool's first workers' first read, of a small PDF of their own; a worker that cannot read it still starts, and its jobs say why. */
async function warmUp(extract: (input: ExtractInput) => Promise<ExtractionResult>): Promise<void> {
  try {
    const { warmUpPdf } = await import('../formats/pdf/warm-up.ts');
    await extract({ bytes: warmUpPdf(), filename: 'warm-up.pdf', contentType: 'application/pdf', config: { ...DEFAULT_CONFIG, ocr: 'never' } });
  } catch {
    /* the same failure meets the first PDF job, which reports it */
  }
  trimHeap(IDLE_HEAP_BYTES);
}

/**
 * A worker's side of the pool: answers each request. `beforeExtract` runs
 * before each extraction (with its filename) and each helper's read (with
 * 'docex-help'), inside its error handling; only the tests' worker module
 * passes one.
 */
export async function runWorker(port: NonNullable<typeof parentPort>, data: WorkerData, beforeExtract?: (filename: string) => void): Promise<void> {
  if (data.counter) return runCounter(port);
  const { extract } = await import('./extract.ts');
  if (data.pdfium) usePdfiumModule(data.pdfium);
  // Loaded once and shared by every PDF this worker reads; a job that comes first waits for the same load.
  if (data.warmUp) await warmUp(extract);
  else if (data.prewarm) void import('../formats/pdf/pdfium.ts').then(({ loadPdfium }) => loadPdfium()).catch(() => undefined);
  port.on('message', async (req: Request | Trim) => {
    if (req.op === 'trim') return trimHeap(IDLE_HEAP_BYTES);
    try {
      if (req.op === 'split') {
        const { splitPdf } = await import('../formats/pdf/split.ts');
        const parts = await splitPdf(req.bytes, req.pageLists);
        port.postMessage({ type: 'done', id: req.id, result: parts, engineBytes: engineMemoryBytes() } satisfies Reply, parts.flatMap((p) => (p ? [p.buffer as ArrayBuffer] : [])));
        return;
      }
      if (req.op === 'plan-ranges') {
        const { planRanges } = await import('./range-planners.ts');
        port.postMessage({ type: 'done', id: req.id, result: await planRanges(req.bytes, req.format, req.runs), engineBytes: engineMemoryBytes() } satisfies Reply);
        return;
      }
      if (req.op === 'plan-pages') {
        const { planPages } = await import('./page-planners.ts');
        port.postMessage({ type: 'done', id: req.id, result: await planPages(req.bytes, req.format, req.pages), engineBytes: engineMemoryBytes() } satisfies Reply);
        return;
      }
      if (req.op === 'count') throw new Error('page counts run in a page counter (createPageCounter)');
      if (req.op === 'read-pages') {
        beforeExtract?.('docex-help');
        const { helpReadPdf } = await import('../formats/pdf/extract.ts');
        try {
          await helpReadPdf({ ...req.help, bytes: req.bytes });
        } catch (err) {
          // The lead hears this helper is gone, and reads again what it took.
          req.help.port.close();
          throw err;
        }
        // The port goes back to the pool, for the next helper of the same document.
        port.postMessage({ type: 'done', id: req.id, result: { port: req.help.port }, engineBytes: engineMemoryBytes() } satisfies Reply, [req.help.port]);
        return;
      }
      if (req.op === 'render') {
        const { renderShownPage } = await import('./page-view.ts');
        const image = await renderShownPage(req.bytes, req.page, req.width);
        port.postMessage({ type: 'done', id: req.id, result: image, engineBytes: engineMemoryBytes() } satisfies Reply, image.png ? [image.png.buffer as ArrayBuffer] : []);
        return;
      }
      if (req.op === 'metadata') {
        // The first page only, without OCR: what is wanted is the document's own metadata, which PDFium reads from the file.
        const first = await extract({ bytes: req.bytes, filename: 'document.pdf', contentType: 'application/pdf', config: { ...DEFAULT_CONFIG, pages: [1], ocr: 'never' } });
        const metadata = Object.fromEntries(PDF_METADATA_FIELDS.map((f) => [f, first.metadata[f] ?? null])) as PdfDocumentMetadata;
        // The document goes back as it came (moved, not copied): the caller cuts it next.
        const result = { metadata, pages: first.metadata.pages_total ?? 0, bytes: req.bytes };
        port.postMessage({ type: 'done', id: req.id, result, engineBytes: engineMemoryBytes() } satisfies Reply, [req.bytes.buffer as ArrayBuffer]);
        return;
      }
      beforeExtract?.(req.filename);
      const helpers: PageHelpers | undefined = req.helpers
        ? { count: req.helpers, call: (call) => port.postMessage({ type: 'help', id: req.id, call } satisfies Reply, call.ports) }
        : undefined;
      const result = await extract({
        bytes: req.bytes,
        filename: req.filename,
        contentType: req.contentType,
        config: req.config,
        ...(req.range ? { range: req.range } : {}),
        ...(req.pagePart ? { pagePart: req.pagePart } : {}),
        ...(helpers ? { helpers } : {}),
        ...(req.progress ? { onProgress: (pagesDone: number, pagesTotal: number) => port.postMessage({ type: 'progress', id: req.id, pagesDone, pagesTotal } satisfies Reply) } : {}),
      });
      if (req.stored) {
        const { storedResult } = await import('../../core/job-result.ts');
        const stored = storedResult(result);
        port.postMessage({ type: 'done', id: req.id, result: stored, engineBytes: engineMemoryBytes() } satisfies Reply, [stored.json.buffer as ArrayBuffer]);
        return;
      }
      port.postMessage({ type: 'done', id: req.id, result, engineBytes: engineMemoryBytes() } satisfies Reply);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const code = err instanceof ExtractionError ? err.code : null;
      port.postMessage({ type: 'failed', id: req.id, code, message, engineBytes: engineMemoryBytes() } satisfies Reply);
    } finally {
      trimHeap();
    }
  });
  port.postMessage({ type: 'ready' } satisfies Reply);
}

if (!isMainThread && parentPort && (workerData as Partial<WorkerData> | null)?.docexExtractWorker && !(workerData as WorkerData).ownEntry) {
  void runWorker(parentPort, workerData as WorkerData);
}
