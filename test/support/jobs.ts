import { randomUUID } from 'node:crypto';
import type { Job } from '../../lambdas/core/job.ts';

export function makeJob(overrides: Partial<Job> = {}): Job {
  const now = Date.now();
  return {
    id: randomUUID(),
    project_id: randomUUID(),
    filename: 'doc.txt',
    content_type: null,
    size: 5,
    status: 'pending',
    document: { kind: 'inline' },
    webhook: null,
    pages_reserved: 1,
    pages: null,
    quota: null,
    error_message: null,
    attempts: 0,
    created_at: now,
    updated_at: now,
    expires_at: Math.floor(now / 1000) + 3600,
    ...overrides,
  };
}
