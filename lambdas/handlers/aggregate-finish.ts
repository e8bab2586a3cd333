import { awsStore } from '../adapters/aws-dynamodb.ts';
import { awsBlobs } from '../adapters/aws-s3.ts';
import { awsJobEvents } from '../adapters/aws-sqs.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { logJson } from '../core/log.ts';
import { aggregateFinish, type FinishDeps, type FinishEvent } from '../core/aggregate.ts';
import { systemClock } from '../core/ports.ts';


/** The aggregation state machine's final task: merge, store, set the terminal status, announce. */
export const makeHandler = (deps: FinishDeps) => (event: FinishEvent) => aggregateFinish(deps, event);

export const handler = onColdStart(() => {
  const store = awsStore();
  return makeHandler({ store, blobs: awsBlobs(), clock: systemClock, events: awsJobEvents(store), log: logJson });
});
