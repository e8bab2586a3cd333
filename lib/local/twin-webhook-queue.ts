import type { MessageVisibility, WebhookMessage, WebhookQueue } from '../../lambdas/core/ports.ts';
import type { QueueTwin } from './sqs-twin.ts';

/** The webhooks queue port over the SQS twin, with the same body as the SQS adapter sends. */
export class TwinWebhookQueue implements WebhookQueue {
  constructor(private readonly queue: QueueTwin) {}

  async send(message: WebhookMessage): Promise<void> {
    await this.queue.send({ body: JSON.stringify(message) });
  }
}

/** ChangeMessageVisibility on the twin that the record's ARN names (the twin scales the wait by DOCEX_TIME_SCALE). */
export class TwinMessageVisibility implements MessageVisibility {
  private readonly byArn: Map<string, QueueTwin>;

  constructor(queues: QueueTwin[]) {
    this.byArn = new Map(queues.map((q) => [q.arn, q]));
  }

  async change(receiptHandle: string, seconds: number, queueArn: string): Promise<void> {
    const queue = this.byArn.get(queueArn);
    if (!queue) throw new Error(`no local queue with ARN ${queueArn}`);
    await queue.changeVisibility(receiptHandle, seconds);
  }
}
