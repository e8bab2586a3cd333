import type { ChunkMessage, ChunkQueue } from '../../lambdas/core/ports.ts';
import type { QueueTwin } from './sqs-twin.ts';

/** The chunk queue port over the SQS twin: one message per chunk, as the SQS adapter sends them. */
export class TwinChunkQueue implements ChunkQueue {
  constructor(private readonly queue: QueueTwin) {}

  async send(messages: ChunkMessage[]): Promise<void> {
    for (const message of messages) await this.queue.send({ body: JSON.stringify(message) });
  }
}
