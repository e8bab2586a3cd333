// What the handlers read of the wiring while they run: the environment
// variables the stack (or the local server) sets, and how often each queue
// delivers a message before its dead-letter queue takes it. Apart from
// lib/wiring.ts, which declares them with everything else, because every
// Lambda bundle imports these few names and would otherwise carry the
// tables of functions, routes and queues too.

export type QueueName = 'extraction' | 'chunks' | 'webhooks';

/** Receives before SQS moves a message to the queue's dead-letter queue (QueueSpec.maxReceiveCount). */
export const maxReceiveCount: Record<QueueName, number> = { extraction: 3, chunks: 3, webhooks: 5 };

/** Environment variables through which the stack (or the local server) tells handlers where things are. */
export const env = {
  table: 'DOCEX_TABLE',
  bucket: 'DOCEX_BUCKET',
  queueUrl: (q: QueueName) => `DOCEX_${q.toUpperCase()}_QUEUE_URL`,
  /** KMS key id (or ARN) for webhook secrets. */
  webhookKeyId: 'DOCEX_WEBHOOK_KEY_ID',
  /** Set only by the local server: plain-http webhooks to loopback are allowed in development. */
  allowLoopbackWebhooks: 'DOCEX_ALLOW_LOOPBACK_WEBHOOKS',
  /** ARN of the aggregation state machine, for the functions that start or stop its executions. */
  aggregationStateMachineArn: 'DOCEX_AGGREGATION_STATE_MACHINE_ARN',
} as const;
