// Webhooks end to end: the real local server (a child process, time scaled by
// 0.01 so the 635 s retry schedule takes about 6 s) delivering to a real
// receiver on loopback.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit } from '../support/api-client.ts';
import { ROOT, startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { signatureValid, startReceiver, type Receiver } from '../support/webhook-receiver.ts';

let server: RunningServer;
let receiver: Receiver;
let alice: { project_id: string; api_key: string };
let bob: { project_id: string; api_key: string };

beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer({ env: { DOCEX_TIME_SCALE: '0.01' } }), startReceiver()]);
  [alice, bob] = await Promise.all([server.createProject('alice'), server.createProject('bob')]);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown, key = alice.api_key) =>
  request(server.url, method, path, { key, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });

const until = async (check: () => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the receiver');
    await new Promise((r) => setTimeout(r, 100));
  }
};

const deliveries = (jobId: string, key = alice.api_key) => api('GET', `/v1/jobs/${jobId}/deliveries`, undefined, key);
const untilDeliveries = (jobId: string, done: (list: any[]) => boolean) =>
  waitFor(async () => (await deliveries(jobId)).body.deliveries as any[], done, { intervalMs: 200 });

describe('project webhooks by API', () => {
  let registration: { id: string; secret: string };

  it('registers a webhook, showing its secret once and a fingerprint after', async () => {
    const created = await api('POST', '/v1/webhooks', { url: `${receiver.url}/project`, events: ['job.completed'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), url: `${receiver.url}/project`, events: ['job.completed'], secret: expect.stringMatching(/^whsec_/) });
    registration = created.body;

    const listed = await api('GET', '/v1/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toEqual([
      { id: registration.id, url: `${receiver.url}/project`, events: ['job.completed'], secret_fingerprint: expect.stringMatching(/^sha256:/), created_at: expect.any(String) },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(registration.secret);
    // The key that seals secrets at rest is readable by its owner only.
    expect(fs.statSync(path.join(server.dataDir, 'webhook-secrets.key')).mode & 0o777).toBe(0o600);
    expect((await api('GET', '/v1/webhooks', undefined, bob.api_key)).body.webhooks).toEqual([]);
  });

  it('refuses bad registrations with a 400 that says why', async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: 'http://hooks.example.com/x', events: ['job.completed'] }, /must use https/],
      [{ url: 'https://169.254.169.254/latest/meta-data', events: ['job.completed'] }, /link-local/],
      [{ url: 'https://10.0.0.1/x', events: ['job.completed'] }, /private/],
      [{ url: 'https://[::ffff:192.168.0.1]/x', events: ['job.completed'] }, /private/],
      [{ url: `${receiver.url}/x`, events: ['job.done'] }, /events\[0\] must be one of "job.completed"/],
      [{ url: `${receiver.url}/x`, events: ['job.failed'], secret: 'too short' }, /at least 32 bytes/],
      [{ url: `${receiver.url}/x` }, /events is required/],
    ];
    for (const [body, why] of cases) {
      const answer = await api('POST', '/v1/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toMatch(why);
    }
  });

  it('sends a correctly signed test payload now and reports the answer', async () => {
    const answer = await api('POST', `/v1/webhooks/${registration.id}/test`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ delivered: true, status_code: 200, error: null });
    const [got] = receiver.at('/project');
    expect(signatureValid(got!, registration.secret)).toBe(true);
    expect(JSON.parse(got!.body)).toMatchObject({ event_id: answer.body.event_id, project_id: alice.project_id, status: 'completed', attempt_count: 1 });
    expect((await api('POST', `/v1/webhooks/${registration.id}/test`, undefined, bob.api_key)).status).toBe(404);

    receiver.script('/project', [503]);
    const refused = await api('POST', `/v1/webhooks/${registration.id}/test`);
    expect(refused.body).toMatchObject({ delivered: false, status_code: 503, error: expect.stringMatching(/^HTTP 503/) });
  });

  it('announces a finished job to the registrations that selected its kind, and logs the attempt', async () => {
    const onFailed = await api('POST', '/v1/webhooks', { url: `${receiver.url}/failures`, events: ['job.failed'], secret: 'f'.repeat(40) });
    expect(onFailed.status).toBe(201);
    const before = receiver.at('/project').length;

    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'hello hooks' }]));
    const jobId = accepted.body.job_ids[0];
    await until(() => receiver.at('/project').length === before + 1);
    const got = receiver.at('/project').at(-1)!;
    expect(signatureValid(got, registration.secret)).toBe(true);
    const payload = JSON.parse(got.body);
    expect(payload).toMatchObject({ job_id: jobId, project_id: alice.project_id, status: 'completed', error_message: null, attempt_count: 1 });
    expect(got.body).not.toContain('hello hooks');

    const log = await untilDeliveries(jobId, (list) => list.length === 1);
    expect(log).toMatchObject([{ event_id: payload.event_id, event: 'job.completed', webhook_id: registration.id, attempt: 1, status_code: 200, outcome: 'delivered', error: null }]);
    expect(log[0].duration_ms).toEqual(expect.any(Number));
    expect(receiver.at('/failures')).toHaveLength(0);
    expect((await deliveries(jobId, bob.api_key)).status).toBe(403);

    const broken = await submit(server.url, alice.api_key, multipart([{ name: 'blob.bin', bytes: Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0, 0x10]) }]));
    await until(() => receiver.at('/failures').length === 1);
    const failure = receiver.at('/failures')[0]!;
    expect(signatureValid(failure, 'f'.repeat(40))).toBe(true);
    expect(JSON.parse(failure.body)).toMatchObject({ job_id: broken.body.job_ids[0], status: 'failed', error_message: expect.any(String) });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/project').filter((r) => JSON.parse(r.body).job_id === broken.body.job_ids[0])).toHaveLength(0);

    expect((await api('DELETE', `/v1/webhooks/${onFailed.body.id}`)).status).toBe(204);
    expect((await api('DELETE', `/v1/webhooks/${onFailed.body.id}`)).status).toBe(404);
  });

  it('lets an inline webhook replace the registrations for its submission', async () => {
    const before = receiver.at('/project').length;
    const secret = 'i'.repeat(48);
    const webhook = JSON.stringify({ url: `${receiver.url}/inline`, secret, events: ['job.completed'] });
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'b.txt', bytes: 'inline only' }], { webhook }));
    expect(accepted.status).toBe(202);
    await until(() => receiver.at('/inline').length === 1);
    expect(signatureValid(receiver.at('/inline')[0]!, secret)).toBe(true);
    expect(JSON.parse(receiver.at('/inline')[0]!.body).job_id).toBe(accepted.body.job_ids[0]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/project')).toHaveLength(before);
  });

  it('refuses an inline webhook to an address inside the network', async () => {
    const webhook = JSON.stringify({ url: 'https://169.254.169.254/hook' });
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'c.txt', bytes: 'x' }], { webhook }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/link-local/);
  });
});

describe('retries, the dead-letter queue and redrive', () => {
  it('tries five times on the scaled schedule, dead-letters, and sends again after `admin webhooks redrive`', async () => {
    receiver.script('/flaky', [500, 500, 500, 500, 500]);
    const webhook = JSON.stringify({ url: `${receiver.url}/flaky` });
    const accepted = await submit(server.url, alice.api_key, multipart([{ name: 'd.txt', bytes: 'retry me' }], { webhook }));
    const jobId = accepted.body.job_ids[0];

    const exhausted = await untilDeliveries(jobId, (list) => list.length === 5);
    expect(exhausted.map((d) => [d.attempt, d.status_code, d.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 500, 'retrying'],
      [4, 500, 'retrying'],
      [5, 500, 'dead_lettered'],
    ]);
    expect(receiver.at('/flaky').map((r) => JSON.parse(r.body).attempt_count)).toEqual([1, 2, 3, 4, 5]);

    // The message reaches the DLQ on its next receive; redrive until it has.
    const admin = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/admin.ts', 'webhooks', 'redrive'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(server.port), DOCEX_DATA_DIR: server.dataDir },
      });
    const moved = await waitFor(async () => JSON.parse((await admin()).stdout.trim().split('\n').at(-1)!).moved as number, (n) => n === 1, { intervalMs: 300 });
    expect(moved).toBe(1);

    const after = await untilDeliveries(jobId, (list) => list.length === 6);
    expect(after.at(-1)).toMatchObject({ attempt: 1, status_code: 200, outcome: 'delivered' });
    expect(receiver.at('/flaky').map((r) => JSON.parse(r.body).event_id).every((id, _, all) => id === all[0])).toBe(true);
  });
});
