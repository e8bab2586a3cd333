// The one declaration of how docex is wired: which route reaches which
// handler, which queue feeds which consumer, with which timeouts and redrive.
// The CDK stack and the local twin both read this file, so the cloud and the
// local server cannot drift apart. What the handlers themselves read while
// they run (environment variable names, receive counts) is in
// wiring-runtime.ts, so their bundles leave these tables out.

import { maxReceiveCount, type QueueName } from './wiring-runtime.ts';

export { env, type QueueName } from './wiring-runtime.ts';

export type FunctionName =
  | 'sandbox-key'
  | 'submit'
  | 'get-job'
  | 'get-page'
  | 'extract-worker'
  | 'webhooks'
  | 'webhook-delivery'
  | 'project'
  | 'uploads'
  | 'upload-arrived'
  | 'cancel-job'
  | 'chunk-worker'
  | 'aggregate-part'
  | 'aggregate-finish'
  | 'aggregate-fail'
  | 'site';

export interface FunctionSpec {
  /** Source file of the Lambda entry, relative to the repository root. */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  /**
   * Runs the extraction engine, whose run-time files ship beside the bundle:
   * PDFium's WebAssembly, and tesseract.js with its English model (which
   * start their own workers from their package folders, so are not bundled).
   */
  extracts?: true;
  /** What the function touches; the stack turns this into least-privilege grants. */
  uses: {
    table?: 'read' | 'readwrite';
    /** Object actions on the bucket; `delete` only removes objects (a failed job's document and parts). */
    bucket?: 'read' | 'write' | 'readwrite' | 'delete';
    sendsTo?: QueueName[];
    /** The KMS key that encrypts webhook secrets at rest (a key file on the local server). */
    webhookKey?: 'encrypt' | 'decrypt' | 'encrypt-decrypt';
    /** The aggregation state machine (Step Functions): start an execution, or stop one. */
    aggregation?: 'start' | 'stop';
    /** Invoked by the aggregation state machine as one of its tasks (and by nothing else). */
    aggregationTask?: 'part' | 'finish' | 'fail';
  };
}

export interface RouteSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  fn: FunctionName;
  /** False only for the anonymous sandbox endpoint. */
  auth: boolean;
}

export interface QueueSpec {
  consumer: FunctionName;
  /** AWS recommends at least 6x the consumer's timeout so a slow batch is not redelivered mid-run. */
  visibilityTimeoutSeconds: number;
  /** Receives before SQS moves a message to the queue's dead-letter queue. */
  maxReceiveCount: number;
  batchSize: number;
  /** Upper bound on concurrent consumers (Lambda's ScalingConfig.MaximumConcurrency; the local pool size otherwise). */
  maxConcurrency: number;
  retentionDays: number;
}

export const functions: Record<FunctionName, FunctionSpec> = {
  'sandbox-key': {
    entry: 'lambdas/handlers/sandbox-key.ts',
    timeoutSeconds: 10,
    memoryMb: 256,
    uses: { table: 'readwrite' },
  },
  submit: {
    entry: 'lambdas/handlers/submit.ts',
    timeoutSeconds: 29,
    memoryMb: 1024,
    // encrypt: the secret of an inline webhook is sealed before the jobs are written.
    uses: { table: 'readwrite', bucket: 'write', sendsTo: ['extraction'], webhookKey: 'encrypt' },
  },
  'get-job': {
    entry: 'lambdas/handlers/get-job.ts',
    timeoutSeconds: 10,
    memoryMb: 512,
    uses: { table: 'readwrite', bucket: 'read' },
  },
  // A page of a finished job's PDF as a PNG: PDFium in a worker thread of its own, so it ships the engine.
  // Reads the job record and the kept document (pages/), nothing else.
  'get-page': {
    entry: 'lambdas/handlers/get-page.ts',
    timeoutSeconds: 29,
    memoryMb: 1536,
    extracts: true,
    uses: { table: 'read', bucket: 'read' },
  },
  'extract-worker': {
    entry: 'lambdas/handlers/extract-worker.ts',
    timeoutSeconds: 300,
    memoryMb: 2048,
    extracts: true,
    // Announces finished jobs: reads the project's webhooks and queues one event per target.
    // Splits documents over limits.splitBytes: one chunk message per chunk.
    uses: { table: 'readwrite', bucket: 'readwrite', sendsTo: ['chunks', 'webhooks'] },
  },
  // One chunk of a large document: extracts its pages, stores the part, records it;
  // the recorder of the last part starts the aggregation.
  'chunk-worker': {
    entry: 'lambdas/handlers/chunk-worker.ts',
    timeoutSeconds: 300,
    memoryMb: 2048,
    extracts: true,
    uses: { table: 'readwrite', bucket: 'readwrite', aggregation: 'start' },
  },
  // The aggregation state machine's Map task: loads, checks and measures a batch of parts
  // (aggregate.ts, PARTS_PER_BATCH), one at a time, and stores their measurements beside them.
  'aggregate-part': {
    entry: 'lambdas/handlers/aggregate-part.ts',
    timeoutSeconds: 300,
    memoryMb: 1024,
    uses: { bucket: 'readwrite', aggregationTask: 'part' },
  },
  // Its final task: merges the parts into the result, sets the terminal status, announces it.
  'aggregate-finish': {
    entry: 'lambdas/handlers/aggregate-finish.ts',
    timeoutSeconds: 300,
    memoryMb: 3008,
    uses: { table: 'readwrite', bucket: 'readwrite', sendsTo: ['webhooks'], aggregationTask: 'finish' },
  },
  // Its catch step, when measuring or merging failed after the retries: fails the job, deletes
  // the document and parts, announces job.failed. Small and separate, so it still runs when
  // aggregate-finish cannot (out of memory, out of time).
  'aggregate-fail': {
    entry: 'lambdas/handlers/aggregate-fail.ts',
    timeoutSeconds: 30,
    memoryMb: 256,
    uses: { table: 'readwrite', bucket: 'delete', sendsTo: ['webhooks'], aggregationTask: 'fail' },
  },
  // Registrations (create seals the secret, test opens it to sign) and a job's delivery log.
  webhooks: {
    entry: 'lambdas/handlers/webhooks.ts',
    // The test action gives the receiver 25 s, so its answer beats API Gateway's 29 s integration limit.
    timeoutSeconds: 29,
    memoryMb: 256,
    uses: { table: 'readwrite', webhookKey: 'encrypt-decrypt' },
  },
  'webhook-delivery': {
    entry: 'lambdas/handlers/webhook-delivery.ts',
    // A batch's attempts run side by side, each within 30 s, plus the store and KMS around them.
    timeoutSeconds: 45,
    memoryMb: 256,
    uses: { table: 'readwrite', webhookKey: 'decrypt' },
  },
  // The upload flow: a job awaiting its document, with a presigned PUT (signing needs the put grant).
  uploads: {
    entry: 'lambdas/handlers/uploads.ts',
    timeoutSeconds: 10,
    memoryMb: 256,
    uses: { table: 'readwrite', bucket: 'write', sendsTo: ['extraction'], webhookKey: 'encrypt' },
  },
  // The bucket's event for an arrived upload: counts its pages and queues the job (or fails it).
  'upload-arrived': {
    entry: 'lambdas/handlers/upload-arrived.ts',
    timeoutSeconds: 120,
    memoryMb: 1024,
    uses: { table: 'readwrite', bucket: 'readwrite', sendsTo: ['extraction', 'webhooks'] },
  },
  // Cancelling a job: frees its document and announces job.cancelled.
  'cancel-job': {
    entry: 'lambdas/handlers/cancel-job.ts',
    timeoutSeconds: 10,
    memoryMb: 256,
    // stop: a cancelled large document's aggregation execution is stopped.
    uses: { table: 'readwrite', bucket: 'readwrite', sendsTo: ['webhooks'], aggregation: 'stop' },
  },
  // The project's keys, job list and usage: what the dashboard shows.
  project: {
    entry: 'lambdas/handlers/project.ts',
    timeoutSeconds: 10,
    memoryMb: 256,
    uses: { table: 'readwrite' },
  },
  // The public documents: the dashboard page and the OpenAPI document. Static, no data access.
  site: {
    entry: 'lambdas/handlers/site.ts',
    timeoutSeconds: 5,
    memoryMb: 128,
    uses: {},
  },
};

export const routes: RouteSpec[] = [
  { method: 'POST', path: '/v1/sandbox/key', fn: 'sandbox-key', auth: false },
  { method: 'POST', path: '/v1/extract', fn: 'submit', auth: true },
  { method: 'GET', path: '/v1/jobs/{id}', fn: 'get-job', auth: true },
  { method: 'GET', path: '/v1/jobs/{id}/pages/{n}', fn: 'get-page', auth: true },
  { method: 'GET', path: '/v1/jobs', fn: 'project', auth: true },
  { method: 'POST', path: '/v1/jobs/{id}/cancel', fn: 'cancel-job', auth: true },
  { method: 'POST', path: '/v1/uploads', fn: 'uploads', auth: true },
  { method: 'GET', path: '/v1/keys', fn: 'project', auth: true },
  { method: 'POST', path: '/v1/keys', fn: 'project', auth: true },
  { method: 'DELETE', path: '/v1/keys/{id}', fn: 'project', auth: true },
  { method: 'GET', path: '/v1/usage', fn: 'project', auth: true },
  { method: 'GET', path: '/dashboard', fn: 'site', auth: false },
  { method: 'GET', path: '/v1/openapi.json', fn: 'site', auth: false },
  { method: 'GET', path: '/v1/jobs/{id}/deliveries', fn: 'webhooks', auth: true },
  { method: 'POST', path: '/v1/webhooks', fn: 'webhooks', auth: true },
  { method: 'GET', path: '/v1/webhooks', fn: 'webhooks', auth: true },
  { method: 'DELETE', path: '/v1/webhooks/{id}', fn: 'webhooks', auth: true },
  { method: 'POST', path: '/v1/webhooks/{id}/test', fn: 'webhooks', auth: true },
];

// Built in a pure function: its reads of other objects would otherwise keep it, as a possible side effect, in
// every bundle that imports this module for the function table alone (the site's OpenAPI document).
export const queues: Record<QueueName, QueueSpec> = /* @__PURE__ */ (() => ({
  extraction: {
    consumer: 'extract-worker',
    visibilityTimeoutSeconds: 6 * functions['extract-worker'].timeoutSeconds,
    maxReceiveCount: maxReceiveCount.extraction,
    batchSize: 1,
    maxConcurrency: 32,
    retentionDays: 4,
  },
  // The fan-out of a large document: one message per chunk. Concurrency is
  // what makes a 1,000-page PDF take the time of its slowest chunk.
  chunks: {
    consumer: 'chunk-worker',
    visibilityTimeoutSeconds: 6 * functions['chunk-worker'].timeoutSeconds,
    maxReceiveCount: maxReceiveCount.chunks,
    batchSize: 1,
    maxConcurrency: 32,
    retentionDays: 4,
  },
  // The consumer sets each failed message's visibility to the wait before its
  // next attempt (5 s, 30 s, 5 min, 5 min), so the receive count is the attempt
  // number and the fifth failure is redriven to the DLQ. This default only
  // applies when an invocation dies before it could set one.
  webhooks: {
    consumer: 'webhook-delivery',
    visibilityTimeoutSeconds: 6 * functions['webhook-delivery'].timeoutSeconds,
    maxReceiveCount: maxReceiveCount.webhooks,
    batchSize: 10,
    maxConcurrency: 10,
    retentionDays: 4,
  },
}))();

export interface BucketNotificationSpec {
  /** Objects created under this key prefix invoke `fn` with S3's event. */
  prefix: string;
  fn: FunctionName;
}

export const bucketNotifications: BucketNotificationSpec[] = [{ prefix: 'uploads/', fn: 'upload-arrived' }];

/** Objects under a prefix expire this many days after they were written: the bucket's lifecycle in AWS, a sweep on the local server. */
export interface BucketExpirySpec {
  id: string;
  prefix: string;
  days: number;
}

export const bucketExpiry: BucketExpirySpec[] = [
  { id: 'documents', prefix: 'documents/', days: 1 },
  { id: 'results', prefix: 'results/', days: 2 },
  // A completed PDF's or image's document, kept for its page images while the result is (12 h, which the route checks).
  { id: 'pages', prefix: 'pages/', days: 1 },
  // An upload that landed after its job ended is deleted when it lands; this catches anything else.
  { id: 'uploads', prefix: 'uploads/', days: 1 },
  // Chunk parts of large documents: deleted when the job ends; this catches a cancelled job's stragglers.
  { id: 'parts', prefix: 'parts/', days: 2 },
];


/** The DynamoDB table's key schema, shared by the stack, the adapters' tests and the local server. */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;
