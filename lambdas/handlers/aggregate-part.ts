import { onColdStart } from '../adapters/cold-start.ts';
import * as s3 from '../adapters/aws-s3.ts';
import { compose, aggregatePartDeps } from '../adapters/compose.ts';
import { aggregatePart, type BatchSummary, type PartEvent } from '../core/aggregate.ts';
import type { Blobs } from '../core/ports.ts';

/** The aggregation state machine's Map task (Lambda invoked by Step Functions with the item as its event). */
export const makeHandler = (deps: { blobs: Blobs }) => (event: PartEvent): Promise<BatchSummary> => aggregatePart(deps, event);

export const handler = onColdStart(() => makeHandler(aggregatePartDeps(compose({ blobs: s3.blobs }))));
