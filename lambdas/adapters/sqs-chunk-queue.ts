import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ChunkMessage, ChunkQueue } from '../core/ports.ts';

/** SendMessageBatch takes at most 10 entries. */
const BATCH = 10;

/** The chunk queue: one message per chunk, so SQS owns retries, concurrency and the DLQ of the fan-out. */
export class SqsChunkQueue implements ChunkQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(messages: ChunkMessage[]): Promise<void> {
    for (let i = 0; i < messages.length; i += BATCH) {
      const batch = messages.slice(i, i + BATCH);
      const answer = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
        }),
      );
      // A partly refused batch throws, so the extraction message is redelivered and the fan-out finished then.
      if (answer.Failed?.length) {
        throw new Error(`SQS refused ${answer.Failed.length} chunk messages: ${answer.Failed.map((f) => f.Message ?? f.Code).join('; ')}`);
      }
    }
  }
}
