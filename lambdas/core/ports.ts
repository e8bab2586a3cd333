// What the domain needs from the outside world. Adapters implement these
// over DynamoDB, S3 and SQS (lambdas/adapters); tests pass real local parts.

import type { KeyTier } from './api-key.ts';
import type { Job, JobStatus, QuotaRef } from './job.ts';

export interface ApiKeyRecord {
  key_hash: string;
  project_id: string;
  tier: KeyTier;
  created_at: number;
  revoked_at: number | null;
  /** Sandbox keys only: the IP the key was issued to and is bound to. */
  ip?: string;
  /** Sandbox keys only: pages left of the 50. */
  pages_remaining?: number;
  /** Sandbox keys only: Unix seconds. */
  expires_at?: number;
}

export interface Project {
  id: string;
  name: string;
  created_at: number;
  /** Pages left on the project's plan; absent means the plan has no page limit. */
  pages_remaining?: number;
}

export interface ResultRef {
  project_id: string;
  job_id: string;
  /** S3 key of the result JSON. */
  key: string;
  size: number;
  /** Unix seconds. Checked on every read: DynamoDB TTL deletes late. */
  expires_at: number;
}

export type Gate = { ok: true } | { ok: false; retryAfterMs: number };
export type Reservation = 'reserved' | 'unlimited' | 'insufficient';

export interface Store {
  /** Creates the project and its first live key together, or neither. */
  createProject(project: Project, key: ApiKeyRecord): Promise<void>;
  putApiKey(key: ApiKeyRecord): Promise<void>;
  getApiKey(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Records one sandbox key issued to `ip` if fewer than `max` were issued in the last `windowMs`; safe under concurrency. */
  claimSandboxIssue(ip: string, now: number, windowMs: number, max: number): Promise<Gate>;
  /** One conditional write: takes `pages` from the quota only if that many remain. */
  reservePages(ref: QuotaRef, pages: number): Promise<Reservation>;
  refundPages(ref: QuotaRef, pages: number): Promise<void>;
  putJobs(jobs: Job[]): Promise<void>;
  getJob(id: string): Promise<Job | null>;
  /**
   * Moves a job to `to` only if its status is one of `from` (by default every
   * status from which `to` may be reached). Null when the condition failed.
   */
  transitionJob(id: string, to: JobStatus, patch?: Partial<Job>, from?: JobStatus[]): Promise<Job | null>;
  /** Lets one poll of a job through per `minIntervalMs`. */
  claimPoll(jobId: string, now: number, minIntervalMs: number): Promise<Gate>;
  putResultRef(ref: ResultRef): Promise<void>;
  getResultRef(projectId: string, jobId: string): Promise<ResultRef | null>;
}

export interface Blobs {
  put(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

export interface ExtractionMessage {
  job_id: string;
  project_id: string;
}

export interface ExtractionQueue {
  /** The document rides along as a binary message attribute when it is small enough. */
  send(message: ExtractionMessage, inlineDocument: Uint8Array | null): Promise<void>;
}

/**
 * Told whenever a job reaches a terminal status, and again whenever a
 * redelivered message finds it terminal, so an announcement lost to a crash
 * between the status write and the announcement is made up for. Implementations
 * must therefore be idempotent per job and status (webhooks dedupe by event id).
 */
export interface JobEvents {
  jobFinished(job: Job): Promise<void>;
}

export const noJobEvents: JobEvents = { jobFinished: async () => undefined };

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
