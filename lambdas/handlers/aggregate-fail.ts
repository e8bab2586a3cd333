import { awsStore } from '../adapters/aws-dynamodb.ts';
import { awsBlobs } from '../adapters/aws-s3.ts';
import { awsJobEvents } from '../adapters/aws-sqs.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { aggregateFailed, type FailedEvent, type FinishDeps } from '../core/aggregate.ts';
import { logJson } from '../core/log.ts';
import { systemClock } from '../core/ports.ts';

/** The aggregation state machine's catch step: fails a job whose merge failed after its retries, and announces it. */
export const makeHandler = (deps: FinishDeps) => (event: FailedEvent) => aggregateFailed(deps, event);

export const handler = onColdStart(() => {
  const store = awsStore();
  return makeHandler({ store, blobs: awsBlobs(), clock: systemClock, events: awsJobEvents(store), log: logJson });
});
