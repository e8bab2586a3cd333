// How an extraction result becomes the job's terminal status: a result with
// failed sections (archive members, attachments) ends `partial_success`, and
// the submission's config reaches the extractor.

import { describe, expect, it } from 'vitest';
import type { Job } from '../../../lambdas/core/job.ts';
import { processJob } from '../../../lambdas/core/process-job.ts';
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

  it('hands the submission config to the extractor', async () => {
    const config = { ...DEFAULT_CONFIG, output: 'markdown' as const, pages: [2] };
    const { seen } = await run(makeJob({ filename: 'a.pdf', config }), result([]));
    expect(seen[0]!.config).toEqual(config);
  });
});
