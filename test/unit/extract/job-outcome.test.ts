// How an extraction result becomes the job's terminal status: a result with
// failed sections (archive members, attachments) ends `partial_success`, and
// the submission's config reaches the extractor.

import { describe, expect, it } from 'vitest';
import type { Job } from '../../../lambdas/core/job.ts';
import { PROGRESS_WRITE_MS, processJob } from '../../../lambdas/core/process-job.ts';
import { DEFAULT_CONFIG, type ExtractInput, type ExtractionResult, type FailedSection } from '../../../lambdas/extract/engine/types.ts';
import { makeJob } from '../../support/jobs.ts';
import { MemoryJobs, unlimitedQuotas } from '../../support/memory-jobs.ts';

function result(failed: FailedSection[]): ExtractionResult {
  return {
    content: 'text',
    metadata: { format: 'zip', mime_type: 'application/zip', pages: 1, char_count: 4, word_count: 1, ocr_pages: [], failed_sections: failed },
    tables: [],
    chunks: [],
  };
}

async function run(job: Job, extracted: ExtractionResult) {
  const jobs = new MemoryJobs([job]);
  const seen: ExtractInput[] = [];
  const finished: Job[] = [];
  await processJob(
    {
      jobs,
      quotas: unlimitedQuotas,
      blobs: { put: async () => {}, putStream: async () => 0, get: async () => null, getRange: async () => null, delete: async () => {} },
      clock: { now: () => Date.now() },
      events: { jobFinished: async (j) => void finished.push(j) },
      extractor: {
        extract: async (input) => {
          seen.push(input);
          return extracted;
        },
      },
    },
    { job_id: job.id, project_id: job.project_id },
    new TextEncoder().encode('bytes'),
    { receiveCount: 1, maxReceiveCount: 3 },
  );
  return { job: (await jobs.getJob(job.id))!, seen, finished };
}

describe('the job outcome of an extraction', () => {
  it('is partial_success when sections failed, completed otherwise', async () => {
    const partial = await run(makeJob({ filename: 'a.zip' }), result([{ name: 'bad.docx', error: 'damaged' }]));
    expect(partial.job.status).toBe('partial_success');
    expect(partial.finished.map((j) => j.status)).toEqual(['partial_success']);
    const whole = await run(makeJob({ filename: 'a.zip' }), result([]));
    expect(whole.job.status).toBe('completed');
  });

  it('records the pages read while a document is read whole, a write every PROGRESS_WRITE_MS at most, and none once it is over', async () => {
    let now = 1_800_000_000_000;
    const job = makeJob({ filename: 'long.pdf' });
    const jobs = new MemoryJobs([job]);
    const recorded: Array<[number | undefined, number | undefined]> = [];
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    let report: ((done: number, total: number) => void) | undefined;
    await processJob(
      {
        jobs,
        quotas: unlimitedQuotas,
        blobs: { put: async () => {}, putStream: async () => 0, get: async () => null, getRange: async () => null, delete: async () => {} },
        clock: { now: () => now },
        events: { jobFinished: async () => {} },
        extractor: {
          extract: async (input) => {
            report = input.onProgress;
            const step = async (ms: number, done: number) => {
              now += ms;
              report!(done, 100);
              await settle();
              const seen = (await jobs.getJob(job.id))!;
              recorded.push([seen.pages_done, seen.pages_total]);
            };
            await step(500, 10); // too soon after the start: not written
            await step(PROGRESS_WRITE_MS, 30);
            await step(100, 31); // too soon after the last write
            await step(PROGRESS_WRITE_MS, 60);
            await step(PROGRESS_WRITE_MS, 100); // all read: the result follows at once
            return result([]);
          },
        },
      },
      { job_id: job.id, project_id: job.project_id },
      new TextEncoder().encode('bytes'),
      { receiveCount: 1, maxReceiveCount: 3 },
    );
    expect(recorded).toEqual([
      [undefined, undefined],
      [30, 100],
      [30, 100],
      [60, 100],
      [60, 100],
    ]);
    now += PROGRESS_WRITE_MS;
    report!(90, 100);
    await settle();
    expect(await jobs.getJob(job.id)).toMatchObject({ status: 'completed', pages_done: 60 });
  });

  it('hands the submission config to the extractor', async () => {
    const config = { ...DEFAULT_CONFIG, output: 'markdown' as const, pages: [2] };
    const { seen } = await run(makeJob({ filename: 'a.pdf', config }), result([]));
    expect(seen[0]!.config).toEqual(config);
  });
});
