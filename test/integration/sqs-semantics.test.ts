import {
  ChangeMessageVisibilityCommand,
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sqsClient } from '../../lambdas/adapters/aws-clients.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';

// The SQS behaviour docex leans on (DESIGN.md section 3): delays, visibility
// as the retry clock, and redrive to a DLQ after maxReceiveCount. The local
// twin copies these semantics (test/unit/sqs-twin.test.ts); this suite checks
// them where they come from: moto, LocalStack or AWS itself.
describe.skipIf(!targetsAws() || skipWithoutEndpoint())('SQS semantics docex relies on', () => {
  const sqs = sqsClient();
  const created: string[] = [];

  afterAll(async () => {
    await Promise.all(created.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl }))));
    sqs.destroy();
  });

  async function queue(attributes: Record<string, string> = {}): Promise<{ url: string; arn: string }> {
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `docex-test-${randomUUID().slice(0, 8)}`, Attributes: attributes }));
    created.push(QueueUrl!);
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    return { url: QueueUrl!, arn: Attributes!.QueueArn! };
  }

  const receive = async (url: string, waitSeconds = 0): Promise<Message[]> =>
    (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: waitSeconds, MaxNumberOfMessages: 1, MessageSystemAttributeNames: ['ApproximateReceiveCount'] })))
      .Messages ?? [];

  /** Receives until a message arrives or `seconds` pass. */
  async function receiveWithin(url: string, seconds: number): Promise<{ message: Message | undefined; afterMs: number }> {
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      const [message] = await receive(url, 1);
      if (message) return { message, afterMs: Date.now() - started };
    }
    return { message: undefined, afterMs: Date.now() - started };
  }

  it('holds a message sent with DelaySeconds back until the delay has passed', async () => {
    const { url } = await queue();
    const sentAt = Date.now();
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'later', DelaySeconds: 2 }));
    expect(await receive(url)).toEqual([]);
    const { message } = await receiveWithin(url, 10);
    expect(message?.Body).toBe('later');
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1900);
  });

  it('redelivers a received message as soon as its visibility is changed to 0, counting the receive', async () => {
    const { url } = await queue({ VisibilityTimeout: '60' });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'retry me' }));
    const [first] = await receive(url, 2);
    expect(first?.Attributes?.ApproximateReceiveCount).toBe('1');
    // Still in flight for a minute: nobody else gets it.
    expect(await receive(url)).toEqual([]);
    await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first!.ReceiptHandle!, VisibilityTimeout: 0 }));
    const { message: again } = await receiveWithin(url, 5);
    expect(again?.MessageId).toBe(first!.MessageId);
    expect(again?.Attributes?.ApproximateReceiveCount).toBe('2');
  });

  it('keeps a message hidden for the visibility it was extended to', async () => {
    const { url } = await queue({ VisibilityTimeout: '1' });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'slow work' }));
    const [first] = await receive(url, 2);
    // A worker that needs longer extends its hold, as the webhook backoff does with its waits.
    await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first!.ReceiptHandle!, VisibilityTimeout: 4 }));
    const { message, afterMs } = await receiveWithin(url, 10);
    expect(message?.MessageId).toBe(first!.MessageId);
    expect(afterMs).toBeGreaterThanOrEqual(2500);
  });

  it('moves a message to the DLQ after maxReceiveCount receives', async () => {
    const dlq = await queue();
    const maxReceiveCount = 2;
    const { url } = await queue({
      VisibilityTimeout: '1',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount }),
    });
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'poison' }));

    const counts: string[] = [];
    for (let i = 0; i < maxReceiveCount; i++) {
      const { message } = await receiveWithin(url, 10);
      counts.push(message!.Attributes!.ApproximateReceiveCount!);
      // Fail fast, as a consumer that reports a batch item failure and lets visibility lapse.
      await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: message!.ReceiptHandle!, VisibilityTimeout: 0 }));
    }
    expect(counts).toEqual(['1', '2']);

    // The next receive attempt finds the count spent and moves the message instead of delivering it.
    expect((await receiveWithin(url, 3)).message).toBeUndefined();
    const { message: dead } = await receiveWithin(dlq.url, 10);
    expect(dead?.Body).toBe('poison');
  });
});
