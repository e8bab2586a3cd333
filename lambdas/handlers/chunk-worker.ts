import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { functions, queues } from '../../lib/wiring.ts';
import { awsAggregation, awsBlobs, awsStore, onColdStart } from '../adapters/aws-deps.ts';
import { processChunk, type ChunkWorkerDeps } from '../core/large-document.ts';
import { systemClock, type ChunkMessage } from '../core/ports.ts';
import { createExtractorPool } from '../extract/pool.ts';

const log = (message: string, fields: Record<string, unknown> = {}) => console.log(JSON.stringify({ message, ...fields }));

function parseMessage(record: SQSRecord): ChunkMessage | null {
  try {
    const body = JSON.parse(record.body) as Partial<ChunkMessage>;
    if (typeof body.job_id !== 'string' || typeof body.project_id !== 'string' || !Number.isInteger(body.index)) return null;
    return { job_id: body.job_id, project_id: body.project_id, index: body.index! };
  } catch {
    return null;
  }
}

/** SQS consumer of the chunk queue, reporting partial batch failures so only failed records come back. */
export const makeHandler = (deps: ChunkWorkerDeps & { maxReceiveCount: number }) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const message = parseMessage(record);
        if (!message) return log('dropping malformed chunk message', { messageId: record.messageId });
        const receiveCount = Number(record.attributes.ApproximateReceiveCount);
        try {
          await processChunk(deps, message, { receiveCount, maxReceiveCount: deps.maxReceiveCount });
        } catch (error) {
          log('chunk attempt failed; SQS will redeliver', { job_id: message.job_id, index: message.index, receiveCount, error: String(error) });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };

const spec = functions['chunk-worker'];
export const handler = onColdStart(() =>
  makeHandler({
    store: awsStore(),
    blobs: awsBlobs(),
    clock: systemClock,
    aggregation: awsAggregation(),
    // As in the extraction worker: the parser runs in a thread that a deadline below the Lambda timeout can kill.
    extractor: createExtractorPool({ size: 1, timeoutMs: (spec.timeoutSeconds - 20) * 1000, maxMemoryMb: Math.floor(spec.memoryMb * 0.7) }),
    log,
    maxReceiveCount: queues.chunks.maxReceiveCount,
  }),
);
