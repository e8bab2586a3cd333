import type { SQSRecord } from 'aws-lambda';
import { functions } from '../../lib/wiring.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sfn from '../adapters/aws-sfn.ts';
import { compose, chunkWorkerDeps } from '../adapters/compose.ts';
import { processChunk, type ChunkWorkerDeps } from '../core/large-document.ts';
import { consumeBatch, receiveCountOf } from '../core/sqs-batch.ts';
import type { ChunkMessage } from '../core/ports.ts';
import { createExtractorPool } from '../extract/engine/pool.ts';


function parseMessage(record: SQSRecord): ChunkMessage | null {
  try {
    const body = JSON.parse(record.body) as Partial<ChunkMessage>;
    if (typeof body.job_id !== 'string' || typeof body.project_id !== 'string' || !Number.isInteger(body.index)) return null;
    // A run that is not one reads the whole file instead, as a chunk planned without runs does.
    const run = Array.isArray(body.run) && body.run.length >= 3 && body.run.every(Number.isInteger) ? body.run : undefined;
    return { job_id: body.job_id, project_id: body.project_id, index: body.index!, ...(run ? { run } : {}) };
  } catch {
    return null;
  }
}

/** SQS consumer of the chunk queue, reporting partial batch failures so only failed records come back. */
export const makeHandler = (deps: ChunkWorkerDeps & { maxReceiveCount: number }) =>
  consumeBatch({
    what: 'chunk',
    parse: parseMessage,
    describe: (message) => ({ job_id: message.job_id, index: message.index }),
    handle: (message, record) => processChunk(deps, message, { receiveCount: receiveCountOf(record), maxReceiveCount: deps.maxReceiveCount }),
  });

const spec = functions['chunk-worker'];
export const handler = onColdStart(() =>
  makeHandler(
    chunkWorkerDeps(compose({
      jobs: dynamo.jobs,
      blobs: s3.blobs,
      aggregation: sfn.aggregation,
      // As in the extraction worker: the parser runs in a thread that a deadline below the Lambda timeout can kill.
      engine: () => createExtractorPool({ size: 1, timeoutMs: (spec.timeoutSeconds - 20) * 1000, maxMemoryMb: Math.floor(spec.memoryMb * 0.7) }),
    })),
  ),
);
