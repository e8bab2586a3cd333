import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import * as sfn from '../adapters/aws-sfn.ts';
import { compose, cancelJobDeps } from '../adapters/compose.ts';
import { authenticate } from '../core/auth.ts';
import { cancelJob } from '../core/cancel.ts';
import { header, route, sourceIp } from '../core/http.ts';
import type { AggregationStarter, Blobs, Clock, JobEvents, Jobs, KeyLookup, Quotas } from '../core/ports.ts';

/** POST /v1/jobs/{id}/cancel: stops an unfinished job and announces job.cancelled. */
export const makeHandler = (deps: { keys: KeyLookup; jobs: Jobs; quotas: Quotas; blobs: Blobs; clock: Clock; events: JobEvents; aggregation?: AggregationStarter }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 200, body: await cancelJob(deps, principal, event.pathParameters?.id ?? '') };
  });

export const handler = onColdStart(() => makeHandler(cancelJobDeps(compose({ keys: dynamo.keys, jobs: dynamo.jobs, quotas: dynamo.quotas, blobs: s3.blobs, eventClaims: dynamo.eventClaims, webhooks: dynamo.webhooks, webhookQueue: sqs.webhookQueue, aggregation: sfn.aggregation }))));
