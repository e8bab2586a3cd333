import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import { compose, projectDeps } from '../adapters/compose.ts';
import { createKey, listKeys, revokeKey } from '../core/api-keys.ts';
import { authenticate, requireLive } from '../core/auth.ts';
import { header, route, sourceIp } from '../core/http.ts';
import { listJobs } from '../core/job-list.ts';
import type { ApiKeys, Clock, JobQueries, Usage } from '../core/ports.ts';
import { usage } from '../core/usage.ts';

/** The project's own records: /v1/keys (list, create), /v1/keys/{id} (revoke), /v1/jobs (list), /v1/usage. */
export const makeHandler = (deps: { keys: ApiKeys; jobQueries: JobQueries; usage: Usage; clock: Clock }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    switch (`${event.httpMethod} ${event.resource}`) {
      case 'GET /v1/keys':
        return { status: 200, body: await listKeys(deps, principal) };
      case 'POST /v1/keys':
        return { status: 201, body: await createKey(deps, principal) };
      case 'DELETE /v1/keys/{id}':
        await revokeKey(deps, principal, event.pathParameters?.id ?? '');
        return { status: 204, body: null };
      case 'GET /v1/jobs':
        requireLive(principal, "list the project's jobs");
        return { status: 200, body: await listJobs(deps, principal, event.queryStringParameters ?? {}) };
      case 'GET /v1/usage':
        requireLive(principal, "read the project's usage");
        return { status: 200, body: await usage(deps, principal) };
      default:
        throw new Error(`the project function has no route ${event.httpMethod} ${event.resource}; lib/wiring.ts and this switch disagree`);
    }
  });

export const handler = onColdStart(() => makeHandler(projectDeps(compose({ keys: dynamo.keys, jobQueries: dynamo.jobQueries, usage: dynamo.usage }))));
