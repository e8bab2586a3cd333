import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { parseWebhookField } from '../../../lambdas/core/webhook-target.ts';

const cloud = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

describe('the webhook form field', () => {
  it.each([
    ['{"url":"https://hooks.example.com/a?b=c"}', cloud, 'https://hooks.example.com/a?b=c'],
    ['{"url":"  https://x.example/h  "}', cloud, 'https://x.example/h'],
    ['{"url":"http://localhost:8080/h"}', local, 'http://localhost:8080/h'],
    ['{"url":"http://127.0.0.1/h"}', local, 'http://127.0.0.1/h'],
    ['{"url":"http://[::1]:9/h"}', local, 'http://[::1]:9/h'],
  ])('accepts %s', (raw, policy, url) => {
    expect(parseWebhookField(raw, policy)).toEqual({ url });
  });

  it('takes an optional secret of 32 bytes or more and a choice of events', () => {
    const secret = 'k'.repeat(32);
    expect(parseWebhookField(JSON.stringify({ url: 'https://x.example/h', secret, events: ['job.failed', 'job.completed'] }), cloud)).toEqual({
      url: 'https://x.example/h',
      secret,
      events: ['job.completed', 'job.failed'],
    });
  });

  it('reads an empty url as no webhook', () => {
    expect(parseWebhookField('{"url":""}', cloud)).toBeNull();
  });

  it.each([
    ['not json', cloud, /not valid JSON/],
    ['"https://x.example"', cloud, /JSON object/],
    ['{}', cloud, /webhook\.url is required/],
    ['{"url":"x"}', cloud, /not a valid absolute URL/],
    ['{"url":"http://localhost/h"}', cloud, /must use https/],
    ['{"url":"http://example.com/h"}', local, /must use https/],
    ['{"url":"http://localhost.evil.example/h"}', local, /must use https/],
    ['{"url":"ftp://example.com/h"}', local, /must use https/],
    ['{"url":"https://user:pw@example.com/h"}', cloud, /credentials/],
    ['{"url":"https://x.example","extra":1}', cloud, /webhook\.extra is not a known field/],
    ['{"url":"https://x.example","secret":"short"}', cloud, /webhook\.secret must be at least 32/],
    ['{"url":"https://x.example","events":[]}', cloud, /webhook\.events must have at least 1 item/],
    ['{"url":"https://x.example","events":["job.done"]}', cloud, /webhook\.events\[0\] must be one of "job.completed"/],
    ['{"url":"https://169.254.169.254/latest"}', cloud, /link-local/],
    ['{"url":"https://127.0.0.1/h"}', cloud, /loopback/],
    ['{"url":"https://[::ffff:10.0.0.1]/h"}', local, /private/],
  ])('refuses %s with a 400 that says why', (raw, policy, why) => {
    let error: unknown;
    try {
      parseWebhookField(raw, policy);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(why);
  });
});
