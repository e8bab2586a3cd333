import { awsTable } from '../adapters/aws-dynamodb.ts';
import { awsBucket } from '../adapters/aws-s3.ts';
import { awsQueues } from '../adapters/aws-sqs.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { compose } from '../adapters/compose.ts';
import { aggregateFinish, type FinishDeps, type FinishEvent } from '../core/aggregate.ts';

/** The aggregation state machine's final task: merge, store, set the terminal status, announce. */
export const makeHandler = (deps: FinishDeps) => (event: FinishEvent) => aggregateFinish(deps, event);

export const handler = onColdStart(() => makeHandler(compose({ ...awsTable, ...awsBucket, ...awsQueues })['aggregate-finish']()));
