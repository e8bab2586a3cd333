// The pages of one long document read by several workers at once. The worker
// the job went to (the lead) calls in the pool's idle workers; every reader,
// lead or helper, takes the next batch of pages from a counter in shared
// memory, and each helper sends the pages it read back to the lead over a
// MessagePort of its own. Only the pages are shared: the lead reads the
// document's structure (its body style, running heads, heading ranks,
// paragraphs over page breaks) across all of them, exactly as it would alone.
// A helper that fails or dies costs time only: the lead reads its pages again.
// Queued jobs come first: a helper goes back to the pool between batches as
// soon as a job waits for a worker, and may join again once idle.

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { ExtractionConfig, Progress } from './types.ts';

/** Pages a batch: few, so that the last batch keeps nobody waiting long (an OCR'd page takes seconds). */
export const BATCH_PAGES = 2;

/** Documents with this many pages call helpers in from the start: fewer cost more to share than to read alone. */
export const MIN_SHARED_PAGES = 16;

/** A page that took this long (a scan read by OCR) calls helpers in for the pages left, however few. */
export const SLOW_PAGE_MS = 250;

/** Other workers of the pool that can read some of a document's pages (given to the reader by the pool). */
export interface PageHelpers {
  /** How many may join. */
  count: number;
  /** Calls them in; the pool gives each helper that is or becomes idle one of `call.ports`. */
  call(call: HelpCall): void;
}

/** What the helpers are called in to. */
export interface HelpCall {
  /** The document, over a SharedArrayBuffer: one copy for every helper. */
  bytes: Uint8Array;
  /**
   * Over a SharedArrayBuffer: [0] the next batch to take; [1 + b] who took
   * batch b (FREE, LEAD, or HELPER + the helper's number). The lead sets [0]
   * past the last batch when it is done, which stops every helper.
   */
  claims: Int32Array;
  /** 1-based page numbers, in reading order; batch b is pages[b * BATCH_PAGES ...]. */
  pages: number[];
  ocr: ExtractionConfig['ocr'];
  /** One per helper, its number its index here. */
  ports: MessagePort[];
}

/**
 * A helper's share of a call: its own port and number, and the pool's count
 * of queued jobs (over a SharedArrayBuffer), which it leaves the lead's pages
 * for.
 */
export type HelpTask = Omit<HelpCall, 'ports'> & { port: MessagePort; helper: number; queued: Int32Array };

type Delivery<T> = { batch: number; pages: T[] } | { batch: number; failed: string };

const FREE = 0;
const LEAD = 1;
const HELPER = 2;

/**
 * The document's pages, in order, each read once by `read`, here or by
 * helpers: called in from the start for a long document, or once a page
 * has taken long to read. `progress` hears of each page or batch read.
 */
export async function readPagesShared<T>(
  pages: number[],
  read: (page: number) => Promise<T>,
  share?: { helpers: PageHelpers; bytes: Uint8Array; ocr: ExtractionConfig['ocr'] },
  progress?: Progress,
): Promise<T[]> {
  const batches = Math.ceil(pages.length / BATCH_PAGES);
  if (!share || share.helpers.count < 1 || batches < 2) {
    const out: T[] = [];
    for (const page of pages) {
      out.push(await read(page));
      progress?.(out.length, pages.length);
    }
    return out;
  }
  const claims = new Int32Array(new SharedArrayBuffer(4 * (1 + batches)));
  const done = new Map<number, T[]>();
  const failed = new Set<number>();
  const gone = new Set<number>();
  let pagesDone = 0;
  const record = (b: number, read: T[]) => {
    if (done.has(b)) return;
    done.set(b, read);
    pagesDone += read.length;
    progress?.(pagesDone, pages.length);
  };
  const channels: MessageChannel[] = [];
  // Counts what the helpers said, so the lead sleeps only when nothing came while it was reading.
  let events = 0;
  let wake = () => {};
  const callHelpers = () => {
    for (let helper = 0; helper < share.helpers.count; helper++) {
      const { port1 } = channels[channels.push(new MessageChannel()) - 1]!;
      port1.on('message', (m: Delivery<T>) => {
        if ('pages' in m) record(m.batch, m.pages);
        else failed.add(m.batch);
        events++;
        wake();
      });
      port1.on('close', () => {
        gone.add(helper);
        events++;
        wake();
      });
    }
    const bytes = new Uint8Array(new SharedArrayBuffer(share.bytes.byteLength));
    bytes.set(share.bytes);
    share.helpers.call({ bytes, claims, pages, ocr: share.ocr, ports: channels.map((c) => c.port2) });
  };
  let slowest = 0;
  const readBatch = async (b: number) => {
    const out: T[] = [];
    for (const page of batchOf(pages, b)) {
      const started = performance.now();
      out.push(await read(page));
      slowest = Math.max(slowest, performance.now() - started);
    }
    record(b, out);
  };
  try {
    if (pages.length >= MIN_SHARED_PAGES) callHelpers();
    for (let b = claim(claims, batches, LEAD); b >= 0; b = claim(claims, batches, LEAD)) {
      await readBatch(b);
      if (channels.length === 0 && slowest >= SLOW_PAGE_MS) callHelpers();
    }
    // A batch counted out but never marked was taken by a helper that stopped in between: it is the lead's.
    for (let b = 0; b < batches; b++) if (Atomics.compareExchange(claims, 1 + b, FREE, LEAD) === FREE) await readBatch(b);
    for (;;) {
      const seen = events;
      let waiting = false;
      for (let b = 0; b < batches; b++) {
        if (done.has(b)) continue;
        const owner = Atomics.load(claims, 1 + b);
        if (owner === LEAD || failed.has(b) || gone.has(owner - HELPER)) await readBatch(b);
        else waiting = true;
      }
      if (!waiting) break;
      if (events === seen) await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    Atomics.store(claims, 0, batches);
    for (const { port1 } of channels) port1.close();
  }
  return Array.from({ length: batches }, (_, b) => done.get(b)!).flat();
}

/**
 * A helper's side: takes batches until none are left, the lead stops it or a
 * job is queued for the pool, reads them and sends each to the lead. A page
 * it cannot read is the lead's to read again, and to fail on, as it would
 * alone. The port stays open: the pool hands it to the next helper.
 */
export async function helpReadPages<T>(task: HelpTask, read: (page: number) => Promise<T>): Promise<void> {
  const batches = task.claims.length - 1;
  while (Atomics.load(task.queued, 0) === 0) {
    const b = claim(task.claims, batches, HELPER + task.helper);
    if (b < 0) return;
    let delivery: Delivery<T>;
    try {
      const out: T[] = [];
      for (const page of batchOf(task.pages, b)) out.push(await read(page));
      delivery = { batch: b, pages: out };
    } catch (err) {
      task.port.postMessage({ batch: b, failed: err instanceof Error ? err.message : String(err) } satisfies Delivery<T>);
      return;
    }
    task.port.postMessage(delivery);
  }
}

/** The next free batch, marked as `owner`'s, or -1 when none is left. */
function claim(claims: Int32Array, batches: number, owner: number): number {
  for (;;) {
    const b = Atomics.add(claims, 0, 1);
    if (b >= batches) return -1;
    if (Atomics.compareExchange(claims, 1 + b, FREE, owner) === FREE) return b;
  }
}

const batchOf = (pages: number[], b: number) => pages.slice(b * BATCH_PAGES, (b + 1) * BATCH_PAGES);

/** True when the lead is done (or gone): a helper not yet started has nothing to do. */
export const helpOver = (claims: Int32Array) => Atomics.load(claims, 0) >= claims.length - 1;
