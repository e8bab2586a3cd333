// GET /v1/jobs: a project's jobs, newest first, in pages with an opaque cursor.

import type { Principal } from './auth.ts';
import { invalidRequest } from './errors.ts';
import { JOB_STATUSES, type JobStatus } from './job.ts';
import type { Clock, JobQueries } from './ports.ts';

export interface JobSummary {
  id: string;
  filename: string;
  status: JobStatus;
  pages: number | null;
  /** Why a failed job failed (as GET /v1/jobs/{id} says); absent otherwise. */
  error_message?: string;
  created_at: string;
  updated_at: string;
}

export interface JobPage {
  jobs: JobSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

export interface JobQuery {
  status?: string;
  limit?: string;
  cursor?: string;
}

export async function listJobs(deps: { jobQueries: JobQueries; clock: Clock }, principal: Principal, query: JobQuery): Promise<JobPage> {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest('limit must be a whole number from 1 to 100.');
  const status = query.status || undefined;
  if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status)) {
    throw invalidRequest(`status must be one of ${JOB_STATUSES.join(', ')}.`);
  }
  if (query.cursor !== undefined && !/^[A-Za-z0-9_-]{1,2000}$/.test(query.cursor)) {
    throw invalidRequest('cursor is not one this API gave out; pass next_cursor from the previous page unchanged.');
  }
  const now = deps.clock.now();
  const page = await deps.jobQueries.listJobs(principal.project_id, { status: status as JobStatus | undefined, limit, cursor: query.cursor });
  return {
    jobs: page.jobs
      .filter((job) => job.expires_at * 1000 > now)
      .map((job) => ({
        id: job.id,
        filename: job.filename,
        status: job.status,
        pages: job.pages,
        ...(job.error_message ? { error_message: job.error_message } : {}),
        created_at: new Date(job.created_at).toISOString(),
        updated_at: new Date(job.updated_at).toISOString(),
      })),
    next_cursor: page.cursor,
  };
}
