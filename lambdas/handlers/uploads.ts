import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import * as hooks from '../adapters/aws-webhooks.ts';
import { compose, uploadsDeps } from '../adapters/compose.ts';
import { authenticate } from '../core/auth.ts';
import { header, requestBody, route, sourceIp } from '../core/http.ts';
import type { KeyLookup } from '../core/ports.ts';
import { createUpload, type UploadDeps } from '../core/uploads.ts';

/** POST /v1/uploads: a job awaiting its document, and the presigned URL to PUT it to. */
export const makeHandler = (deps: UploadDeps & { keys: KeyLookup }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 201, body: await createUpload(deps, principal, requestBody(event).toString('utf8')) };
  });

export const handler = onColdStart(() => makeHandler(uploadsDeps(compose({ keys: dynamo.keys, jobs: dynamo.jobs, quotas: dynamo.quotas, extractionQueue: sqs.extractionQueue, uploadUrls: s3.uploadUrls, webhookIntake: hooks.webhookIntake }))));
