// The local twin of API Gateway's REST proxy integration: it turns an HTTP
// request into the same APIGatewayProxyEvent AWS would build (binary bodies
// base64-encoded, the socket address as sourceIp) and enforces the same
// request size limit.

import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { tooLarge } from '../../lambdas/core/submission-form.ts';
import type { FunctionName, RouteSpec } from '../wiring.ts';

export type ApiHandler = (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

/** Lambda's 6 MB invocation payload, which the base64 body and the rest of the event must fit in. */
const MAX_EVENT_BODY_BASE64 = 6 * 1024 * 1024 - 64 * 1024;
/** The stack's binaryMediaTypes: these bodies reach Lambda base64-encoded and byte-exact. */
const BINARY_TYPES = [/^multipart\/form-data/i, /^application\/octet-stream/i];

interface CompiledRoute extends RouteSpec {
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteSpec): CompiledRoute {
  const params: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { ...route, pattern: new RegExp(`^${source}$`), params };
}

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/**
 * How long an idle keep-alive connection stays open. Longer than the idle
 * timeouts of common clients (undici/fetch 4 s, Node's agent, curl, browsers,
 * load balancers' 60 s), so it is always the client that closes an idle
 * connection: with Node's default of 5 s, a request written just as the
 * server closed the socket failed with EPIPE or ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** `handlers` needs only the functions that `routes` reach; a route to a function without one is refused here, before any request. */
export function createApiGateway(routes: RouteSpec[], handlers: Partial<Record<FunctionName, ApiHandler>>): http.Server {
  const unhandled = routes.find((r) => !handlers[r.fn]);
  if (unhandled) throw new Error(`no handler for ${unhandled.fn}, which ${unhandled.method} ${unhandled.path} reaches (lib/wiring.ts)`);
  const compiled = routes.map(compile);
  const server = http.createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const candidates = compiled.filter((r) => r.pattern.test(url.pathname));
      const match = candidates.find((r) => r.method === req.method);
      if (!match) {
        req.resume();
        if (candidates.length > 0) {
          return send(res, 405, { error: 'invalid_request', message: `${req.method} is not supported on ${url.pathname}; use ${candidates.map((r) => r.method).join(' or ')}.` });
        }
        return send(res, 404, { error: 'not_found', message: `No route ${req.method} ${url.pathname}. The API lives under /v1/; see the README.` });
      }
      const body = await readBody(req);
      const contentType = req.headers['content-type'] ?? '';
      const binary = BINARY_TYPES.some((type) => type.test(contentType));
      const encoded = binary ? body?.toString('base64') : body?.toString('utf8');
      if (body === null || (encoded?.length ?? 0) > MAX_EVENT_BODY_BASE64) {
        const error = tooLarge();
        return send(res, 413, { error: error.code, message: error.message });
      }
      // API Gateway answers a path parameter that is not valid percent-encoding with a 400 before any Lambda runs.
      const values = match.pattern.exec(url.pathname)!.slice(1).map(decodePathPart);
      if (values.some((v) => v === null)) {
        return send(res, 400, { error: 'invalid_request', message: `The path ${url.pathname} is not valid percent-encoding (UTF-8); encode ids with encodeURIComponent.` });
      }
      const event = toEvent(req, url, match, values as string[], encoded ?? null, binary);
      const result = await handlers[match.fn]!(event);
      res.writeHead(result.statusCode, result.headers as Record<string, string>);
      res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
    } catch (error) {
      console.error('local api gateway:', error);
      if (!res.headersSent) send(res, 502, { error: 'internal_error', message: 'The handler crashed; see the server log.' });
      else res.end();
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return server;
}

/** A path segment decoded, or null when it is not valid percent-encoded UTF-8 (`%E0` alone). */
function decodePathPart(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Reads the body, or returns null (after draining) once it passes what a Lambda event can carry. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const cap = (MAX_EVENT_BODY_BASE64 / 4) * 3;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= cap) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > cap ? null : size === 0 ? Buffer.alloc(0) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toEvent(req: IncomingMessage, url: URL, route: CompiledRoute, values: string[], body: string | null, binary: boolean): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query = Object.fromEntries(url.searchParams);
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const requestId = randomUUID();
  return {
    resource: route.path,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: Object.keys(query).length ? query : null,
    multiValueQueryStringParameters: null,
    pathParameters: route.params.length ? Object.fromEntries(route.params.map((p, i) => [p, values[i]!])) : null,
    stageVariables: null,
    body: body === '' ? null : body,
    isBase64Encoded: binary,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: undefined,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: req.method ?? 'GET',
      path: url.pathname,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: route.path,
      identity: {
        sourceIp,
        userAgent: req.headers['user-agent'] ?? null,
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        user: null,
        userArn: null,
      },
    },
  };
}
