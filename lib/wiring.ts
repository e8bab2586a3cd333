// The one declaration of how docex is wired: which route reaches which
// handler, which queue feeds which consumer, with which timeouts and redrive.
// The CDK stack and the local twin both read this file, so the cloud and the
// local server cannot drift apart.

export type FunctionName = 'sandbox-key' | 'submit' | 'get-job' | 'extract-worker';
export type QueueName = 'extraction';

export interface FunctionSpec {
  /** Source file of the Lambda entry, relative to the repository root. */
  entry: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** What the function touches; the stack turns this into least-privilege grants. */
  uses: {
    table?: 'read' | 'readwrite';
    bucket?: 'read' | 'write' | 'readwrite';
    sendsTo?: QueueName[];
    /** The KMS key that encrypts webhook secrets at rest (a key file on the local server). */
    webhookKey?: 'encrypt' | 'decrypt' | 'encrypt-decrypt';
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
    uses: { table: 'readwrite', bucket: 'write', sendsTo: ['extraction'] },
  },
  'get-job': {
    entry: 'lambdas/handlers/get-job.ts',
    timeoutSeconds: 10,
    memoryMb: 512,
    uses: { table: 'readwrite', bucket: 'read' },
  },
  'extract-worker': {
    entry: 'lambdas/handlers/extract-worker.ts',
    timeoutSeconds: 300,
    memoryMb: 2048,
    uses: { table: 'readwrite', bucket: 'readwrite' },
  },
};

export const routes: RouteSpec[] = [
  { method: 'POST', path: '/v1/sandbox/key', fn: 'sandbox-key', auth: false },
  { method: 'POST', path: '/v1/extract', fn: 'submit', auth: true },
  { method: 'GET', path: '/v1/jobs/{id}', fn: 'get-job', auth: true },
];

export const queues: Record<QueueName, QueueSpec> = {
  extraction: {
    consumer: 'extract-worker',
    visibilityTimeoutSeconds: 6 * functions['extract-worker'].timeoutSeconds,
    maxReceiveCount: 3,
    batchSize: 1,
    maxConcurrency: 32,
    retentionDays: 4,
  },
};

/** Environment variables through which the stack (or the local server) tells handlers where things are. */
export const env = {
  table: 'DOCEX_TABLE',
  bucket: 'DOCEX_BUCKET',
  queueUrl: (q: QueueName) => `DOCEX_${q.toUpperCase()}_QUEUE_URL`,
  /** KMS key id (or ARN) for webhook secrets. */
  webhookKeyId: 'DOCEX_WEBHOOK_KEY_ID',
  /** Set only by the local server: plain-http webhooks to loopback are allowed in development. */
  allowLoopbackWebhooks: 'DOCEX_ALLOW_LOOPBACK_WEBHOOKS',
} as const;

/** The DynamoDB table's key schema, shared by the stack, the adapters' tests and the local server. */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expires_at',
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;
