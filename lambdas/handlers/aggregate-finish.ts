import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import { compose, aggregateFinishDeps } from '../adapters/compose.ts';
import { aggregateFinish, type FinishDeps, type FinishEvent } from '../core/aggregate.ts';

/** The aggregation state machine's final task: merge, store, set the terminal status, announce. */
export const makeHandler = (deps: FinishDeps) => (event: FinishEvent) => aggregateFinish(deps, event);

export const handler = onColdStart(() => makeHandler(aggregateFinishDeps(compose({ jobs: dynamo.jobs, quotas: dynamo.quotas, blobs: s3.blobs, eventClaims: dynamo.eventClaims, webhooks: dynamo.webhooks, webhookQueue: sqs.webhookQueue }))));
