import { awsTable } from '../adapters/aws-dynamodb.ts';
import { awsBucket } from '../adapters/aws-s3.ts';
import { awsQueues } from '../adapters/aws-sqs.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { compose } from '../adapters/compose.ts';
import { aggregateFailed, type FailedEvent, type FinishDeps } from '../core/aggregate.ts';

/** The aggregation state machine's catch step: fails a job whose merge failed after its retries, and announces it. */
export const makeHandler = (deps: FinishDeps) => (event: FailedEvent) => aggregateFailed(deps, event);

export const handler = onColdStart(() => makeHandler(compose({ ...awsTable, ...awsBucket, ...awsQueues })['aggregate-fail']()));
