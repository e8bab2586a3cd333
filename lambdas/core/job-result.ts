// Where a job's result goes: the JSON in the bucket, and the pointer the
// completing write puts on the job record (job.ts, ResultRef).

import type { ExtractionResult } from '../extract/types.ts';
import { RESULT_RETENTION_MS, type Job, type ResultRef } from './job.ts';
import type { Blobs } from './ports.ts';

export const resultKey = (projectId: string, jobId: string) => `results/${projectId}/${jobId}.json`;

/** Writes the result JSON and returns the pointer for the write that completes the job. */
export function putResult(blobs: Blobs, job: Job, result: ExtractionResult, now: number): Promise<ResultRef> {
  return putResultJson(blobs, job, Buffer.from(JSON.stringify(result)), now);
}

/** putResult for a result already written out as JSON (a merge in a worker thread hands back its bytes). */
export async function putResultJson(blobs: Blobs, job: Job, body: Uint8Array, now: number): Promise<ResultRef> {
  const key = resultKey(job.project_id, job.id);
  await blobs.put(key, body, 'application/json');
  return { key, size: body.byteLength, expires_at: Math.floor((now + RESULT_RETENTION_MS) / 1000) };
}
