// API Gateway (REST, proxy integration) in and out: the same event shape in
// AWS and from the local twin.

import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from './errors.ts';

export interface Reply {
  status: number;
  /** Written out with JSON.stringify, or as it is when it is JSON text already; bytes (a Uint8Array) go out base64-encoded, as API Gateway wants binary, with the Content-Type of `headers`. */
  body: unknown;
  headers?: Record<string, string>;
}

/** A body that is JSON text already, sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

export const requestBody = (event: APIGatewayProxyEvent): Buffer =>
  Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');

export const sourceIp = (event: APIGatewayProxyEvent): string => event.requestContext.identity.sourceIp;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult =>
  status === 204
    ? { statusCode: 204, headers: { 'Cache-Control': 'no-store', ...headers }, body: '' }
    : { statusCode: status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }, body: body instanceof JsonText ? body.text : JSON.stringify(body) };

/** Wraps a route: ApiErrors become their 4xx; anything else is logged and becomes a 500 that names the request. */
export function route(fn: (event: APIGatewayProxyEvent) => Promise<Reply>) {
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    try {
      const reply = await fn(event);
      if (reply.body instanceof Uint8Array) {
        const bytes = Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength);
        // Private: the bytes are behind the caller's key; a browser may keep them a few minutes.
        return { statusCode: reply.status, headers: { 'Cache-Control': 'private, max-age=300', ...reply.headers }, body: bytes.toString('base64'), isBase64Encoded: true };
      }
      return json(reply.status, reply.body, reply.headers);
    } catch (error) {
      if (error instanceof ApiError) return json(error.status, { error: error.code, message: error.message }, error.headers);
      const requestId = event.requestContext.requestId;
      console.error(JSON.stringify({ level: 'error', requestId, path: event.path, error: String((error as Error)?.stack ?? error) }));
      return json(500, {
        error: 'internal_error',
        message: `Something went wrong on our side. Retry the request; if it keeps failing, report request id ${requestId}.`,
      });
    }
  };
}
