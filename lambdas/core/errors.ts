// One error shape for every answer the API gives: { error, message }.
// `message` always tells the caller what to do next.

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_request'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'result_expired'
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const invalidRequest = (message: string) => new ApiError(400, 'invalid_request', message);

/** 429 with Retry-After in whole seconds (at least 1), as HTTP clients expect. */
export const rateLimited = (message: string, retryAfterMs: number) =>
  new ApiError(429, 'rate_limited', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
