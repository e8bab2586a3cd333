// SQS: its client, and the stack's queues.

import { SQSClient } from '@aws-sdk/client-sqs';
import { env, type QueueName } from '../../lib/wiring.ts';
import { systemClock, type JobEvents, type Store } from '../core/ports.ts';
import { WebhookEvents } from '../core/webhook-events.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { SqsChunkQueue } from './sqs-chunk-queue.ts';
import { SqsExtractionQueue } from './sqs-extraction-queue.ts';
import { SqsMessageVisibility, SqsWebhookQueue } from './sqs-webhook-queue.ts';

export const sqsClient = (options: ClientOptions = {}) => withoutSdkLogger(new SQSClient({ region: options.region, credentials: options.credentials }));

export const awsExtractionQueue = (queue: QueueName = 'extraction') => new SqsExtractionQueue(sqsClient(), requiredEnv(env.queueUrl(queue)));
export const awsChunkQueue = () => new SqsChunkQueue(sqsClient(), requiredEnv(env.queueUrl('chunks')));
export const awsWebhookQueue = () => new SqsWebhookQueue(sqsClient(), requiredEnv(env.queueUrl('webhooks')));
export const awsMessageVisibility = () => new SqsMessageVisibility(sqsClient());
/** Terminal jobs announced to their webhooks through the webhooks queue. */
export const awsJobEvents = (store: Store): JobEvents => new WebhookEvents({ store, queue: awsWebhookQueue(), clock: systemClock });
