// What the domain needs from the outside world. Adapters implement these
// over DynamoDB, S3 and SQS (lambdas/adapters); tests pass real local parts.

import type { KeyTier } from './api-key.ts';
import type { ByteRun } from '../extract/engine/byte-ranges.ts';
import type { ChunkRange, Job, JobStatus, QuotaRef, WebhookEventKind } from './job.ts';
import type { SealedSecret } from './webhook-secret.ts';

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
  /** Live keys: an id to address the key by (the hash is never shown), and its last four characters to recognise it. */
  id?: string;
  last_four?: string;
  /** Updated at most once a minute, so authenticating stays a read. */
  last_used_at?: number | null;
}

export interface Project {
  id: string;
  name: string;
  created_at: number;
  /** Pages left on the project's plan; absent means the plan has no page limit. */
  pages_remaining?: number;
}

/** A project-level webhook (pk PROJECT#<project>, sk WEBHOOK#<id>). */
export interface WebhookRegistration {
  id: string;
  project_id: string;
  url: string;
  events: WebhookEventKind[];
  secret: SealedSecret;
  created_at: number;
}

/**
 * Where one event stands (pk JOB#<job>, sk EVENT#<event_id>). `delivered` is
 * what stops a re-announced or redelivered event from being POSTed again.
 */
export interface WebhookEventRecord {
  job_id: string;
  event_id: string;
  state: 'queued' | 'delivered' | 'failed' | 'dead_lettered';
  queued_at: number;
  updated_at: number;
}

/** One delivery attempt (pk JOB#<job>, sk DELIVERY#<at>#<event_id>#<attempt>). */
export interface DeliveryAttempt {
  job_id: string;
  event_id: string;
  event: WebhookEventKind;
  /** The registration's id, or null for the job's inline webhook. */
  webhook_id: string | null;
  url: string;
  /** The SQS receive count: 1 to 5, starting over after a redrive from the dead-letter queue. */
  attempt: number;
  /** Epoch ms when the attempt started. */
  at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'failed' | 'dead_lettered' | 'skipped';
}

export type Gate = { ok: true } | { ok: false; retryAfterMs: number };
/** A poll let through, with the job it reads; or refused, with the job as it stands (null if there is none). */
export type PollClaim = { ok: true; job: Job } | { ok: false; job: Job | null; retryAfterMs: number };
export type Reservation = 'reserved' | 'unlimited' | 'insufficient';

/** Everything a finishing job writes besides its result object (Jobs.finishJob). */
export interface JobFinish {
  id: string;
  to: JobStatus;
  patch: Partial<Job>;
  /** The statuses the job may be finished from (a job cancelled meanwhile stays cancelled). */
  from: JobStatus[];
  /** The job's quota, and how many pages more than were reserved it is charged (negative: given back). */
  quota: QuotaRef | null;
  shortfall: number;
  /** Pages added to the project's usage of a UTC day. */
  usage: { project_id: string; day: string; pages: number };
}

// The records the domain keeps, one port per thing it does with them, so a
// function asks only for what it calls and a test fake implements only that.
// Over one table, the DynamoDB adapter has one class per port (lambdas/adapters/dynamo-*.ts), so a
// function bundles only the ports it asks for; dynamo-store.ts puts them together for the local server.
// Where some callers only read, the read is a port of its own that the wider one extends.

/** Authenticating a request: the key's record, and the stamp of its last use. */
export interface KeyLookup {
  getApiKey(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Records a use of the key if the last one recorded is older than `staleMs`. */
  touchApiKey(keyHash: string, now: number, staleMs: number): Promise<void>;
}

/** A project's keys: issued, listed, revoked. */
export interface ApiKeys extends KeyLookup {
  putApiKey(key: ApiKeyRecord): Promise<void>;
  listApiKeys(projectId: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(keyHash: string, now: number): Promise<void>;
}

export interface Projects {
  /** Creates the project and its first live key together, or neither. */
  createProject(project: Project, key: ApiKeyRecord): Promise<void>;
}

/** The per-IP limit on anonymous sandbox keys. */
export interface SandboxIssues {
  /** Records one sandbox key issued to `ip` if fewer than `max` were issued in the last `windowMs`; safe under concurrency. */
  claimSandboxIssue(ip: string, now: number, windowMs: number, max: number): Promise<Gate>;
}

/** Pages left on a project's plan or a sandbox key. */
export interface Quotas {
  /** One conditional write: takes `pages` from the quota only if that many remain. */
  reservePages(ref: QuotaRef, pages: number): Promise<Reservation>;
  refundPages(ref: QuotaRef, pages: number): Promise<void>;
}

export interface JobLookup {
  getJob(id: string): Promise<Job | null>;
}

/** A job's life: written at submission, claimed, moved on, finished. Every move is a conditional write. */
export interface Jobs extends JobLookup {
  putJobs(jobs: Job[]): Promise<void>;
  /**
   * Moves a job to `to` only if its status is one of `from` (by default every
   * status from which `to` may be reached). Null when the condition failed.
   */
  transitionJob(id: string, to: JobStatus, patch?: Partial<Job>, from?: JobStatus[]): Promise<Job | null>;
  /**
   * A worker's claim: moves a pending job, or one whose worker died
   * (processing), to processing and counts the attempt, in one conditional
   * write. Null when the job is missing or in no status to be claimed.
   */
  claimJob(id: string, now: number): Promise<Job | null>;
  /**
   * Records chunk `index` of a chunking job as done (adding its `pages` to
   * pages_done) or failed, with one conditional write, so a redelivered chunk
   * counts once. The job after the write, or null when the chunk was already
   * recorded or the job is no longer chunking.
   */
  recordChunk(jobId: string, index: number, outcome: 'done' | 'failed', pages: number, now: number): Promise<Job | null>;
  /**
   * Finishes a job: its transition, the quota's correction and the day's
   * usage, all or none, so a crash or a redelivery can neither charge a
   * quota twice nor lose usage. The job after; 'insufficient' (nothing
   * written) when the quota cannot cover the shortfall; null (nothing
   * written) when the job is in none of `from`.
   */
  finishJob(finish: JobFinish): Promise<Job | 'insufficient' | null>;
}

/** What a project's clients read of its jobs: a poll of one, a page of the list. */
export interface JobQueries {
  /** A project's jobs, newest first; `cursor` continues a previous page. */
  listJobs(projectId: string, query: { status?: JobStatus; limit: number; cursor?: string }): Promise<{ jobs: Job[]; cursor: string | null }>;
  /**
   * Lets one poll of a job by `projectId` through per `minIntervalMs`, with
   * one conditional write that returns the job, so a poll is one round trip.
   * A job of another project is never written to.
   */
  claimPoll(jobId: string, projectId: string, now: number, minIntervalMs: number): Promise<PollClaim>;
}

export interface WebhookLookup {
  getWebhook(projectId: string, id: string): Promise<WebhookRegistration | null>;
}

/** A project's registered webhooks. */
export interface WebhookRegistrations extends WebhookLookup {
  putWebhook(registration: WebhookRegistration): Promise<void>;
  listWebhooks(projectId: string): Promise<WebhookRegistration[]>;
  /** False when there was nothing to delete. */
  deleteWebhook(projectId: string, id: string): Promise<boolean>;
}

/** Announcing an event once: the claim that stops a re-announcement from queueing it again. */
export interface WebhookEventClaims {
  /**
   * Records an event as queued, with one conditional write: true when it was
   * new, or still `queued` since before `staleBefore` (its message was lost).
   */
  claimWebhookEvent(record: WebhookEventRecord, staleBefore: number): Promise<boolean>;
  /** Forgets a claim whose message could not be sent, so the next announcement tries again. */
  releaseWebhookEvent(jobId: string, eventId: string): Promise<void>;
}

/** Where each event's delivery stands, and every attempt made. */
export interface DeliveryLog {
  getWebhookEvent(jobId: string, eventId: string): Promise<WebhookEventRecord | null>;
  setWebhookEventState(jobId: string, eventId: string, state: WebhookEventRecord['state'], now: number): Promise<void>;
  recordDeliveryAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** Every attempt for the job's events, oldest first. */
  listDeliveryAttempts(jobId: string): Promise<DeliveryAttempt[]>;
}

/** Pages extracted per project and UTC day (written by Jobs.finishJob with the job that earned them). */
export interface Usage {
  /** The project's pages per day of a month (YYYY-MM), for the days that have any. */
  getDailyUsage(projectId: string, month: string): Promise<Record<string, number>>;
}

export interface Blobs {
  put(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  /**
   * Writes an object from pieces of text (UTF-8) as they come, holding only a
   * few megabytes of them at a time (an S3 multipart upload), so an object
   * larger than memory, or than a string can be, is never whole in memory.
   * The object appears only once complete. Returns its size in bytes.
   */
  putStream(key: string, pieces: AsyncIterable<string>, contentType?: string): Promise<number>;
  get(key: string): Promise<Uint8Array | null>;
  /** Bytes `start` to `end` (exclusive) of an object, or null when there is no such object. */
  getRange(key: string, start: number, end: number): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

export interface ExtractionMessage {
  job_id: string;
  project_id: string;
  /** Absent: extract the job. `upload_deadline`: fail the job if its upload has not arrived by now. */
  kind?: 'upload_deadline';
}

export interface ExtractionQueue {
  /** The document rides along as a binary message attribute when it is small enough. */
  send(message: ExtractionMessage, inlineDocument: Uint8Array | null, delaySeconds?: number): Promise<void>;
}

/** One chunk of a large document to extract (the chunk queue's message). */
export interface ChunkMessage {
  job_id: string;
  project_id: string;
  index: number;
  /**
   * Where the chunk's text lies in the file, when planning found it: in the
   * message, not on the job record, whose every write and read would carry
   * thousands of them (3,334 for a 500 MB text file, doubling the item).
   */
  run?: ByteRun;
}

export interface ChunkQueue {
  send(messages: ChunkMessage[]): Promise<void>;
}

/** Where a chunk's part lies: what the aggregation state carries instead of text. */
export interface PartRef extends ChunkRange {
  key: string;
}

/**
 * The input of one aggregation execution (named after the job, so starting it
 * twice starts it once). The parts are listed in a manifest in the bucket, not
 * here: Step Functions refuses a state over 256 KB, which a list of every part
 * passed from about 1,750 parts. The state holds batches of positions in it.
 */
export interface AggregationInput {
  job_id: string;
  project_id: string;
  /** Key of the manifest: a JSON array of the job's PartRefs, in plan order. */
  manifest: string;
  /** First and last positions in the manifest of the parts each Map iteration measures. */
  batches: Array<[number, number]>;
}

/** Starts and stops the Step Functions execution that merges a large document's parts. */
export interface AggregationStarter {
  /** Idempotent per job: an execution already started for the job is left as it is. */
  start(input: AggregationInput): Promise<void>;
  /** Stops the job's execution if one runs; nothing when there is none. */
  stop(jobId: string): Promise<void>;
}

/** Presigned S3 PUT URLs for the upload flow. */
export interface UploadUrls {
  presignPut(key: string, contentType: string | null, expiresInSeconds: number): Promise<string>;
}

/**
 * Presigned S3 GET URLs: a result too large for a response is fetched from
 * the bucket. A port apart from Blobs because signing brings the SDK's
 * presigner (about 30 KB minified), which only the functions that sign need.
 */
export interface DownloadUrls {
  /** A URL that GETs the object without credentials until it expires. */
  presignGet(key: string, expiresInSeconds: number): Promise<string>;
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

/** One webhook event for one target; the payload is built per attempt from it. */
export interface WebhookMessage {
  event_id: string;
  event: WebhookEventKind;
  job_id: string;
  project_id: string;
  status: JobStatus;
  error_message: string | null;
  /** The job's inline webhook, or a registration looked up at delivery (so deleting one stops its deliveries). */
  target: { kind: 'inline' } | { kind: 'registration'; webhook_id: string };
}

export interface WebhookQueue {
  send(message: WebhookMessage): Promise<void>;
}

/** Hides a received message for `seconds`: the wait before its next attempt. */
export interface MessageVisibility {
  change(receiptHandle: string, seconds: number, queueArn: string): Promise<void>;
}

export const noJobEvents: JobEvents = { jobFinished: async () => undefined };

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
