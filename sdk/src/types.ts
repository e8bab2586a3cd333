// The SDK's types are the server's own (type-only imports, erased at run
// time), so client and service cannot disagree about a field.

export type { JobView as Job } from '../../lambdas/core/get-job.ts';
export type { JobStatus } from '../../lambdas/core/job.ts';
export type { SandboxKey } from '../../lambdas/core/sandbox.ts';
export type { Accepted as Submitted } from '../../lambdas/core/submit.ts';
export type { BBox, Chunk, DocumentMetadata, Element, ElementType, ExtractionResult, PageSize, Table } from '../../lambdas/extract/engine/types.ts';

export const TERMINAL_STATUSES = ['completed', 'partial_success', 'failed', 'cancelled'] as const;

/** The inline webhook of one submission; it replaces the project's registrations for those jobs. */
export interface InlineWebhook {
  url: string;
  secret?: string;
  events?: ('job.completed' | 'job.failed' | 'job.cancelled')[];
}
