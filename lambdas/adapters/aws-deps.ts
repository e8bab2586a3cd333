// The production wiring of ports to AWS, read from the environment the stack
// sets (lib/wiring.ts). Used by the default `handler` export of each Lambda.

import { env, type QueueName } from '../../lib/wiring.ts';
import { dynamoClient, kmsClient, requiredEnv, s3Client, sfnClient, sqsClient } from './aws-clients.ts';
import { SfnAggregationStarter } from './sfn-aggregation.ts';
import { SqsChunkQueue } from './sqs-chunk-queue.ts';
import { KmsSecretCipher } from './kms-secret-cipher.ts';
import { DynamoStore } from './dynamo-store.ts';
import { S3Blobs } from './s3-blobs.ts';
import { S3UploadUrls } from './s3-upload-urls.ts';
import { SqsExtractionQueue } from './sqs-extraction-queue.ts';
import { SqsMessageVisibility, SqsWebhookQueue } from './sqs-webhook-queue.ts';
import { createWebhookSender, systemLookupHost } from './webhook-http.ts';
import { systemClock, type JobEvents, type Store } from '../core/ports.ts';
import { WebhookEvents } from '../core/webhook-events.ts';
import type { WebhookIntake } from '../core/webhook-target.ts';

export const awsStore = () => new DynamoStore(dynamoClient(), requiredEnv(env.table));
export const awsBlobs = () => new S3Blobs(s3Client(), requiredEnv(env.bucket));
export const awsUploadUrls = () => new S3UploadUrls(s3Client(), requiredEnv(env.bucket));
export const awsExtractionQueue = (queue: QueueName = 'extraction') => new SqsExtractionQueue(sqsClient(), requiredEnv(env.queueUrl(queue)));

export const awsChunkQueue = () => new SqsChunkQueue(sqsClient(), requiredEnv(env.queueUrl('chunks')));
export const awsAggregation = () => new SfnAggregationStarter(sfnClient(), requiredEnv(env.aggregationStateMachineArn));
/** Terminal jobs announced to their webhooks through the webhooks queue. */
export const awsJobEvents = (store: Store): JobEvents => new WebhookEvents({ store, queue: awsWebhookQueue(), clock: systemClock });
export const awsWebhookQueue = () => new SqsWebhookQueue(sqsClient(), requiredEnv(env.queueUrl('webhooks')));
export const awsMessageVisibility = () => new SqsMessageVisibility(sqsClient());
export const awsSecretCipher = () => new KmsSecretCipher(kmsClient(), requiredEnv(env.webhookKeyId));
/** In the cloud a webhook is https:// to a public address, nothing else. */
export const awsWebhookIntake = (): WebhookIntake => ({ allowLoopbackHttp: false, lookupHost: systemLookupHost, cipher: awsSecretCipher() });
export const awsWebhookSender = () => createWebhookSender({ allowLoopback: false });

/**
 * Builds a handler on its first invocation and keeps it for the life of the
 * container, so clients are created once, and importing a handler module
 * (tests, the local server) needs no environment.
 */
export function onColdStart<E, R>(build: () => (event: E) => Promise<R>): (event: E) => Promise<R> {
  let built: ((event: E) => Promise<R>) | undefined;
  return (event) => (built ??= build())(event);
}
