// Page counting for the quota. Runs at submission, on untrusted bytes: it
// must be cheap, never load a parser, and stay within a budget (bytes
// inflated, objects collected, time spent). countPagesWithin says when a
// document is over that budget; countPages never throws.

import { constants, inflateSync } from 'node:zlib';
import { CompoundFile, countWorkbookSheets, pptDocument, pptSlideList } from '../containers/compound-file.ts';
import { detect } from './detect.ts';
import { odsSheetSpans } from '../formats/odf/ods-sheets.ts';
import { countDecodedCodePoints, decodeText } from '../containers/text-decoding.ts';
import { SafeZip } from '../containers/zip.ts';
import type { ExtractInput } from './types.ts';

/** Text formats count one page per this many decoded characters (code points). */
export const TEXT_PAGE_CHARS = 3000;

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

/** The budget as it is spent. */
class Meter {
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
    switch (format) {
      case 'pdf':
        return countPdfPagesMetered(input.bytes, meter);
      case 'text':
      case 'markdown':
      case 'csv':
      case 'tsv':
      case 'eml':
      case 'rtf':
        return textPages(countDecodedCodePoints(input.bytes));
      // Counting these needs their parser: one page is reserved, the rest settled when the job finishes.
      case 'msg':
      case 'doc':
      case 'png':
      case 'jpeg':
      case 'tiff':
        return 1;
      case 'html':
        return textPages(markupTextLength(decodeText(input.bytes).text));
      case 'xls':
        return countWorkbookSheets(new CompoundFile(input.bytes, 'The workbook'));
      case 'ppt': {
        const doc = pptDocument(new CompoundFile(input.bytes, 'The presentation'));
        return Math.max(1, doc ? pptSlideList(doc, 0).length : 1);
      }
      default:
        return countZipPages(input.bytes, format, meter);
    }
  } catch (error) {
    if (error instanceof PageCountBudgetExceeded) throw error;
    return 1;
  }
}

function countZipPages(bytes: Uint8Array, format: string, meter: Meter): number {
  const zip = new SafeZip(bytes, { remaining: ZIP_INFLATE_BUDGET });
  if (zip.entries.length > meter.budget.objects) throw new PageCountBudgetExceeded(`it holds more than ${meter.budget.objects.toLocaleString('en-US')} entries`);
  meter.checkTime();
  const names = zip.names();
  const count = (re: RegExp) => Math.max(1, names.filter((n) => re.test(n)).length);
  const textOf = (parts: string[]) =>
    textPages(
      parts.reduce((sum, part) => {
        meter.checkTime();
        return sum + markupTextLength(zip.readText(part) ?? '');
      }, 0),
    );
  switch (format) {
    // Slides and sheets as the extractor lists them (the presentation's slide list, the workbook's
    // sheets, chartsheets included), so a large document's chunk plan covers exactly what it reads.
    case 'pptx':
      return listed(zip.readText('ppt/presentation.xml'), /<(?:[\w.-]+:)?sldId[\s/>]/g) ?? count(/^ppt\/slides\/slide\d+\.xml$/);
    case 'xlsx':
      return listed(zip.readText('xl/workbook.xml'), /<(?:[\w.-]+:)?sheet[\s/>]/g) ?? count(/^xl\/worksheets\/[^/]+\.xml$/);
    case 'ods':
      return Math.max(1, odsSheetSpans(zip.readText('content.xml') ?? '').length);
    case 'docx':
      return textOf(['word/document.xml']);
    case 'odt':
      return textOf(['content.xml']);
    case 'epub':
      return textOf(names.filter((n) => /\.x?html?$/i.test(n)));
    default:
      // An archive: at least a page per member; the members' own pages are counted when extracted.
      return Math.max(1, zip.entries.filter((e) => !e.isDirectory).length);
  }
}

/** Elements matching `tag` in a main part, at least one; null without the part. */
function listed(part: string | null, tag: RegExp): number | null {
  return part === null ? null : Math.max(1, part.match(tag)?.length ?? 0);
}

/** Characters of text in markup, roughly: tags, scripts and styles left out. */
function markupTextLength(markup: string): number {
  const text = markup.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
  return text.length;
}

export function textPages(codePoints: number): number {
  return Math.max(1, Math.ceil(codePoints / TEXT_PAGE_CHARS));
}

/**
 * A structural count: the /Count of the root page tree if it can be found,
 * else the number of page objects; object streams are inflated to look inside.
 */
export function countPdfPages(bytes: Uint8Array, budget: CountBudget = WORKER_BUDGET): number {
  return countPdfPagesMetered(bytes, new Meter(budget));
}

function countPdfPagesMetered(bytes: Uint8Array, meter: Meter): number {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const { objects, objectStreams } = collectObjects(src, meter);
  let count = findCount(src, objects);
  if (count === null && objectStreams.length > 0) {
    addObjectStreamContents(bytes, src, objectStreams, objects, meter);
    meter.checkTime();
    count = findCount(src, objects);
  }
  meter.checkTime();
  return count ?? Math.max(1, countPageObjects(objects, meter));
}

/** Object number to its dictionary text (stream data left out). */
type ObjectMap = Map<number, string>;

interface ObjectStreamRef {
  dict: string;
  /** Offset of the stream data in the file. */
  dataStart: number;
}

/** Top-level objects; a later definition (incremental update) replaces an earlier one. */
function collectObjects(src: string, meter: Meter): { objects: ObjectMap; objectStreams: ObjectStreamRef[] } {
  const objects: ObjectMap = new Map();
  const objectStreams: ObjectStreamRef[] = [];
  const header = /(\d+)\s+\d+\s+obj\b/g;
  let m: RegExpExecArray | null;
  while ((m = header.exec(src))) {
    meter.addObject();
    const start = m.index + m[0].length;
    // The dictionary ends where stream data or the object ends; binary data is never scanned.
    const stop = /\bstream(\r\n|\n|\r)|\bendobj\b|\d+\s+\d+\s+obj\b/g;
    stop.lastIndex = start;
    const end = stop.exec(src);
    const dict = src.slice(start, end ? end.index : src.length);
    objects.set(Number(m[1]), dict);
    if (end?.[1] !== undefined) {
      if (/\/Type\s*\/ObjStm\b/.test(dict)) objectStreams.push({ dict, dataStart: end.index + end[0].length });
      // Skip the stream data so nothing inside it is taken for an object. /Length is not
      // trusted: a wrong one would hide the rest of the file from the count.
      const endstream = src.indexOf('endstream', end.index + end[0].length);
      header.lastIndex = endstream < 0 ? src.length : endstream;
    } else if (end) {
      header.lastIndex = end.index;
    }
  }
  return { objects, objectStreams };
}

function findCount(src: string, objects: ObjectMap): number | null {
  // The last /Root wins: incremental updates append newer trailers. Searched
  // backwards from the end, so a well-formed file's trailer is found at once.
  const rootRef = /\/Root\s+(\d+)\s+\d+\s+R/y;
  for (let at = src.lastIndexOf('/Root'); at >= 0; at = at === 0 ? -1 : src.lastIndexOf('/Root', at - 1)) {
    rootRef.lastIndex = at;
    const root = rootRef.exec(src);
    if (!root) continue;
    const pagesRef = /\/Pages\s+(\d+)\s+\d+\s+R/.exec(objects.get(Number(root[1])) ?? '');
    const pages = pagesRef && objects.get(Number(pagesRef[1]));
    if (!pages) continue;
    const count = /\/Count\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(pages);
    if (!count) continue;
    const n = count[2] === undefined ? Number(count[1]) : Number(/^\s*(\d+)/.exec(objects.get(Number(count[1])) ?? '')?.[1]);
    if (Number.isSafeInteger(n) && n > 0) return n;
  }
  return null;
}

function countPageObjects(objects: ObjectMap, meter: Meter): number {
  let n = 0;
  for (const dict of objects.values()) {
    meter.tick();
    if (/\/Type\s*\/Page(?![A-Za-z])/.test(dict)) n++;
  }
  return n;
}

/** Adds the objects held in object streams to the map, within the inflation budget. */
function addObjectStreamContents(bytes: Uint8Array, src: string, streams: ObjectStreamRef[], objects: ObjectMap, meter: Meter): void {
  for (const { dict, dataStart } of streams) {
    meter.checkTime();
    const filters = [...dict.matchAll(/\/(\w+Decode)\b/g)].map((f) => f[1]);
    if (filters.some((f) => f !== 'FlateDecode')) continue;
    const end = src.indexOf('endstream', dataStart);
    const raw = Buffer.from(bytes.buffer, bytes.byteOffset + dataStart, (end < 0 ? src.length : end) - dataStart);
    let data: Buffer;
    if (filters.length === 0) data = raw;
    else {
      const inflated = inflateBounded(raw, Math.max(1, meter.inflatedLeft() + 1));
      if (inflated === 'over_budget') meter.addInflated(meter.inflatedLeft() + 1);
      if (!inflated || inflated === 'over_budget') continue;
      data = inflated;
    }
    meter.addInflated(data.length);
    const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1]);
    const count = Number(/\/N\s+(\d+)/.exec(dict)?.[1]);
    if (Number.isSafeInteger(first) && Number.isSafeInteger(count)) parseObjectStream(data.toString('latin1'), first, count, objects, meter);
  }
}

/** A truncated stream yields what inflates cleanly; a corrupt one yields null. */
function inflateBounded(data: Buffer, maxOutputLength: number): Buffer | null | 'over_budget' {
  try {
    return inflateSync(data, { maxOutputLength, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'over_budget' : null;
  }
}

function parseObjectStream(text: string, first: number, count: number, objects: ObjectMap, meter: Meter): void {
  const nums = text.slice(0, first).trim().split(/\s+/).map(Number);
  const n = Math.min(count, Math.floor(nums.length / 2));
  for (let i = 0; i < n; i++) {
    meter.addObject();
    const num = nums[2 * i]!;
    const start = first + nums[2 * i + 1]!;
    const end = i + 1 < n ? first + nums[2 * i + 3]! : text.length;
    // Objects written directly in the file take precedence over compressed copies.
    if (Number.isSafeInteger(num) && !objects.has(num)) objects.set(num, text.slice(start, end));
  }
}
