import { ChangeMessageVisibilityCommand, GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { MessageVisibility, WebhookMessage, WebhookQueue } from '../core/ports.ts';

export class SqsWebhookQueue implements WebhookQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: WebhookMessage): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}

/**
 * Changes the visibility of a message of the queue an SQS event record came
 * from. The queue is known by the record's ARN; its URL is asked of SQS once
 * (GetQueueUrl, part of consuming a queue's grant) rather than built from the
 * ARN, because the SDK sends a request to the host of its QueueUrl: a URL
 * built for AWS would leave LocalStack and moto for the real thing.
 */
export class SqsMessageVisibility implements MessageVisibility {
  private readonly urls = new Map<string, Promise<string>>();

  constructor(private readonly sqs: SQSClient) {}

  async change(receiptHandle: string, seconds: number, queueArn: string): Promise<void> {
    const queueUrl = await this.urlOf(queueArn);
    await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
  }

  private urlOf(arn: string): Promise<string> {
    let url = this.urls.get(arn);
    if (!url) {
      const [, , service, , account, name] = arn.split(':');
      if (service !== 'sqs' || !account || !name) throw new Error(`not an SQS queue ARN: ${arn}`);
      url = this.sqs.send(new GetQueueUrlCommand({ QueueName: name, QueueOwnerAWSAccountId: account })).then(({ QueueUrl }) => {
        if (!QueueUrl) throw new Error(`SQS returned no URL for ${arn}`);
        return QueueUrl;
      });
      url.catch(() => this.urls.delete(arn));
      this.urls.set(arn, url);
    }
    return url;
  }
}
