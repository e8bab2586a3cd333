import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { awsMessageVisibility, awsSecretCipher, awsStore, awsWebhookSender, onColdStart } from '../adapters/aws-deps.ts';
import { systemClock, type MessageVisibility, type WebhookMessage } from '../core/ports.ts';
import { deliverWebhookEvent, type DeliveryDeps } from '../core/webhook-delivery.ts';

const log = (message: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ message, ...fields }));

function parseMessage(record: SQSRecord): WebhookMessage | null {
  try {
    const body = JSON.parse(record.body) as Partial<WebhookMessage>;
    return typeof body.event_id === 'string' && typeof body.job_id === 'string' && typeof body.project_id === 'string' && body.target
      ? (body as WebhookMessage)
      : null;
  } catch {
    return null;
  }
}

/**
 * Consumer of the webhooks queue. A failed attempt hides its message for the
 * wait before the next one and is reported in batchItemFailures, so SQS brings
 * it back then, with the receive count as the next attempt number.
 */
export const makeHandler = (deps: DeliveryDeps & { visibility: MessageVisibility }) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const message = parseMessage(record);
        if (!message) return log('dropping malformed webhook message', { messageId: record.messageId });
        const attempt = Number(record.attributes.ApproximateReceiveCount);
        try {
          const next = await deliverWebhookEvent(deps, message, attempt);
          if (next.action === 'done') return;
          await deps.visibility.change(record.receiptHandle, next.seconds, record.eventSourceARN);
          failed.push(record.messageId);
        } catch (error) {
          // Our side failed (store, KMS): the message comes back after the queue's visibility timeout.
          log('webhook delivery could not run; SQS will redeliver', { event_id: message.event_id, attempt, error: String(error) });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };

export const handler = onColdStart(() =>
  makeHandler({
    store: awsStore(),
    cipher: awsSecretCipher(),
    sender: awsWebhookSender(),
    clock: systemClock,
    visibility: awsMessageVisibility(),
  }),
);
