import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import * as sqs from '../adapters/aws-sqs.ts';
import * as hooks from '../adapters/aws-webhooks.ts';
import { compose, submitDeps } from '../adapters/compose.ts';
import { authenticate } from '../core/auth.ts';
import { header, requestBody, route, sourceIp } from '../core/http.ts';
import type { KeyLookup } from '../core/ports.ts';
import { parseSubmission } from '../core/submission-form.ts';
import { submitJobs, type SubmitDeps } from '../core/submit.ts';
import type { WebhookIntake } from '../core/webhook-target.ts';
import { countPagesWithin } from '../extract/engine/page-count.ts';
import { formatNamed } from '../extract/engine/registry.ts';

/** POST /v1/extract: one job per file part, pages reserved first. */
export const makeHandler = (deps: SubmitDeps & { keys: KeyLookup; webhookPolicy: WebhookIntake }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    const submission = await parseSubmission(requestBody(event), header(event, 'content-type'), deps.webhookPolicy, principal.project_id);
    return { status: 202, body: await submitJobs(deps, principal, submission) };
  });

export const handler = onColdStart(() =>
  makeHandler(
    submitDeps(compose({
      keys: dynamo.keys,
      jobs: dynamo.jobs,
      quotas: dynamo.quotas,
      blobs: s3.blobs,
      extractionQueue: sqs.extractionQueue,
      webhookIntake: hooks.webhookIntake,
      // A Lambda serves one request at a time: the budget alone keeps a hostile document from costing more than this request.
      countPages: () => async (upload) => countPagesWithin({ bytes: upload.bytes, filename: upload.filename, contentType: upload.contentType }),
      // The registry is here already, for counting.
      formatNames: () => formatNamed,
    })),
  ),
);
