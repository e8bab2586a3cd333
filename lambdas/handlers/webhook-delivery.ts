import type { SQSRecord } from 'aws-lambda';
import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import * as hooks from '../adapters/aws-webhooks.ts';
import { compose, webhookDeliveryDeps } from '../adapters/compose.ts';
import type { MessageVisibility, WebhookMessage } from '../core/ports.ts';
import { consumeBatch, receiveCountOf } from '../core/sqs-batch.ts';
import { deliverWebhookEvent, type DeliveryDeps } from '../core/webhook-delivery.ts';

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
  consumeBatch({
    what: 'webhook',
    parse: parseMessage,
    describe: (message) => ({ event_id: message.event_id }),
    handle: async (message, record) => {
      const next = await deliverWebhookEvent(deps, message, receiveCountOf(record));
      if (next.action === 'done') return false;
      await deps.visibility.change(record.receiptHandle, next.seconds, record.eventSourceARN);
      return true;
    },
  });


export const handler = onColdStart(() => makeHandler(webhookDeliveryDeps(compose({ jobs: dynamo.jobs, webhooks: dynamo.webhooks, deliveries: dynamo.deliveries, webhookCipher: hooks.webhookCipher, deliverySender: hooks.deliverySender, visibility: sqs.visibility }))));
