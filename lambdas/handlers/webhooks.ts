import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as hooks from '../adapters/aws-webhooks.ts';
import { compose, webhooksDeps } from '../adapters/compose.ts';
import { authenticate, requireLive } from '../core/auth.ts';
import { header, requestBody, route, sourceIp } from '../core/http.ts';
import type { DeliveryLog, JobLookup, KeyLookup } from '../core/ports.ts';
import {
  createWebhook,
  deleteWebhook,
  listJobDeliveries,
  listWebhooks,
  testWebhook,
  type RegistrationDeps,
} from '../core/webhook-registrations.ts';

/** /v1/webhooks (create, list), /v1/webhooks/{id} (delete), /v1/webhooks/{id}/test, and /v1/jobs/{id}/deliveries. */
export const makeHandler = (deps: RegistrationDeps & { keys: KeyLookup; jobs: JobLookup; deliveries: DeliveryLog }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    const id = event.pathParameters?.id ?? '';
    // Registered webhooks are the project's: a live key's. A sandbox key's inline webhook and its jobs' deliveries are its own.
    if (event.resource.startsWith('/v1/webhooks')) requireLive(principal, "manage the project's webhooks (send an inline webhook field with the submission instead)");
    switch (`${event.httpMethod} ${event.resource}`) {
      case 'POST /v1/webhooks':
        return { status: 201, body: await createWebhook(deps, principal, requestBody(event).toString('utf8')) };
      case 'GET /v1/webhooks':
        return { status: 200, body: await listWebhooks(deps, principal) };
      case 'DELETE /v1/webhooks/{id}':
        await deleteWebhook(deps, principal, id);
        return { status: 204, body: null };
      case 'POST /v1/webhooks/{id}/test':
        return { status: 200, body: await testWebhook(deps, principal, id) };
      case 'GET /v1/jobs/{id}/deliveries':
        return { status: 200, body: await listJobDeliveries(deps, principal, id) };
      default:
        throw new Error(`the webhooks function has no route ${event.httpMethod} ${event.resource}; lib/wiring.ts and this switch disagree`);
    }
  });

export const handler = onColdStart(() => makeHandler(webhooksDeps(compose({ keys: dynamo.keys, webhooks: dynamo.webhooks, jobs: dynamo.jobs, deliveries: dynamo.deliveries, webhookIntake: hooks.webhookIntake, testSender: hooks.testSender }))));
