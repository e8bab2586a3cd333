import type { S3Event } from 'aws-lambda';
import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import { compose, uploadArrivedDeps } from '../adapters/compose.ts';
import { uploadArrived, type ArrivalDeps } from '../core/uploads.ts';
import { countPagesWithin } from '../extract/engine/page-count.ts';
import { formatNamed } from '../extract/engine/registry.ts';

/** The bucket's object-created event for uploads/: moves the waiting job on. Throwing lets Lambda retry the event. */
export const makeHandler = (deps: ArrivalDeps) => async (event: S3Event): Promise<void> => {
  for (const record of event.Records) {
    // S3 event keys are URL-encoded, with spaces as '+'.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    await uploadArrived(deps, key, record.s3.object.size);
  }
};

export const handler = onColdStart(() =>
  makeHandler(uploadArrivedDeps(compose({ jobs: dynamo.jobs, quotas: dynamo.quotas, blobs: s3.blobs, extractionQueue: sqs.extractionQueue, eventClaims: dynamo.eventClaims, webhooks: dynamo.webhooks, webhookQueue: sqs.webhookQueue, countPages: () => async (input) => countPagesWithin(input), formatNames: () => formatNamed }))),
);
