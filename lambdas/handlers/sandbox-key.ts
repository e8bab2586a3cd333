import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import { compose, sandboxKeyDeps } from '../adapters/compose.ts';
import { route, sourceIp } from '../core/http.ts';
import type { ApiKeys, Clock, SandboxIssues } from '../core/ports.ts';
import { issueSandboxKey } from '../core/sandbox.ts';

/** POST /v1/sandbox/key: an anonymous trial key bound to the caller's IP. */
export const makeHandler = (deps: { sandboxIssues: SandboxIssues; keys: ApiKeys; clock: Clock }) =>
  route(async (event) => ({ status: 201, body: await issueSandboxKey(deps, sourceIp(event)) }));

export const handler = onColdStart(() => makeHandler(sandboxKeyDeps(compose({ keys: dynamo.keys, sandboxIssues: dynamo.sandboxIssues }))));
