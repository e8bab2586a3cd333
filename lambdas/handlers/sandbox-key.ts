import { awsStore } from '../adapters/aws-dynamodb.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import { route, sourceIp } from '../core/http.ts';
import { systemClock, type Clock, type Store } from '../core/ports.ts';
import { issueSandboxKey } from '../core/sandbox.ts';

/** POST /v1/sandbox/key: an anonymous trial key bound to the caller's IP. */
export const makeHandler = (deps: { store: Store; clock: Clock }) =>
  route(async (event) => ({ status: 201, body: await issueSandboxKey(deps, sourceIp(event)) }));

export const handler = onColdStart(() => makeHandler({ store: awsStore(), clock: systemClock }));
