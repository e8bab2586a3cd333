import { DOCUMENT_ATTRIBUTE } from '../../lambdas/adapters/sqs-extraction-queue.ts';
import type { ExtractionMessage, ExtractionQueue } from '../../lambdas/core/ports.ts';
import type { QueueTwin } from './sqs-twin.ts';

/** The extraction queue port over the SQS twin, carrying inline documents exactly as the SQS adapter does. */
export class TwinExtractionQueue implements ExtractionQueue {
  constructor(private readonly queue: QueueTwin) {}

  async send(message: ExtractionMessage, inlineDocument: Uint8Array | null, delaySeconds?: number): Promise<void> {
    await this.queue.send({
      body: JSON.stringify(message),
      delaySeconds,
      attributes: inlineDocument?.byteLength ? { [DOCUMENT_ATTRIBUTE]: { DataType: 'Binary', BinaryValue: inlineDocument } } : undefined,
    });
  }
}
