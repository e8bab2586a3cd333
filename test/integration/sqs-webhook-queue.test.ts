import { CreateQueueCommand, DeleteQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqsMessageVisibility, SqsWebhookQueue } from '../../lambdas/adapters/sqs-webhook-queue.ts';
import type { WebhookMessage } from '../../lambdas/core/ports.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';

// Only an AWS-compatible endpoint has SQS; the local twin is covered by test/integration/webhooks.test.ts.
describe.skipIf(!targetsAws() || skipWithoutEndpoint())('the SQS webhook queue', () => {
  const sqs = new SQSClient({});
  let queueUrl: string;
  let queueArn: string;

  beforeAll(async () => {
    queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `docex-test-${randomUUID().slice(0, 8)}`, Attributes: { VisibilityTimeout: '60' } }))).QueueUrl!;
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }));
    queueArn = Attributes!.QueueArn!;
  });
  afterAll(async () => {
    if (queueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    sqs.destroy();
  });

  const receive = async (wait = 1) =>
    (await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: wait, MaxNumberOfMessages: 1, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }))).Messages ?? [];

  it('sends the event and moves its visibility by the ARN the consumer was given', async () => {
    const message: WebhookMessage = {
      event_id: 'evt_1',
      event: 'job.failed',
      job_id: randomUUID(),
      project_id: randomUUID(),
      status: 'failed',
      error_message: 'bad file',
      target: { kind: 'inline' },
    };
    await new SqsWebhookQueue(sqs, queueUrl).send(message);
    const [first] = await receive(5);
    expect(JSON.parse(first!.Body!)).toEqual(message);

    // Visible again at once: the next receive is attempt 2.
    await new SqsMessageVisibility(sqs).change(first!.ReceiptHandle!, 0, queueArn);
    const [second] = await receive(5);
    expect(second?.Attributes?.ApproximateReceiveCount).toBe('2');

    // Hidden for the wait before the next attempt.
    await new SqsMessageVisibility(sqs).change(second!.ReceiptHandle!, 30, queueArn);
    expect(await receive(1)).toHaveLength(0);
  });
});
