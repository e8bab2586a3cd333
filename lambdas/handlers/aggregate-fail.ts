import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import { compose, aggregateFailDeps } from '../adapters/compose.ts';
import { aggregateFailed, type FailedEvent, type FinishDeps } from '../core/aggregate.ts';

/** The aggregation state machine's catch step: fails a job whose merge failed after its retries, and announces it. */
export const makeHandler = (deps: FinishDeps) => (event: FailedEvent) => aggregateFailed(deps, event);

export const handler = onColdStart(() => makeHandler(aggregateFailDeps(compose({ jobs: dynamo.jobs, quotas: dynamo.quotas, blobs: s3.blobs, eventClaims: dynamo.eventClaims, webhooks: dynamo.webhooks, webhookQueue: sqs.webhookQueue }))));
