import { awsStore } from '../adapters/aws-dynamodb.ts';
import { awsUploadUrls } from '../adapters/aws-s3.ts';
import { awsExtractionQueue } from '../adapters/aws-sqs.ts';
import { awsWebhookIntake } from '../adapters/aws-webhooks.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { authenticate } from '../core/auth.ts';
import { header, requestBody, route, sourceIp } from '../core/http.ts';
import { systemClock } from '../core/ports.ts';
import { createUpload, type UploadDeps } from '../core/uploads.ts';

/** POST /v1/uploads: a job awaiting its document, and the presigned URL to PUT it to. */
export const makeHandler = (deps: UploadDeps) =>
  route(async (event) => {
    const principal = await authenticate(deps.store, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 201, body: await createUpload(deps, principal, requestBody(event).toString('utf8')) };
  });

export const handler = onColdStart(() =>
  makeHandler({ store: awsStore(), queue: awsExtractionQueue(), urls: awsUploadUrls(), clock: systemClock, intake: awsWebhookIntake() }),
);
