// The shape every SQS consumer shares: records run side by side, a body that
// is not ours is dropped (it could never succeed, so it must not cycle to the
// DLQ), and only the records that must come back are reported in
// batchItemFailures (Lambda's ReportBatchItemFailures).

import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logJson } from './log.ts';


export interface BatchConsumer<M> {
  /** What the queue carries, for the log lines ("extraction", "chunk", "webhook"). */
  what: string;
  parse(record: SQSRecord): M | null;
  /** Resolves true when the record must come back later; throws when our side failed (SQS redelivers after the visibility timeout). */
  handle(message: M, record: SQSRecord): Promise<boolean | void>;
  /** Fields that identify a message in the log. */
  describe(message: M): Record<string, unknown>;
}

export const receiveCountOf = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount);

export function consumeBatch<M>(consumer: BatchConsumer<M>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const message = consumer.parse(record);
        if (!message) return logJson(`dropping malformed ${consumer.what} message`, { messageId: record.messageId });
        try {
          if (await consumer.handle(message, record)) failed.push(record.messageId);
        } catch (error) {
          logJson(`${consumer.what} attempt failed; SQS will redeliver`, { ...consumer.describe(message), receiveCount: receiveCountOf(record), error: String(error) });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
