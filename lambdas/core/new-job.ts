import { JOB_RETENTION_MS, type Job } from './job.ts';

/** What differs between the ways a job is made (a direct submission, an upload); the rest starts the same. */
export type JobSeed = Pick<Job, 'id' | 'project_id' | 'filename' | 'content_type' | 'size' | 'status' | 'document' | 'webhook' | 'config' | 'quota'> & {
  /** Pages reserved for it: zero when the quota is unlimited (`quota` null). */
  pages: number;
  format_hint?: string;
};

export function newJob(seed: JobSeed, now: number): Job {
  const { pages, ...rest } = seed;
  return {
    ...rest,
    pages_reserved: seed.quota ? pages : 0,
    pages: null,
    error_message: null,
    attempts: 0,
    created_at: now,
    updated_at: now,
    expires_at: Math.floor((now + JOB_RETENTION_MS) / 1000),
  };
}
