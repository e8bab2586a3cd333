import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ExtractionMessage, ExtractionQueue } from '../core/ports.ts';

/** Name of the binary message attribute that carries an inline document (counted raw against the 1 MiB limit). */
export const DOCUMENT_ATTRIBUTE = 'document';

export class SqsExtractionQueue implements ExtractionQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: ExtractionMessage, inlineDocument: Uint8Array | null, delaySeconds?: number): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        DelaySeconds: delaySeconds,
        MessageAttributes: inlineDocument?.byteLength
          ? { [DOCUMENT_ATTRIBUTE]: { DataType: 'Binary', BinaryValue: inlineDocument } }
          : undefined,
      }),
    );
  }
}
