import { awsStore } from '../adapters/aws-dynamodb.ts';
import { awsBlobs } from '../adapters/aws-s3.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { authenticate } from '../core/auth.ts';
import { getJobView } from '../core/get-job.ts';
import { header, route, sourceIp } from '../core/http.ts';
import { systemClock, type Blobs, type Clock, type Store } from '../core/ports.ts';

/** GET /v1/jobs/{id}: status, and the result once there is one. */
export const makeHandler = (deps: { store: Store; blobs: Blobs; clock: Clock }) =>
  route(async (event) => {
    const principal = await authenticate(deps.store, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return { status: 200, body: await getJobView(deps, principal, event.pathParameters?.id ?? '') };
  });

export const handler = onColdStart(() => makeHandler({ store: awsStore(), blobs: awsBlobs(), clock: systemClock }));
