// Page counting for the quota. Runs at submission, on untrusted bytes: it
// must be cheap, never load a parser, and stay within a budget (bytes
// inflated, objects collected, time spent). countPagesWithin says when a
// document is over that budget; countPages never throws. How a format's
// pages are counted is its descriptor's (format.ts); this opens the document
// for it, lazily, within the budget.

import { CompoundFile } from '../containers/compound-file.ts';
import { countDecodedCodePoints, decodeText } from '../containers/text-decoding.ts';
import { SafeZip } from '../containers/zip.ts';
import { detect } from './detect.ts';
import type { CountMeter, CountSource } from './format.ts';
import { flatReadRefusal } from './limits.ts';
import { descriptorOf } from './registry.ts';
import type { ExtractInput } from './types.ts';


/** What one count may spend. */
export interface CountBudget {
  /** Bytes inflated in total: PDF object streams, or the parts of a ZIP-based document. */
  inflatedBytes: number;
  /** Objects (PDF objects, ZIP entries) collected. */
  objects: number;
  /** Wall-clock milliseconds. */
  timeMs: number;
}

/**
 * The budget at submission. A real PDF's object streams hold a few kilobytes
 * per page (a 2,000-page document inflates to a few MB); 16 MB or 500,000
 * objects is far past any real document and far below what stalls a server.
 */
export const COUNT_BUDGET: CountBudget = { inflatedBytes: 16 * 1024 * 1024, objects: 500_000, timeMs: 5000 };

/** The submission budget for a document of `size` bytes: the time grows by 200 ms per MB (reading a large upload is slow, not hostile). */
export const countBudgetFor = (size: number): CountBudget => ({ ...COUNT_BUDGET, timeMs: COUNT_BUDGET.timeMs + Math.ceil(size / (1024 * 1024)) * 200 });

/** countPages in the extraction workers (chunk plans), which read a document already accepted: bounded in bytes only, as before. */
const WORKER_BUDGET: CountBudget = { inflatedBytes: 50 * 1024 * 1024, objects: Number.POSITIVE_INFINITY, timeMs: Number.POSITIVE_INFINITY };

/** Inflated bytes a count may read from a ZIP-based document (its XML parts are large and legitimate). */
const ZIP_INFLATE_BUDGET = 64 * 1024 * 1024;

/** A document that page counting cannot measure within its budget; `message` says why and what to do. */
export class PageCountBudgetExceeded extends Error {
  constructor(readonly reason: string) {
    super(
      `The document could not be page-counted within the submission budget: ${reason}. ` +
        'A well-formed document never needs this much; repair or re-save the file (for a PDF, print it to a new PDF) and submit it again.',
    );
    this.name = 'PageCountBudgetExceeded';
  }
}

/**
 * A document its format reads whole, larger than an extraction worker's
 * memory holds (limits.ts flatReadRefusal): refused when it is counted, at
 * submission or on an upload's arrival, rather than after it waited its turn
 * to be extracted.
 */
export class OverReadLimit extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverReadLimit';
  }
}

/** The budget as it is spent. */
class Meter implements CountMeter {
  private readonly deadline: number;
  inflated = 0;
  objects = 0;
  private ticks = 0;
  constructor(readonly budget: CountBudget) {
    this.deadline = Date.now() + budget.timeMs;
  }
  inflatedLeft(): number {
    return this.budget.inflatedBytes - this.inflated;
  }
  addInflated(n: number): void {
    this.inflated += n;
    if (this.inflated > this.budget.inflatedBytes) throw new PageCountBudgetExceeded(`its compressed objects inflate past ${mb(this.budget.inflatedBytes)}`);
  }
  addObject(): void {
    if (++this.objects > this.budget.objects) throw new PageCountBudgetExceeded(`it holds more than ${this.budget.objects.toLocaleString('en-US')} objects`);
    this.tick();
  }
  /** Checks the clock every 256 calls. */
  tick(): void {
    if ((++this.ticks & 255) === 0) this.checkTime();
  }
  checkTime(): void {
    if (Date.now() > this.deadline) throw new PageCountBudgetExceeded(`counting took longer than ${this.budget.timeMs / 1000} s`);
  }
}

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/**
 * The pages to reserve at submission. Exact where the unit is structural
 * (PDF pages, slides, sheets, text); an estimate from the text parts for
 * documents that flow (DOCX, ODT, EPUB, HTML), settled to metadata.pages when
 * the job finishes.
 */
export function countPages(input: ExtractInput, budget: CountBudget = WORKER_BUDGET): number {
  try {
    return countPagesWithin(input, budget);
  } catch {
    return 1;
  }
}

/**
 * countPages, but a document over the budget throws PageCountBudgetExceeded
 * (any other failure to count still counts one page).
 */
export function countPagesWithin(input: ExtractInput, budget: CountBudget = countBudgetFor(input.bytes.byteLength)): number {
  const meter = new Meter(budget);
  try {
    const { format } = detect(input);
    const descriptor = descriptorOf(format);
    const refusal = flatReadRefusal(format, descriptor.readLimit, input.bytes);
    if (refusal) throw new OverReadLimit(refusal);
    return descriptor.countPages(countSource(input.bytes, meter));
  } catch (error) {
    if (error instanceof PageCountBudgetExceeded || error instanceof OverReadLimit) throw error;
    return 1;
  }
}

function countSource(bytes: Uint8Array, meter: Meter): CountSource {
  let zip: SafeZip | null = null;
  return {
    bytes,
    meter,
    zip: () => {
      if (zip) return zip;
      zip = new SafeZip(bytes, { remaining: ZIP_INFLATE_BUDGET });
      if (zip.entries.length > meter.budget.objects) throw new PageCountBudgetExceeded(`it holds more than ${meter.budget.objects.toLocaleString('en-US')} entries`);
      meter.checkTime();
      return zip;
    },
    compound: (what) => new CompoundFile(bytes, what),
    codePoints: () => countDecodedCodePoints(bytes),
    text: () => decodeText(bytes).text,
  };
}
