// A PDF's page count for the quota, read from the file's structure without
// PDFium: the /Count of the root page tree if it can be found, else the
// number of page objects; object streams are inflated to look inside. All of
// it within the count's budget (engine/page-count.ts).

import { constants, inflateSync } from 'node:zlib';
import type { CountMeter } from '../../engine/format.ts';

export function countPdfPages(bytes: Uint8Array, meter: CountMeter): number {
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
function collectObjects(src: string, meter: CountMeter): { objects: ObjectMap; objectStreams: ObjectStreamRef[] } {
  const objects: ObjectMap = new Map();
  const objectStreams: ObjectStreamRef[] = [];
  const lengths = new IntegerObjects(src);
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
      // Skip the stream data so nothing inside it is taken for an object.
      header.lastIndex = streamEnd(src, dict, end.index + end[0].length, lengths);
    } else if (end) {
      header.lastIndex = end.index;
    }
  }
  return { objects, objectStreams };
}

/**
 * Where a stream's data ends. Its /Length says so, but only where
 * `endstream` follows that many bytes: a wrong /Length must not hide the rest
 * of the file from the count. Without a usable one, the first `endstream`
 * after the data, which is wrong only when the data holds that word, as an
 * uncompressed PDF attached to the PDF does (the attachment's page tree was
 * then read as the document's: half the pages of a 2,038-page file).
 */
function streamEnd(src: string, dict: string, dataStart: number, lengths: IntegerObjects): number {
  const length = /\/Length\s+(\d+)(?:\s+(\d+)\s+R)?/.exec(dict);
  const bytes = length ? (length[2] === undefined ? Number(length[1]) : lengths.get(Number(length[1]))) : undefined;
  if (bytes !== undefined && dataStart + bytes <= src.length) {
    const after = /\s*endstream/y;
    after.lastIndex = dataStart + bytes;
    if (after.test(src)) return dataStart + bytes;
  }
  const endstream = src.indexOf('endstream', dataStart);
  return endstream < 0 ? src.length : endstream;
}

/**
 * The values of objects that are a bare integer (`12 0 obj 3456 endobj`),
 * as indirect stream lengths are written; read on first use, in one pass.
 * One found inside stream data is a guess that streamEnd checks.
 */
class IntegerObjects {
  private values: Map<number, number> | null = null;
  constructor(private readonly src: string) {}

  get(object: number): number | undefined {
    if (!this.values) {
      this.values = new Map();
      for (const m of this.src.matchAll(/(\d+)\s+\d+\s+obj\s*(\d+)\s*endobj/g)) this.values.set(Number(m[1]), Number(m[2]));
    }
    return this.values.get(object);
  }
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

function countPageObjects(objects: ObjectMap, meter: CountMeter): number {
  let n = 0;
  for (const dict of objects.values()) {
    meter.tick();
    if (/\/Type\s*\/Page(?![A-Za-z])/.test(dict)) n++;
  }
  return n;
}

/** Adds the objects held in object streams to the map, within the inflation budget. */
function addObjectStreamContents(bytes: Uint8Array, src: string, streams: ObjectStreamRef[], objects: ObjectMap, meter: CountMeter): void {
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

function parseObjectStream(text: string, first: number, count: number, objects: ObjectMap, meter: CountMeter): void {
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
