import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_ATTRIBUTE, SqsExtractionQueue } from '../../lambdas/adapters/sqs-extraction-queue.ts';
import { limits } from '../../lambdas/core/limits.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';

// Only an AWS-compatible endpoint has SQS; the in-process run covers the
// local twin of SQS in test/unit/sqs-twin.test.ts instead.
describe.skipIf(!targetsAws() || skipWithoutEndpoint())('the SQS inline document carrier', () => {
  const sqs = new SQSClient({});
  let queueUrl: string;

  beforeAll(async () => {
    queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `docex-test-${randomUUID().slice(0, 8)}` }))).QueueUrl!;
  });
  afterAll(async () => {
    if (queueUrl) await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
    sqs.destroy();
  });

  it('carries a document of the full inline size byte-exact as a binary attribute', async () => {
    const document = randomBytes(limits.inlineDocumentBytes);
    await new SqsExtractionQueue(sqs, queueUrl).send({ job_id: 'j', project_id: 'p' }, document);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MessageAttributeNames: ['All'], WaitTimeSeconds: 5, MaxNumberOfMessages: 1 }),
    );
    expect(Messages).toHaveLength(1);
    expect(JSON.parse(Messages[0]!.Body!)).toEqual({ job_id: 'j', project_id: 'p' });
    const carried = Messages[0]!.MessageAttributes?.[DOCUMENT_ATTRIBUTE]?.BinaryValue;
    expect(Buffer.from(carried!).equals(document)).toBe(true);
  });
});
