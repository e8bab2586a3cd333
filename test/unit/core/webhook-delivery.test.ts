import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRequest, judge, RETRY_WAITS_SECONDS, MAX_ATTEMPTS, USER_AGENT, type WebhookPayload } from '../../../lambdas/core/webhook-delivery.ts';
import { eventIdOf, eventKindOf } from '../../../lambdas/core/webhook-events.ts';
import { SERVICE_VERSION } from '../../../lambdas/core/version.ts';
import { fingerprintOf, generateSecret } from '../../../lambdas/core/webhook-secret.ts';
import { hmacSha256Hex } from '../../support/webhook-receiver.ts';

const payload: WebhookPayload = {
  event_id: 'evt_0123',
  job_id: '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
  project_id: '0f1e2d3c-4b5a-4968-8776-655443322110',
  status: 'completed',
  error_message: null,
  timestamp: 1_790_000_000,
  attempt_count: 1,
};

describe('the signed request of a delivery', () => {
  it('is checked with an HMAC that itself meets RFC 4231', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('signs the exact body bytes so an independent HMAC agrees, and a wrong secret or changed body does not', () => {
    const secret = generateSecret();
    const { body, headers } = buildRequest(payload, secret);
    const signature = headers['X-Webhook-Signature']!;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signature).toBe(`sha256=${hmacSha256Hex(secret, body)}`);
    expect(signature).not.toBe(`sha256=${hmacSha256Hex(generateSecret(), body)}`);
    expect(signature).not.toBe(`sha256=${hmacSha256Hex(secret, body.replace('completed', 'failed'))}`);
  });

  it('carries the spec headers and payload fields, and nothing else', () => {
    const { body, headers } = buildRequest(payload, null);
    expect(headers).toEqual({ 'Content-Type': 'application/json', 'User-Agent': `docex-webhook/${SERVICE_VERSION}`, 'X-Idempotency-Key': 'evt_0123' });
    expect(Object.keys(JSON.parse(body)).sort()).toEqual(['attempt_count', 'error_message', 'event_id', 'job_id', 'project_id', 'status', 'timestamp']);
  });

  it('names the version package.json declares', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(USER_AGENT).toBe(`docex-webhook/${pkg.version}`);
  });

  it('generates secrets of 32 random bytes and shows only a fingerprint', () => {
    const secret = generateSecret();
    expect(Buffer.from(secret.replace(/^whsec_/, ''), 'base64url')).toHaveLength(32);
    expect(fingerprintOf(secret)).toMatch(/^sha256:[0-9a-f]{24}$/);
    expect(fingerprintOf(secret)).not.toContain(secret);
    expect(generateSecret()).not.toBe(generateSecret());
  });
});

describe('what an outcome means', () => {
  const response = (status: number, excerpt = '') => ({ kind: 'response' as const, status, durationMs: 1, excerpt });
  it.each([
    [response(200), 'delivered'],
    [response(204), 'delivered'],
    [response(429), 'retry'],
    [response(500, 'oops'), 'retry'],
    [response(503), 'retry'],
    [{ kind: 'timeout' as const, durationMs: 30_000, message: 'No answer within 30 s' }, 'retry'],
    [{ kind: 'connection' as const, durationMs: 3, message: 'Connection failed: ECONNREFUSED' }, 'retry'],
    [response(400), 'permanent'],
    [response(401), 'permanent'],
    [response(404), 'permanent'],
    [response(410), 'permanent'],
    [response(301), 'permanent'],
    [{ kind: 'refused' as const, durationMs: 0, message: 'Refused: 10.0.0.1 is a private address.' }, 'permanent'],
  ])('%j is %s', (outcome, verdict) => {
    expect(judge(outcome).verdict).toBe(verdict);
  });

  it('waits 5 s, 30 s, 5 min and 5 min between five attempts', () => {
    expect(MAX_ATTEMPTS).toBe(5);
    expect(RETRY_WAITS_SECONDS).toEqual([5, 30, 300, 300]);
  });
});

describe('events', () => {
  it('announces partial_success as job.completed and non-terminal statuses not at all', () => {
    expect(eventKindOf('completed')).toBe('job.completed');
    expect(eventKindOf('partial_success')).toBe('job.completed');
    expect(eventKindOf('failed')).toBe('job.failed');
    expect(eventKindOf('cancelled')).toBe('job.cancelled');
    expect(eventKindOf('processing')).toBeNull();
  });

  it('derives the same event id for the same job, status and target, and another for any other', () => {
    const id = eventIdOf('job-1', 'completed', 'inline');
    expect(eventIdOf('job-1', 'completed', 'inline')).toBe(id);
    expect(new Set([id, eventIdOf('job-1', 'failed', 'inline'), eventIdOf('job-1', 'completed', 'webhook:a'), eventIdOf('job-2', 'completed', 'inline')]).size).toBe(4);
  });
});
