// AWS Signature Version 4, checked: the embedded DynamoDB and S3 answer only
// requests signed with the data directory's own credentials (a header
// signature, or a presigned URL's query signature that has not expired), as
// their AWS counterparts answer only signed requests. Neither dynalite nor
// s3rver checks a V4 signature itself.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SignedRequest {
  method: string;
  /** The request target as sent: the raw path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** How far a header-signed request's X-Amz-Date may be from now, as in AWS. */
const MAX_SKEW_MS = 15 * 60 * 1000;

const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** Signing keys by secret and scope: a scope's key changes once a day, and four HMACs per request were most of a check's cost. */
const signingKeys = new Map<string, Buffer>();

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = `${day}/${region}/${service}/${secret}`;
  let key = signingKeys.get(id);
  if (!key) {
    // A few scopes are live at once (two services, a day's turn): an old day's keys go.
    if (signingKeys.size >= 16) signingKeys.clear();
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
    signingKeys.set(id, key);
  }
  return key;
}

function headerValue(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function parseAmzDate(value: string | undefined): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : null;
}

/**
 * Why the request is refused, or null when it carries a valid signature by
 * `credentials`. `payloadHash` is the body's SHA-256 (hex) for services that
 * sign the body (DynamoDB); S3 signs the value of its x-amz-content-sha256
 * header instead, or UNSIGNED-PAYLOAD in a presigned URL.
 */
export function signatureRefusal(req: SignedRequest, credentials: Credentials, opts: { service: 's3' | 'dynamodb'; payloadHash?: string; now?: number }): string | null {
  const now = opts.now ?? Date.now();
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
  const params: Array<[string, string]> = [];
  for (const part of rawQuery.split('&').filter(Boolean)) {
    const eq = part.indexOf('=');
    try {
      params.push([decodeURIComponent(eq < 0 ? part : part.slice(0, eq)), decodeURIComponent(eq < 0 ? '' : part.slice(eq + 1))]);
    } catch {
      return 'the query string is not valid percent-encoding';
    }
  }
  const param = (name: string) => params.find(([k]) => k === name)?.[1];

  const authorization = headerValue(req.headers, 'authorization');
  let credential: string;
  let signedHeaders: string;
  let signature: string;
  let amzDate: string | undefined;
  let payloadHash: string;
  if (authorization) {
    const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})\s*$/.exec(authorization);
    if (!m) return 'the Authorization header is not an AWS Signature Version 4 (AWS4-HMAC-SHA256)';
    [, credential, signedHeaders, signature] = m as unknown as [string, string, string, string];
    amzDate = headerValue(req.headers, 'x-amz-date');
    const date = parseAmzDate(amzDate);
    if (date === null) return 'the request has no valid X-Amz-Date header';
    if (Math.abs(now - date) > MAX_SKEW_MS) return 'the request was signed more than 15 minutes from now';
    const declared = headerValue(req.headers, 'x-amz-content-sha256');
    if (opts.service === 's3') {
      if (!declared) return 'the request has no x-amz-content-sha256 header';
      payloadHash = declared;
    } else {
      if (opts.payloadHash === undefined) return 'the body was not read';
      payloadHash = opts.payloadHash;
    }
  } else if (param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'the query signature is not AWS4-HMAC-SHA256';
    credential = param('X-Amz-Credential') ?? '';
    signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    signature = param('X-Amz-Signature') ?? '';
    amzDate = param('X-Amz-Date');
    const date = parseAmzDate(amzDate);
    const expires = Number(param('X-Amz-Expires'));
    if (date === null || !Number.isInteger(expires) || expires < 1 || expires > 604800) return 'the presigned URL has no valid X-Amz-Date and X-Amz-Expires';
    if (date - now > MAX_SKEW_MS) return 'the presigned URL is dated in the future';
    if (now > date + expires * 1000) return 'the presigned URL has expired';
    payloadHash = param('X-Amz-Content-Sha256') ?? (opts.service === 's3' ? 'UNSIGNED-PAYLOAD' : (opts.payloadHash ?? ''));
  } else {
    return 'the request is not signed';
  }

  const scope = credential.split('/');
  if (scope.length !== 5 || scope[4] !== 'aws4_request' || scope[3] !== opts.service) return 'the credential scope is malformed or for another service';
  const [accessKeyId, day, region, service] = scope as [string, string, string, string];
  if (accessKeyId !== credentials.accessKeyId) return 'the access key is not this server\'s';
  if (!amzDate!.startsWith(day)) return 'the credential scope\'s date is not the request\'s';

  const names = signedHeaders.split(';');
  if (!names.includes('host')) return 'the signature does not cover the Host header';
  const canonicalHeaders = names.map((name) => `${name}:${(headerValue(req.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalQuery = params
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  // S3 signs the path as sent; other services sign it encoded once more.
  const canonicalUri = opts.service === 's3' ? rawPath || '/' : (rawPath || '/').split('/').map(rfc3986).join('/');
  const canonicalRequest = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${day}/${region}/${service}/aws4_request`, sha256(canonicalRequest)].join('\n');
  const key = signingKey(credentials.secretAccessKey, day, region, service);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'the signature does not match';
  return null;
}

export const sha256Hex = sha256;
