import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/wiring.ts';
import { request } from '../support/api-client.ts';
import { startServer, type RunningServer } from '../support/local-server.ts';
import { checkAnswer } from '../support/openapi-check.ts';

let server: RunningServer;
let doc: any;

beforeAll(async () => {
  server = await startServer();
  const answer = await request(server.url, 'GET', '/v1/openapi.json');
  expect(answer.status).toBe(200);
  doc = answer.body;
});
afterAll(async () => server?.stop());

describe('the OpenAPI document', () => {
  it('is served without auth and is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every route the service has, with its errors', () => {
    for (const route of routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(Object.keys(op.responses)).toContain('500');
      if (route.auth) expect(Object.keys(op.responses)).toContain('401');
      else expect(op.security).toEqual([]);
    }
  });

  it('documents the webhook delivery as a callback with its signature header', () => {
    const callback = doc.paths['/v1/webhooks'].post.callbacks.jobFinished['{$request.body#/url}'].post;
    expect(callback.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['event_id', 'job_id', 'project_id', 'status', 'error_message', 'timestamp', 'attempt_count']),
    );
    expect(callback.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['X-Webhook-Signature', 'X-Idempotency-Key', 'User-Agent']));
  });

  it('names this server, so clients generated from it call the right place', () => {
    expect(doc.servers).toEqual([{ url: server.url }]);
  });

  it('is what every e2e answer is held to: a body or status it does not describe fails the test', async () => {
    const job = { id: '0f0e6b1e-3c1a-4c55-9d59-1b0c7c1a0001', filename: 'a.txt', status: 'completed', created_at: '2026-11-21T00:00:00.000Z', updated_at: '2026-11-21T00:00:00.000Z' };
    await expect(checkAnswer(server.url, 'GET', `/v1/jobs/${job.id}`, 200, 'application/json', job)).resolves.toBeUndefined();
    await expect(checkAnswer(server.url, 'GET', `/v1/jobs/${job.id}`, 200, 'application/json', { ...job, status: 'done' })).rejects.toThrow(/status/);
    await expect(checkAnswer(server.url, 'GET', `/v1/jobs/${job.id}`, 200, 'application/json', { ...job, secret: 1 })).rejects.toThrow(/additional/);
    await expect(checkAnswer(server.url, 'GET', `/v1/jobs/${job.id}`, 418, 'application/json', {})).rejects.toThrow(/does not list/);
  });

  it('documents Retry-After on rate limits', () => {
    expect(doc.paths['/v1/jobs/{id}'].get.responses['429'].headers['Retry-After']).toBeDefined();
  });
});
