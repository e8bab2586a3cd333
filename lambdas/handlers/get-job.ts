import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import { compose, getJobDeps } from '../adapters/compose.ts';
import { authenticate } from '../core/auth.ts';
import { getJobView } from '../core/get-job.ts';
import { header, route, sourceIp } from '../core/http.ts';
import type { Blobs, Clock, DownloadUrls, JobQueries, KeyLookup } from '../core/ports.ts';

/** GET /v1/jobs/{id}: status, and the result once there is one. */
export const makeHandler = (deps: { keys: KeyLookup; jobQueries: JobQueries; blobs: Blobs; downloadUrls: DownloadUrls; clock: Clock }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 200, body: await getJobView(deps, principal, event.pathParameters?.id ?? '') };
  });

export const handler = onColdStart(() => makeHandler(getJobDeps(compose({ keys: dynamo.keys, jobQueries: dynamo.jobQueries, blobs: s3.blobs, downloadUrls: s3.downloadUrls }))));
