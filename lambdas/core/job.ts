// Jobs and the only moves they may make (DESIGN.md section 4). The store
// applies each move as a conditional write on the current status, so a
// redelivered message or a second worker can never move a job backwards or
// out of a terminal status.

import type { DocumentMetadata, ExtractionConfig } from '../extract/engine/types.ts';
import type { RangeLayout } from '../extract/engine/byte-ranges.ts';
import type { PagePart } from '../extract/engine/page-parts.ts';
import type { MergeRules } from '../extract/engine/merge.ts';

export const JOB_STATUSES = [
  'awaiting_upload',
  'pending',
  'processing',
  'chunking',
  'aggregating',
  'completed',
  'partial_success',
  'failed',
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const TERMINAL: ReadonlySet<JobStatus> = new Set(['completed', 'partial_success', 'failed', 'cancelled']);
export const isTerminal = (status: JobStatus) => TERMINAL.has(status);

export const TRANSITIONS: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  awaiting_upload: ['pending', 'failed', 'cancelled'],
  pending: ['processing', 'chunking', 'cancelled'],
  // processing -> processing: a worker re-claims a job whose previous worker
  // died mid-extraction (its message came back after the visibility timeout).
  processing: ['processing', 'completed', 'partial_success', 'failed', 'cancelled'],
  chunking: ['aggregating', 'failed', 'cancelled'],
  // aggregating -> cancelled: the issue lets any unfinished job be cancelled; the
  // aggregation's own conditional write then cannot complete it.
  aggregating: ['completed', 'partial_success', 'failed', 'cancelled'],
  completed: [],
  partial_success: [],
  failed: [],
  cancelled: [],
};

/** The statuses from which `to` may be reached: the condition of the write that moves a job there. */
export const sourcesOf = (to: JobStatus): JobStatus[] =>
  JOB_STATUSES.filter((from) => TRANSITIONS[from].includes(to));

/** Where the page reservation of a job was taken from, so it can be settled or refunded. */
export type QuotaRef = { kind: 'sandbox_key'; key_hash: string } | { kind: 'project'; project_id: string };

export type DocumentRef = { kind: 'inline' } | { kind: 's3'; key: string };

export const WEBHOOK_EVENT_KINDS = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** A job's inline webhook, which replaces the project's registrations for that job. */
export interface WebhookTarget {
  url: string;
  /** The kinds to send; absent means all. */
  events?: WebhookEventKind[];
  /** Encrypted, never plaintext; absent means deliveries are unsigned. */
  secret?: { ciphertext: string; fingerprint: string };
}

export interface Job {
  id: string;
  project_id: string;
  filename: string;
  content_type: string | null;
  size: number;
  status: JobStatus;
  document: DocumentRef;
  /**
   * The format its filename names (the engine's registry decides, or "other"),
   * set where the document is first taken in (a submission, an upload's
   * arrival): what the metrics count a job as when it ends without a result.
   */
  format_hint?: string;
  webhook: WebhookTarget | null;
  /** The submission's `config` field (what to extract, how to chunk); absent or null for the defaults. */
  config?: ExtractionConfig | null;
  /** Pages reserved against the quota at submission. */
  pages_reserved: number;
  /** Pages the extraction counted; null until it finished. */
  pages: number | null;
  quota: QuotaRef | null;
  error_message: string | null;
  /** Claims by workers; more than one means a worker died and another took over. */
  attempts: number;
  created_at: number;
  updated_at: number;
  /** Unix seconds: DynamoDB TTL of the job record. */
  expires_at: number;
  /** Where the result is, set by the write that completes the job. */
  result_ref?: ResultRef;
  /** Large documents only (see chunk-plan.ts): the chunks the document was split into. */
  chunk_plan?: ChunkRange[];
  /** Indexes of chunks recorded as extracted, or as failed; each index is recorded once. */
  chunks_done?: number[];
  chunks_failed?: number[];
  /** Pages the recorded chunks extracted and pages the plan covers, or a document read whole: its pages read so far and its pages to read. `progress` while the job runs. */
  pages_done?: number;
  pages_total?: number;
  /**
   * A PDF cut into chunks: the original's own metadata (title, author, dates,
   * ...), read before the cut, since each cut is a new PDF with PDFium's. The
   * merged result reports these.
   */
  document_metadata?: OriginalMetadata;
  /** A text file split into chunks by byte ranges: its format, encoding and text pages (and a CSV's delimiter and header row). Each chunk's ByteRun is in its message and in the bucket (rangesKey). */
  range_layout?: RangeLayout;
  /** How the parts of a split document join (its format's split rules), recorded when it was planned so the merge reads no registry. */
  merge_rules?: MergeRules;
}

/** The document-level metadata fields a cut PDF does not keep. */
export type OriginalMetadata = Pick<DocumentMetadata, 'title' | 'author' | 'subject' | 'keywords' | 'creator' | 'producer' | 'created_at' | 'modified_at'>;

/**
 * The result JSON in the bucket. It lives on the job record, so the write
 * that completes a job also publishes its result, and a poll reads both at
 * once; the 12-hour cache is the check of `expires_at` on every read plus the
 * bucket's lifecycle rule for the object.
 */
export interface ResultRef {
  /** S3 key of the result JSON. */
  key: string;
  size: number;
  /** Unix seconds. */
  expires_at: number;
}

/** One chunk of a large document: a run of its pages (or of its format's page unit). */
export interface ChunkRange {
  index: number;
  first_page: number;
  last_page: number;
  /**
   * A PDF of just this chunk's pages, cut from the document when it was
   * planned, so the chunk worker downloads and parses only those; absent when
   * the pages could not be cut out (the worker reads the whole document).
   */
  source?: { key: string; pages_total: number };
  /** One part of a page too large for one chunk (a run of a large sheet's rows): first_page and last_page are its page. */
  page_part?: PagePart;
}

/** How long job records and results live. */
export const JOB_RETENTION_MS = 7 * 24 * 3600_000;
export const RESULT_RETENTION_MS = 12 * 3600_000;
