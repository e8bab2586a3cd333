// The Jobs port in memory, for unit tests of the domain: every write is as
// conditional as the DynamoDB adapter's (lambdas/adapters/dynamo-store.ts), so
// a test that would depend on a write the table refuses fails here too.

import { sourcesOf, type Job, type JobStatus } from '../../lambdas/core/job.ts';
import type { JobFinish, Jobs, Quotas } from '../../lambdas/core/ports.ts';

/** A plan without a page limit: nothing is counted, so nothing is ever short. */
export const unlimitedQuotas: Quotas = {
  reservePages: async () => 'unlimited',
  refundPages: async () => undefined,
};

const defined = (patch: Partial<Job>) => Object.fromEntries(Object.entries(patch).filter(([k, v]) => v !== undefined && k !== 'id'));

export class MemoryJobs implements Jobs {
  private readonly jobs = new Map<string, Job>();

  constructor(jobs: Job[] = []) {
    for (const job of jobs) this.jobs.set(job.id, structuredClone(job));
  }

  async getJob(id: string): Promise<Job | null> {
    const job = this.jobs.get(id);
    return job ? structuredClone(job) : null;
  }

  async putJobs(jobs: Job[]): Promise<void> {
    const existing = jobs.find((job) => this.jobs.has(job.id));
    if (existing) throw new Error(`job ${existing.id} exists already`);
    for (const job of jobs) this.jobs.set(job.id, structuredClone(job));
  }

  async transitionJob(id: string, to: JobStatus, patch: Partial<Job> = {}, from: JobStatus[] = sourcesOf(to)): Promise<Job | null> {
    const job = this.jobs.get(id);
    if (!job || !from.includes(job.status)) return null;
    return this.write({ ...job, ...defined(patch), status: to });
  }

  async claimJob(id: string, now: number): Promise<Job | null> {
    const job = this.jobs.get(id);
    if (!job || !sourcesOf('processing').includes(job.status)) return null;
    return this.write({ ...job, status: 'processing', updated_at: now, attempts: job.attempts + 1 });
  }

  async recordChunk(jobId: string, index: number, outcome: 'done' | 'failed', pages: number, now: number): Promise<Job | null> {
    const job = this.jobs.get(jobId);
    if (!job || job.status !== 'chunking' || job.chunks_done?.includes(index) || job.chunks_failed?.includes(index)) return null;
    const field = outcome === 'done' ? 'chunks_done' : 'chunks_failed';
    return this.write({ ...job, [field]: [...(job[field] ?? []), index].sort((a, b) => a - b), pages_done: (job.pages_done ?? 0) + pages, updated_at: now });
  }

  /** As the adapter, with no quota records: the job's plan counts no pages, so only the status condition can refuse. */
  async finishJob(finish: JobFinish): Promise<Job | 'insufficient' | null> {
    return this.transitionJob(finish.id, finish.to, finish.patch, finish.from);
  }

  private write(job: Job): Job {
    this.jobs.set(job.id, job);
    return structuredClone(job);
  }
}
