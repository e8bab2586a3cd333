// Every response an e2e test receives is checked against the OpenAPI document
// the server itself serves (GET /v1/openapi.json), so the document cannot
// drift from what the service answers.

import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

// ajv-formats is CommonJS: under ESM its plugin is the default export's default.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv2020) => void;

interface Contract {
  basePath: string;
  operations: { method: string; pattern: RegExp; template: string; responses: Record<string, { content?: Record<string, { schema?: object }> }> }[];
  validators: Map<object, ValidateFunction>;
  ajv: Ajv2020;
}

const contracts = new Map<string, Promise<Contract>>();

async function load(base: string): Promise<Contract> {
  const url = new URL('v1/openapi.json', base.endsWith('/') ? base : `${base}/`);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}; the OpenAPI document must be served`);
  const doc = (await response.json()) as { paths: Record<string, Record<string, Contract['operations'][number]['responses'] & object>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const operations: Contract['operations'] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries(methods)) {
      operations.push({ method: method.toUpperCase(), pattern, template, responses: (op as unknown as { responses: Contract['operations'][number]['responses'] }).responses });
    }
  }
  return { basePath: new URL(base.endsWith('/') ? base : `${base}/`).pathname.replace(/\/$/, ''), operations, validators: new Map(), ajv };
}

/** Throws, naming the route and the mismatch, when an answer is not what the document says. */
export async function checkAnswer(base: string, method: string, fullPath: string, status: number, contentType: string | undefined, body: unknown): Promise<void> {
  let contract = contracts.get(base);
  if (!contract) contracts.set(base, (contract = load(base)));
  const c = await contract;
  const path = new URL(fullPath, 'http://x').pathname.replace(c.basePath, '') || '/';
  if (path === '/v1/openapi.json') return;
  // A method the path does not list is held to the 405 its operations document.
  const op = c.operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path)) ?? (status === 405 ? c.operations.find((o) => o.pattern.test(path)) : undefined);
  if (!op) return; // not a route of the API (a 404 for an unknown path): nothing documented to hold it to
  const response = op.responses[String(status)];
  if (!response) throw new Error(`${method} ${op.template} answered ${status}, which the OpenAPI document does not list (it lists ${Object.keys(op.responses).join(', ')})`);
  const media = (contentType ?? '').split(';')[0]!.trim();
  const schema = response.content?.[media]?.schema ?? (response.content ? undefined : null);
  if (schema === undefined) throw new Error(`${method} ${op.template} ${status} answered ${media || 'no content type'}, which the document does not list`);
  if (schema === null) return;
  const validate = c.validators.get(schema) ?? c.ajv.compile(schema);
  c.validators.set(schema, validate);
  if (!validate(body)) {
    throw new Error(`${method} ${op.template} ${status} does not match the OpenAPI document: ${c.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
}

/** A fetch that checks every JSON answer against the document (for the SDK's e2e tests). */
export function checkingFetch(base: string): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    await checkAnswer(base, init?.method ?? 'GET', url.pathname, response.status, response.headers.get('content-type') ?? undefined, body);
    return response;
  }) as typeof fetch;
}
