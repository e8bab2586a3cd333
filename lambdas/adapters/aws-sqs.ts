// SQS: its client, and the stack's queues, one factory per part of compose()'s Infrastructure.

import { SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../../lib/wiring-runtime.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { SqsChunkQueue } from './sqs-chunk-queue.ts';
import { SqsExtractionQueue } from './sqs-extraction-queue.ts';
import { SqsMessageVisibility, SqsWebhookQueue } from './sqs-webhook-queue.ts';

export const sqsClient = (options: ClientOptions = {}) => withoutSdkLogger(new SQSClient({ region: options.region, credentials: options.credentials }));

let shared: SQSClient | undefined;
const client = () => (shared ??= sqsClient());

export const extractionQueue = () => new SqsExtractionQueue(client(), requiredEnv(env.queueUrl('extraction')));
export const chunkQueue = () => new SqsChunkQueue(client(), requiredEnv(env.queueUrl('chunks')));
export const webhookQueue = () => new SqsWebhookQueue(client(), requiredEnv(env.queueUrl('webhooks')));
export const visibility = () => new SqsMessageVisibility(client());
