// The OpenAPI 3.1 document of the API, built from lib/wiring.ts (which routes
// exist) and api-schemas.ts (the shapes the handlers check and give). A route
// without a description here fails the build of the document, and so a test.

import { functions, routes, type RouteSpec } from '../../lib/wiring.ts';
import * as s from './api-schemas.ts';
import type { JsonSchema } from './json-schema.ts';
import { PAGE_WIDTH } from './job-pages.ts';
import { limits } from './limits.ts';
import { SERVICE_NAME, SERVICE_VERSION } from './version.ts';

interface Operation {
  summary: string;
  description?: string;
  tags: string[];
  parameters?: unknown[];
  requestBody?: unknown;
  /** status -> schema (JSON), or a full response object. */
  responses: Record<number, JsonSchema | { raw: unknown }>;
  callbacks?: unknown;
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const idParam = (what: string) => ({ name: 'id', in: 'path', required: true, description: `the ${what} id`, schema: { type: 'string' } });
const retryAfter = { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } };

/** A webhook delivery as a callback: what the receiver gets, with its headers. */
const delivery = (expression: string) => ({
  jobFinished: {
    [expression]: {
      post: {
        summary: 'A job reached a terminal status',
        description:
          'At least once; deduplicate on event_id. Retried on 429, 5xx, timeouts and connection errors after 5 s, 30 s, 5 min and 5 min (5 attempts); any other 4xx stops retries. Answer 2xx within 30 s.',
        parameters: [
          { name: 'User-Agent', in: 'header', required: true, schema: { type: 'string', examples: [`${SERVICE_NAME}-webhook/${SERVICE_VERSION}`] } },
          {
            name: 'X-Webhook-Signature',
            in: 'header',
            required: false,
            description: 'sha256=<hex HMAC-SHA256 of the raw body, keyed with the secret>; present when a secret is configured',
            schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
          },
          { name: 'X-Idempotency-Key', in: 'header', required: true, description: 'equal to event_id', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: json(s.webhookPayloadSchema) },
        responses: { '2XX': { description: 'received' } },
      },
    },
  },
});

const operations: Record<string, Operation> = {
  'POST /v1/sandbox/key': {
    summary: 'Issue an anonymous sandbox key (50 pages, 24 hours, bound to the caller IP)',
    tags: ['sandbox'],
    responses: { 201: s.sandboxKeySchema, 429: s.errorSchema },
  },
  'POST /v1/extract': {
    summary: 'Submit files; one job per file',
    tags: ['jobs'],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, minItems: 1, maxItems: limits.maxFilesPerSubmission },
              webhook: { type: 'string', contentMediaType: 'application/json', contentSchema: s.inlineWebhookSchema },
              config: { type: 'string', contentMediaType: 'application/json', contentSchema: s.extractionConfigSchema },
            },
          },
        },
      },
    },
    responses: { 202: s.acceptedSchema, 400: s.errorSchema, 413: s.errorSchema, 415: s.errorSchema, 429: s.errorSchema },
    callbacks: delivery('{$request.body#/webhook/url}'),
  },
  'POST /v1/uploads': {
    summary: 'Create a job for a document too large for a direct request, with a presigned URL to PUT it to',
    description:
      'PUT exactly `size` bytes to upload_url before expires_at; the job then moves to pending. Pages are reserved at one per started MB and settled to the real count when the document arrives.',
    tags: ['jobs'],
    requestBody: { required: true, content: json(s.uploadRequestSchema) },
    responses: { 201: s.uploadCreatedSchema, 400: s.errorSchema, 429: s.errorSchema },
    callbacks: delivery('{$request.body#/webhook/url}'),
  },
  'GET /v1/jobs/{id}': {
    summary: 'Fetch a job; result once completed or partial_success',
    description: 'Poll at most once a second per job (429 with Retry-After otherwise).',
    tags: ['jobs'],
    parameters: [idParam('job')],
    responses: { 200: s.jobSchema, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema, 410: s.errorSchema, 429: s.errorSchema },
  },
  'GET /v1/jobs/{id}/pages/{n}': {
    summary: "A page of a finished job's PDF or image, as a picture",
    description:
      'A PDF page is a PNG rendered by PDFium, `width` pixels wide (its height in the page\'s proportions; the element boxes of the result scale to it from metadata.page_sizes). ' +
      "A TIFF job's pages are PNGs drawn the same way (each page's boxes in its pixels scale to it the same way). " +
      'A PNG or JPEG job, and a TIFF whose first page PDF cannot hold as stored, has page 1 only, answered as the image itself (`width` does not apply). ' +
      'Pages are kept as long as the result (12 hours after completion): 410 after. 409 while the job has not completed, and for a job with no pages to show (a format other than PDF or image, or a document split into chunks). ' +
      'Send `Accept: image/png` (or image/*): API Gateway returns binary only to a request that accepts it.',
    tags: ['jobs'],
    parameters: [
      idParam('job'),
      { name: 'n', in: 'path', required: true, description: 'the page number, from 1', schema: { type: 'integer', minimum: 1 } },
      { name: 'width', in: 'query', description: 'pixels (PDF pages only)', schema: { type: 'integer', minimum: PAGE_WIDTH.min, maximum: PAGE_WIDTH.max, default: PAGE_WIDTH.default } },
    ],
    responses: {
      200: {
        raw: {
          description: 'the page image',
          content: {
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
            'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } },
            'image/tiff': { schema: { type: 'string', contentMediaType: 'image/tiff' } },
          },
        },
      },
      400: s.errorSchema,
      403: s.errorSchema,
      404: s.errorSchema,
      409: s.errorSchema,
      410: s.errorSchema,
    },
  },
  'POST /v1/jobs/{id}/cancel': {
    summary: 'Cancel an unfinished job; its reserved pages go back and job.cancelled is sent',
    tags: ['jobs'],
    parameters: [idParam('job')],
    responses: { 200: s.cancelledSchema, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema, 409: s.errorSchema },
  },
  'GET /v1/jobs': {
    summary: "List the project's jobs, newest first",
    tags: ['jobs'],
    parameters: [
      { name: 'status', in: 'query', schema: { type: 'string', enum: s.JOB_STATUS_VALUES } },
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'cursor', in: 'query', description: 'next_cursor of the previous page', schema: { type: 'string' } },
    ],
    responses: { 200: s.jobPageSchema, 400: s.errorSchema, 403: s.errorSchema },
  },
  'GET /v1/jobs/{id}/deliveries': {
    summary: "A job's webhook delivery attempts",
    tags: ['webhooks'],
    parameters: [idParam('job')],
    responses: { 200: s.deliveryListSchema, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema },
  },
  'POST /v1/webhooks': {
    summary: 'Register a project webhook; the secret is shown this once',
    tags: ['webhooks'],
    requestBody: { required: true, content: json(s.webhookRegistrationSchema) },
    responses: { 201: s.webhookCreatedSchema, 400: s.errorSchema, 403: s.errorSchema },
    callbacks: delivery('{$request.body#/url}'),
  },
  'GET /v1/webhooks': { summary: "List the project's webhooks (secret fingerprints only)", tags: ['webhooks'], responses: { 200: s.webhookListSchema, 403: s.errorSchema } },
  'DELETE /v1/webhooks/{id}': {
    summary: 'Delete a webhook',
    tags: ['webhooks'],
    parameters: [idParam('webhook')],
    responses: { 204: { raw: { description: 'deleted' } }, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema },
  },
  'POST /v1/webhooks/{id}/test': {
    summary: 'Send a synthetic, signed event now and report the answer',
    tags: ['webhooks'],
    parameters: [idParam('webhook')],
    responses: { 200: s.webhookTestSchema, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema },
  },
  'GET /v1/keys': { summary: "List the project's API keys", tags: ['project'], responses: { 200: s.keyListSchema, 403: s.errorSchema } },
  'POST /v1/keys': { summary: 'Create a live key; the plaintext is shown this once', tags: ['project'], responses: { 201: s.keyCreatedSchema, 403: s.errorSchema } },
  'DELETE /v1/keys/{id}': {
    summary: 'Revoke a key',
    tags: ['project'],
    parameters: [idParam('key')],
    responses: { 204: { raw: { description: 'revoked' } }, 400: s.errorSchema, 403: s.errorSchema, 404: s.errorSchema, 409: s.errorSchema },
  },
  'GET /v1/usage': { summary: 'Pages extracted today and this month (UTC)', tags: ['project'], responses: { 200: s.usageSchema, 403: s.errorSchema } },
  'GET /dashboard': {
    summary: 'The dashboard page',
    tags: ['dashboard'],
    responses: { 200: { raw: { description: 'the page', content: { 'text/html': { schema: { type: 'string' } } } } } },
  },
  'GET /v1/openapi.json': {
    summary: 'This document',
    tags: ['meta'],
    responses: { 200: { raw: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } } } },
  },
};

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Invalid request', 401: 'Missing, malformed or unknown API key',
  403: 'Belongs to another project, or needs a live key', 404: 'Not found', 409: 'Conflict', 410: 'Result no longer kept',
  405: 'Method not allowed: this path answers it for every method it does not list, naming those it does', 413: 'Too large for a direct upload (or any request body over the gateway limit)', 415: 'Not multipart/form-data', 429: 'Rate limit or page quota', 500: 'Internal error',
};

function operation(route: RouteSpec) {
  const op = operations[`${route.method} ${route.path}`];
  if (!op) throw new Error(`openapi.ts describes no ${route.method} ${route.path}; add it when adding the route to lib/wiring.ts`);
  const responses: Record<string, unknown> = {};
  // What the gateway itself answers on any route: 405 for a method the path does not list, 413 for a
  // body over the gateway limit, 400 for a path parameter that is not valid percent-encoding.
  const gateway = { 405: s.errorSchema, 413: s.errorSchema, ...(route.path.includes('{') ? { 400: s.errorSchema } : {}) };
  const all = { ...gateway, ...op.responses, ...(route.auth ? { 401: s.errorSchema } : {}), 500: s.errorSchema };
  for (const [status, spec] of Object.entries(all)) {
    responses[status] =
      'raw' in spec
        ? spec.raw
        : { description: STATUS_TEXT[Number(status)] ?? status, content: json(spec as JsonSchema), ...(status === '429' ? { headers: retryAfter } : {}) };
  }
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tags,
    ...(op.parameters ? { parameters: op.parameters } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    ...(route.auth ? {} : { security: [] }),
    responses,
    ...(op.callbacks ? { callbacks: op.callbacks } : {}),
    'x-docex-function': route.fn,
    'x-docex-timeout-seconds': functions[route.fn].timeoutSeconds,
  };
}

/** The whole document; `serverUrl` is where this deployment answers (stage prefix included). */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'docex',
      version: SERVICE_VERSION,
      description: 'Asynchronous document extraction: submit files, get job ids at once, collect results by polling or a signed webhook.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'kz_... (live) or sk_sandbox_... (sandbox) key' } },
    },
    paths,
  };
}
