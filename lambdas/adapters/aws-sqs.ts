// SQS: its client, and the stack's queues.

import { SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../../lib/wiring.ts';
import type { Infrastructure } from './compose.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { SqsChunkQueue } from './sqs-chunk-queue.ts';
import { SqsExtractionQueue } from './sqs-extraction-queue.ts';
import { SqsMessageVisibility, SqsWebhookQueue } from './sqs-webhook-queue.ts';

export const sqsClient = (options: ClientOptions = {}) => withoutSdkLogger(new SQSClient({ region: options.region, credentials: options.credentials }));

export const awsQueues = {
  extractionQueue: () => new SqsExtractionQueue(sqsClient(), requiredEnv(env.queueUrl('extraction'))),
  chunkQueue: () => new SqsChunkQueue(sqsClient(), requiredEnv(env.queueUrl('chunks'))),
  webhookQueue: () => new SqsWebhookQueue(sqsClient(), requiredEnv(env.queueUrl('webhooks'))),
  visibility: () => new SqsMessageVisibility(sqsClient()),
} satisfies Partial<Infrastructure>;
