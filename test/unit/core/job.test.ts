import { describe, expect, it } from 'vitest';
import { isTerminal, JOB_STATUSES, sourcesOf, TRANSITIONS } from '../../../lambdas/core/job.ts';

describe('job transitions', () => {
  it('has exactly the nine statuses of the spec', () => {
    expect(JOB_STATUSES).toHaveLength(9);
  });

  it('lets nothing leave a terminal status', () => {
    for (const status of JOB_STATUSES.filter(isTerminal)) expect(TRANSITIONS[status]).toEqual([]);
    expect(JOB_STATUSES.filter(isTerminal).sort()).toEqual(['cancelled', 'completed', 'failed', 'partial_success']);
  });

  it('never moves a job back to pending or awaiting_upload once it left', () => {
    expect(sourcesOf('pending')).toEqual(['awaiting_upload']);
    expect(sourcesOf('awaiting_upload')).toEqual([]);
  });

  it('completes only from processing or aggregating', () => {
    expect(sourcesOf('completed').sort()).toEqual(['aggregating', 'processing']);
  });
});
