import { awsStore } from '../adapters/aws-dynamodb.ts';
import { awsBlobs } from '../adapters/aws-s3.ts';
import { awsAggregation } from '../adapters/aws-sfn.ts';
import { awsJobEvents } from '../adapters/aws-sqs.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { authenticate } from '../core/auth.ts';
import { cancelJob } from '../core/cancel.ts';
import { header, route, sourceIp } from '../core/http.ts';
import { systemClock, type AggregationStarter, type Blobs, type Clock, type JobEvents, type Store } from '../core/ports.ts';

/** POST /v1/jobs/{id}/cancel: stops an unfinished job and announces job.cancelled. */
export const makeHandler = (deps: { store: Store; blobs: Blobs; clock: Clock; events: JobEvents; aggregation?: AggregationStarter }) =>
  route(async (event) => {
    const principal = await authenticate(deps.store, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 200, body: await cancelJob(deps, principal, event.pathParameters?.id ?? '') };
  });

export const handler = onColdStart(() => {
  const store = awsStore();
  return makeHandler({
    store,
    blobs: awsBlobs(),
    clock: systemClock,
    events: awsJobEvents(store),
    aggregation: awsAggregation(),
  });
});
