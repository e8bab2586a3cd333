// Where a job's result goes: the JSON in the bucket, and the pointer the
// completing write puts on the job record (job.ts, ResultRef).

import type { ExtractionResult } from '../extract/engine/types.ts';
import { RESULT_RETENTION_MS, type Job, type JobStatus, type ResultRef } from './job.ts';
import type { Blobs, JobFinish } from './ports.ts';
import { usagePeriods } from './usage.ts';

export const resultKey = (projectId: string, jobId: string) => `results/${projectId}/${jobId}.json`;

/** A result as the worker that finishes its job needs it: the JSON to store, and the few facts the completing write and the metrics read. */
export interface StoredResult {
  json: Uint8Array;
  /** Byte ranges in `json` of the result's members (content, tables, ...): a part of a split document is read a member at a time. */
  members: MemberRanges;
  /** What the aggregation measures of a part, measured where the result's objects are. */
  measure: ResultMeasure;
  pages: number;
  /** The document's pages as the reader found them (a selection's pages are fewer). */
  pages_total: number;
  format: string;
  /** Members or attachments could not be read: the job is a partial success. */
  partial: boolean;
}

/** Byte ranges of a JSON object's members, by name. */
export type MemberRanges = Record<string, [start: number, end: number]>;

/** A result's size as the aggregation checks it: its pages, characters, tables, chunks and, for sheets, cells with text. */
export interface ResultMeasure {
  pages: number;
  chars: number;
  tables: number;
  chunks: number;
  cells: number;
}

export function measureResult(result: Pick<ExtractionResult, 'metadata' | 'tables' | 'chunks'>): ResultMeasure {
  const cells = result.tables.reduce((n, t) => (t.sheet === undefined ? n : n + t.rows.reduce((m, row) => m + row.filter((cell) => cell !== '').length, 0)), 0);
  return { pages: result.metadata.pages, chars: result.metadata.char_count, tables: result.tables.length, chunks: result.chunks.length, cells };
}

export function storedResult(result: ExtractionResult): StoredResult {
  return { ...resultJsonWithMembers(result), measure: measureResult(result), pages: result.metadata.pages, pages_total: result.metadata.pages_total ?? 0, format: result.metadata.format, partial: (result.metadata.failed_sections?.length ?? 0) > 0 };
}

/**
 * JSON.stringify(result) as UTF-8 bytes, written a member and an array
 * element at a time: a large file's result (a 100 MB CSV's is about 575 MB
 * of JSON) is longer than the longest string V8 can make (2^29 characters),
 * so it is never one string. Values deeper than the rows of a table are
 * written whole, and so is anything below the result's members that holds
 * no long array (an element, a chunk), in batches: a key at a time, they
 * cost a 600-page PDF's result 3 times the time of JSON.stringify.
 */
export function resultJson(result: ExtractionResult): Uint8Array {
  return resultJsonWithMembers(result).json;
}

/** resultJson, and where each of the result's members lies in it. */
export function resultJsonWithMembers(result: ExtractionResult): { json: Uint8Array; members: MemberRanges } {
  const pieces: Buffer[] = [];
  let pending = '';
  let flushed = 0;
  const members: MemberRanges = {};
  const at = () => flushed + Buffer.byteLength(pending);
  const text = (s: string) => {
    pending += s;
    if (pending.length >= 1 << 20) {
      const piece = Buffer.from(pending);
      pieces.push(piece);
      flushed += piece.length;
      pending = '';
    }
  };
  const write = (value: unknown, depth: number): void => {
    if (Array.isArray(value) && opens(value, depth)) {
      text('[');
      // Elements written whole go a batch at a time: one JSON.stringify call per element was most of the time.
      for (let i = 0; i < value.length; ) {
        if (i > 0) text(',');
        if (opens(value[i], depth + 1)) {
          write(value[i], depth + 1);
          i++;
          continue;
        }
        let end = i + 1;
        while (end < value.length && end - i < BATCH && !opens(value[end], depth + 1)) end++;
        text(JSON.stringify(value.slice(i, end)).slice(1, -1));
        i = end;
      }
      text(']');
    } else if (value !== null && typeof value === 'object' && opens(value, depth)) {
      text('{');
      let first = true;
      for (const [key, v] of Object.entries(value)) {
        // As JSON.stringify: a member whose value has no JSON form is left out.
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        text(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        const start = depth === 0 ? at() : 0;
        write(v, depth + 1);
        if (depth === 0) members[key] = [start, at()];
      }
      text('}');
    } else {
      // As JSON.stringify: an array element with no JSON form is null.
      text(JSON.stringify(value) ?? 'null');
    }
  };
  write(result, 0);
  pieces.push(Buffer.from(pending));
  const all = Buffer.concat(pieces);
  // A small one comes from Node's shared buffer pool, which cannot be handed to another thread: copied out of it.
  return { json: all.byteOffset === 0 && all.byteLength === all.buffer.byteLength ? all : new Uint8Array(all), members };
}

/** Below the result's members, arrays longer than this (a table's rows) are written in pieces, and so are the objects that hold them. */
const LONG_ARRAY = 1000;
/** Array elements written whole, this many to a JSON.stringify call. */
const BATCH = 256;

/**
 * Whether the writer goes into `value` (at `depth`: the result is 0) rather
 * than writing it whole: the result, its members' arrays, and long arrays and
 * the objects holding them, down to a table's rows.
 */
function opens(value: unknown, depth: number): boolean {
  if (depth >= 4 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return depth <= 1 || value.length > LONG_ARRAY;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  if (depth === 0) return true;
  for (const member of Object.values(value)) if (Array.isArray(member) && member.length > LONG_ARRAY) return true;
  return false;
}

/** Writes a result's JSON (resultJson, or the bytes a worker thread wrote) and returns the pointer for the write that completes the job. */
export async function putResultJson(blobs: Blobs, job: Job, body: Uint8Array, now: number): Promise<ResultRef> {
  const key = resultKey(job.project_id, job.id);
  await blobs.put(key, body, 'application/json');
  return resultRef(key, body.byteLength, now);
}

/** The pointer to a result of `size` bytes stored at `key` at `now`: kept for the retention period from then. */
export const resultRef = (key: string, size: number, now: number): ResultRef => ({ key, size, expires_at: Math.floor((now + RESULT_RETENTION_MS) / 1000) });

/**
 * The write that finishes a job on its stored result (Jobs.finishJob): pages
 * are charged as extracted, so a quota takes the shortfall against what was
 * reserved at submission (or gives an over-reservation back), and the day's
 * usage counts them.
 */
export function completion(job: Job, to: JobStatus, from: JobStatus[], pages: number, result_ref: ResultRef, now: number): JobFinish {
  return {
    id: job.id,
    to,
    patch: { pages, pages_reserved: job.quota ? pages : 0, result_ref, updated_at: now },
    from,
    quota: job.quota,
    shortfall: job.quota ? pages - job.pages_reserved : 0,
    usage: { project_id: job.project_id, day: usagePeriods(now).day, pages },
  };
}

/** Why a job failed whose quota had no room for the pages beyond its reservation. */
export const shortfallRefused = (job: Job, pages: number) =>
  `The document has ${pages} pages but ${job.pages_reserved} were reserved at submission, and the quota has no room for the rest.`;
