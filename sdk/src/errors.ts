// Typed errors: one class per thing a caller handles differently. Every error
// carries the API's `error` code and its `message`, which says what to do.

export class DocexError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when no answer arrived. */
    readonly status: number,
    /** The API's error code (`unauthorized`, `quota_exceeded`, ...), or a client-side one. */
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: the key is missing, malformed, unknown, revoked, expired, or used from another IP (sandbox). */
export class AuthError extends DocexError {}
/** 403: the resource belongs to another project. */
export class ForbiddenError extends DocexError {}
/** 404: no such job (records are kept 7 days). */
export class NotFoundError extends DocexError {}
/** 400, 405, 415: the request itself is wrong; the message names what. */
export class ValidationError extends DocexError {}
/** 413: too large for a direct upload. */
export class PayloadTooLargeError extends DocexError {}
/** 410: the job's result is no longer kept (12 hours). */
export class ResultExpiredError extends DocexError {}
/** 429 `rate_limited`: slow down; `retryAfter` is in seconds. */
export class RateLimitError extends DocexError {
  constructor(
    message: string,
    status: number,
    code: string,
    readonly retryAfter: number,
  ) {
    super(message, status, code);
  }
}
/** 429 `quota_exceeded`: the key or project has too few pages left. */
export class QuotaError extends DocexError {}
/** 5xx: the service failed; retrying later is reasonable. */
export class ServerError extends DocexError {}
/** The request never got an answer (DNS, connection, TLS). */
export class NetworkError extends DocexError {}
/** waitForJob gave up before the job reached a terminal status. */
export class WaitTimeoutError extends DocexError {}

export function errorFromResponse(status: number, body: unknown, retryAfterHeader: string | null): DocexError {
  const { error: code = `http_${status}`, message = `The API answered ${status}.` } =
    typeof body === 'object' && body !== null ? (body as { error?: string; message?: string }) : {};
  if (status === 401) return new AuthError(message, status, code);
  if (status === 403) return new ForbiddenError(message, status, code);
  if (status === 404) return new NotFoundError(message, status, code);
  if (status === 410) return new ResultExpiredError(message, status, code);
  if (status === 413) return new PayloadTooLargeError(message, status, code);
  if (status === 429 && code === 'quota_exceeded') return new QuotaError(message, status, code);
  if (status === 429) return new RateLimitError(message, status, code, retryAfterSeconds(retryAfterHeader));
  if (status >= 500) return new ServerError(message, status, code);
  return new ValidationError(message, status, code);
}

/** Retry-After is delay-seconds or an HTTP date; anything unreadable means one second. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1 : Math.max(0, Math.ceil((date - now) / 1000));
}
