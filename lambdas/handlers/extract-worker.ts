import type { SQSRecord } from 'aws-lambda';
import { functions } from '../../lib/wiring.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import { compose, extractWorkerDeps } from '../adapters/compose.ts';
import { DOCUMENT_ATTRIBUTE } from '../adapters/sqs-extraction-queue.ts';
import { processJob, type WorkerDeps } from '../core/process-job.ts';
import type { ExtractionMessage } from '../core/ports.ts';
import { consumeBatch, receiveCountOf } from '../core/sqs-batch.ts';
import { uploadDeadline } from '../core/uploads.ts';
import { createExtractorPool } from '../extract/engine/pool.ts';


function parseMessage(record: SQSRecord): ExtractionMessage | null {
  try {
    const body = JSON.parse(record.body) as Partial<ExtractionMessage>;
    if (typeof body.job_id !== 'string' || typeof body.project_id !== 'string') return null;
    return { job_id: body.job_id, project_id: body.project_id, ...(body.kind === 'upload_deadline' ? { kind: body.kind } : {}) };
  } catch {
    return null;
  }
}

const inlineDocument = (record: SQSRecord) => {
  const value = record.messageAttributes[DOCUMENT_ATTRIBUTE]?.binaryValue;
  return value ? Buffer.from(value, 'base64') : null;
};

/** SQS consumer of the extraction queue, reporting partial batch failures so only failed records come back. */
export const makeHandler = (deps: WorkerDeps & { maxReceiveCount: number }) =>
  consumeBatch({
    what: 'extraction',
    parse: parseMessage,
    describe: (message) => ({ job_id: message.job_id }),
    handle: async (message, record) => {
      // A deadline whose upload did arrive (its storage event was lost) extracts the job right here.
      if (message.kind === 'upload_deadline' && !(await uploadDeadline(deps, message.job_id))) return;
      await processJob(deps, message, inlineDocument(record), { receiveCount: receiveCountOf(record), maxReceiveCount: deps.maxReceiveCount });
    },
  });


const spec = functions['extract-worker'];
export const handler = onColdStart(() =>
  makeHandler(
    extractWorkerDeps(compose({
      jobs: dynamo.jobs,
      quotas: dynamo.quotas,
      blobs: s3.blobs,
      eventClaims: dynamo.eventClaims,
      webhooks: dynamo.webhooks,
      webhookQueue: sqs.webhookQueue,
      chunkQueue: sqs.chunkQueue,
      // One isolated worker thread per container: the parser can be killed on a
      // deadline below the Lambda timeout, so the job fails cleanly instead of timing out the function.
      engine: () => createExtractorPool({ size: 1, timeoutMs: (spec.timeoutSeconds - 20) * 1000, maxMemoryMb: Math.floor(spec.memoryMb * 0.7) }),
    })),
  ),
);
