// Issue #18: no input, tenant or neighbour can hurt another. Each test here
// failed before its fix.

import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCredentials } from '../../lib/local/embedded-aws.ts';
import { multipart, request, submit, type Answer } from '../support/api-client.ts';
import { inflatingPdf } from '../support/hostile-pdf.ts';
import { startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { makeZip } from '../support/office-fixture.ts';
import { makePdf } from '../support/pdf-fixture.ts';

let server: RunningServer;
let alice: { project_id: string; api_key: string };
let bob: { project_id: string; api_key: string };

beforeAll(async () => {
  server = await startServer({ env: { DOCEX_TIME_SCALE: '0.01' } });
  alice = await server.createProject('alice');
  bob = await server.createProject('bob');
});
afterAll(async () => server?.stop());

const getJob = (id: string, key = alice.api_key) => request(server.url, 'GET', `/v1/jobs/${id}`, { key });
const terminal = (a: Answer) => a.status === 200 && ['completed', 'partial_success', 'failed', 'cancelled'].includes(a.body.status);
const usage = async (key: string) => (await request(server.url, 'GET', '/v1/usage', { key })).body;

describe('page counting has a budget and runs off the API thread (item 1)', () => {
  it('answers 413 for a small PDF that inflates past the budget, charges nothing, and keeps serving', async () => {
    const before = await usage(alice.api_key);
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'bomb.pdf', bytes: inflatingPdf(), type: 'application/pdf' }]));
    expect(answer.status, JSON.stringify(answer.body)).toBe(413);
    expect(answer.body).toMatchObject({ error: 'payload_too_large' });
    expect(answer.body.message).toMatch(/"bomb\.pdf".*page-counted within the submission budget.*inflate past 16 MB/);
    expect(await usage(alice.api_key)).toEqual(before);
    // Another project is served as usual, and a real document is still counted.
    const ok = await submit(server.url, bob.api_key, multipart([{ name: 'ok.pdf', bytes: makePdf({ pages: ['a', 'b'] }), type: 'application/pdf' }]));
    expect(ok.status).toBe(202);
    const done = await waitFor(() => getJob(ok.body.job_ids[0], bob.api_key), terminal);
    expect(done.body).toMatchObject({ status: 'completed', pages: 2 });
  });

  it('fails an uploaded document over the budget with a message that says why', async () => {
    const pdf = inflatingPdf();
    const created = await request(server.url, 'POST', '/v1/uploads', {
      key: alice.api_key,
      body: JSON.stringify({ filename: 'bomb.pdf', size: pdf.byteLength }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    await fetch(created.body.upload_url, { method: 'PUT', body: Buffer.from(pdf) });
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/page-counted within the submission budget.*inflate past 16 MB/) });
  });

  it('fails an uploaded document larger than its format reads whole as soon as it arrives, before it is queued', async () => {
    const html = Buffer.alloc(41e6, 'word ');
    html.write('<!DOCTYPE html><html><body><p>', 0);
    // A quota too small for the pages a 41 MB page would count to: refused on arrival, its count never weighs against the quota.
    const small = await server.createProject('small', 100);
    const created = await request(server.url, 'POST', '/v1/uploads', {
      key: small.api_key,
      body: JSON.stringify({ filename: 'big.html', size: html.byteLength }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    await fetch(created.body.upload_url, { method: 'PUT', body: html });
    const done = await waitFor(() => getJob(created.body.job_id, small.api_key), terminal);
    expect(done.body).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/This HTML is 41 MB; HTML files are read whole.*40 MB\. Split the document/) });
  });
});

describe('no client mistake is a 5xx (item 4)', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const json = (key: string, path: string, body: string) =>
    request(server.url, 'POST', path, { key, body, headers: { 'content-type': 'application/json' } });

  it('answers 400 for deeply nested JSON in the webhook and config fields, /v1/webhooks and /v1/uploads', async () => {
    const nested = deep(20_000);
    const answers = [
      await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'hello' }], { webhook: `{"url":"http://127.0.0.1:9/h","events":${nested}}` })),
      await submit(server.url, alice.api_key, multipart([{ name: 'a.txt', bytes: 'hello' }], { config: `{"pages":${nested}}` })),
      await json(alice.api_key, '/v1/webhooks', `{"url":"http://127.0.0.1:9/h","events":${nested}}`),
      await json(alice.api_key, '/v1/uploads', `{"filename":"a.pdf","size":10,"config":{"pages":${nested}}}`),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/more than 32 levels deep/) });
    }
    // Too long is said as such, before parsing.
    const long = await json(alice.api_key, '/v1/webhooks', `{"url":"http://127.0.0.1:9/h","x":"${'a'.repeat(70_000)}"}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/longer than 64 KB/);
  });

  it('answers 400 for a path that is not valid percent-encoding, and for a forged list cursor', async () => {
    for (const path of ['/v1/jobs/%E0', '/v1/jobs/%E0/cancel', '/v1/jobs/%ZZ']) {
      const answer = await request(server.url, path.endsWith('cancel') ? 'POST' : 'GET', path, { key: alice.api_key });
      expect([400, 404], `${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
      expect(answer.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    expect((await request(server.url, 'GET', '/v1/jobs/%E0', { key: alice.api_key })).status).toBe(400);
    const forged = Buffer.from(JSON.stringify({ pk: 'JOB#x', sk: 'JOB', gsi1pk: `PROJECT#${bob.project_id}#JOBS`, gsi1sk: 'x' })).toString('base64url');
    for (const cursor of ['abcd', forged]) {
      const answer = await request(server.url, 'GET', `/v1/jobs?cursor=${cursor}`, { key: alice.api_key });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.message).toMatch(/pass next_cursor/);
    }
  });
});

describe('job records stay small; a submission is all or nothing (item 3)', () => {
  it('accepts config.pages "1-100000" for two files and extracts the pages that exist', async () => {
    const answer = await submit(
      server.url,
      bob.api_key,
      multipart(
        [
          { name: 'one.pdf', bytes: makePdf({ pages: ['first', 'second'] }), type: 'application/pdf' },
          { name: 'two.txt', bytes: 'short text' },
        ],
        { config: JSON.stringify({ pages: '1-100000' }) },
      ),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.job_ids).toHaveLength(2);
    const [pdf, txt] = await Promise.all(answer.body.job_ids.map((id: string) => waitFor(() => getJob(id, bob.api_key), terminal)));
    expect(pdf!.body).toMatchObject({ status: 'completed', pages: 2 });
    expect(pdf!.body.result.content).toContain('second');
    expect(txt!.body).toMatchObject({ status: 'completed', pages: 1 });
    const list = await request(server.url, 'GET', '/v1/jobs', { key: bob.api_key });
    expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual(expect.arrayContaining(answer.body.job_ids));
  });
});

describe('non-ASCII filenames (item 7)', () => {
  const name = 'résumé 日本.md';
  it('keeps a UTF-8 filename as sent, in the job and the list', async () => {
    const answer = await submit(server.url, alice.api_key, multipart([{ name, bytes: '# Hello' }]));
    expect(answer.status).toBe(202);
    const id = answer.body.job_ids[0];
    expect((await getJob(id)).body.filename).toBe(name);
    const list = await request(server.url, 'GET', '/v1/jobs', { key: alice.api_key });
    expect(list.body.jobs.find((j: { id: string }) => j.id === id).filename).toBe(name);
  });

  it("reads an RFC 5987 filename*=UTF-8''… parameter", async () => {
    const boundary = 'docexboundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fallback.md"; filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
        `Content-Type: text/markdown\r\n\r\n# Hi\r\n--${boundary}--\r\n`,
    );
    const answer = await request(server.url, 'POST', '/v1/extract', { key: alice.api_key, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect((await getJob(answer.body.job_ids[0])).body.filename).toBe(name);
  });
});

describe('a ZIP is a ZIP (item 8)', () => {
  it('extracts every member of a ZIP whose first member is a stored PDF', async () => {
    const zip = makeZip([
      { name: 'first.pdf', data: makePdf({ pages: ['stored pdf page'] }), method: 0 },
      { name: 'second.txt', data: 'the second member' },
    ]);
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'bundle.zip', bytes: zip, type: 'application/zip' }]));
    expect(answer.status).toBe(202);
    const done = await waitFor(() => getJob(answer.body.job_ids[0]), terminal);
    expect(done.body.status, done.body.error_message).toBe('completed');
    expect(done.body.result.metadata.format).toBe('zip');
    expect(done.body.result.content).toContain('stored pdf page');
    expect(done.body.result.content).toContain('the second member');
  });

  it('ends partial_success, naming the member, when a stored first member is a damaged PDF', async () => {
    const damaged = Buffer.from(makePdf({ pages: ['never read'] }));
    damaged.fill(0x20, 20, damaged.length - 10);
    const zip = makeZip([
      { name: 'damaged.pdf', data: damaged, method: 0 },
      { name: 'fine.txt', data: 'this member is fine' },
    ]);
    const answer = await submit(server.url, alice.api_key, multipart([{ name: 'mixed.zip', bytes: zip, type: 'application/zip' }]));
    const done = await waitFor(() => getJob(answer.body.job_ids[0]), terminal);
    expect(done.body.status, done.body.error_message).toBe('partial_success');
    expect(done.body.result.content).toContain('this member is fine');
    expect(done.body.result.metadata.failed_sections).toEqual([expect.objectContaining({ name: 'damaged.pdf' })]);
  });
});

describe('the local S3 and DynamoDB answer only signed requests (item 2)', () => {
  const endpoints = () => JSON.parse(fs.readFileSync(path.join(server.dataDir, 'local-endpoints.json'), 'utf8')) as { s3: string; dynamodb: string; bucket: string; table: string };

  it('keeps per-data-directory credentials in a 0600 file', async () => {
    const file = path.join(server.dataDir, 'local-credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const mine = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(mine.accessKeyId).not.toBe('S3RVER');
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-creds-'));
    expect(localCredentials(other)).not.toEqual(mine);
    expect(localCredentials(other)).toEqual(localCredentials(other));
  });

  it('refuses unsigned and wrongly signed S3 requests: no listing, no reading results, no overwriting a pending upload', async () => {
    const { s3, bucket } = endpoints();
    const list = await fetch(`${s3}/${bucket}?list-type=2`);
    expect(list.status).toBe(403);
    expect(await list.text()).toMatch(/AccessDenied.*not signed/);

    const created = await request(server.url, 'POST', '/v1/uploads', {
      key: alice.api_key,
      body: JSON.stringify({ filename: 'victim.txt', size: 11 }),
      headers: { 'content-type': 'application/json' },
    });
    const uploadUrl = new URL(created.body.upload_url);
    const unsignedPut = await fetch(`${uploadUrl.origin}${uploadUrl.pathname}`, { method: 'PUT', body: 'attacker!!!' });
    expect(unsignedPut.status).toBe(403);
    // A presigned URL with its signature changed is refused too.
    const forged = new URL(uploadUrl);
    forged.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    expect((await fetch(forged, { method: 'PUT', body: 'attacker!!!' })).status).toBe(403);

    const wrong = new S3Client({ endpoint: s3, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await expect(wrong.send(new ListObjectsV2Command({ Bucket: bucket }))).rejects.toMatchObject({ name: 'AccessDenied' });
    wrong.destroy();

    // The real upload still works, and the job completes with the owner's text.
    expect((await fetch(created.body.upload_url, { method: 'PUT', body: 'owner text!' })).status).toBe(200);
    const done = await waitFor(() => getJob(created.body.job_id), terminal);
    expect(done.body.result.content).toBe('owner text!');
  });

  it('refuses unsigned and wrongly signed DynamoDB requests', async () => {
    const { dynamodb, table } = endpoints();
    const unsigned = await fetch(dynamodb, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.Scan' },
      body: JSON.stringify({ TableName: table }),
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.text()).toMatch(/UnrecognizedClientException.*not signed/);
    const wrong = new DynamoDBClient({ endpoint: dynamodb, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
    await expect(wrong.send(new ScanCommand({ TableName: table }))).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    wrong.destroy();
  });
});

describe('upload URLs after the fact (item 6)', () => {
  it('deletes a PUT that lands after its job was cancelled or completed', async () => {
    const { s3, bucket } = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'local-endpoints.json'), 'utf8'));
    const client = new S3Client({ endpoint: s3, region: 'us-east-1', forcePathStyle: true, credentials: localCredentials(server.dataDir) });
    const exists = (key: string) =>
      client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
        () => true,
        () => false,
      );
    const create = async (filename: string, size: number) =>
      (await request(server.url, 'POST', '/v1/uploads', { key: alice.api_key, body: JSON.stringify({ filename, size }), headers: { 'content-type': 'application/json' } })).body;

    // Cancelled while awaiting its upload, then the PUT comes.
    const cancelled = await create('late.txt', 4);
    expect((await request(server.url, 'POST', `/v1/jobs/${cancelled.job_id}/cancel`, { key: alice.api_key })).status).toBe(200);
    expect((await fetch(cancelled.upload_url, { method: 'PUT', body: 'late' })).status).toBe(200);
    const cancelledKey = decodeURIComponent(new URL(cancelled.upload_url).pathname.split('/').slice(2).join('/'));
    await expect.poll(() => exists(cancelledKey)).toBe(false);

    // Completed, then the same URL is used again.
    const done = await create('twice.txt', 4);
    await fetch(done.upload_url, { method: 'PUT', body: 'once' });
    expect((await waitFor(() => getJob(done.job_id), terminal)).body.status).toBe('completed');
    const doneKey = decodeURIComponent(new URL(done.upload_url).pathname.split('/').slice(2).join('/'));
    await expect.poll(() => exists(doneKey)).toBe(false);
    expect((await fetch(done.upload_url, { method: 'PUT', body: 'more' })).status).toBe(200);
    await expect.poll(() => exists(doneKey)).toBe(false);
    client.destroy();
  });
});

describe('what a sandbox key may do (item 10)', () => {
  it('extracts and reads its own jobs, and gets 403 for the project\'s records and webhooks', async () => {
    const key = (await request(server.url, 'POST', '/v1/sandbox/key', { localAddress: '127.0.0.31' })).body.api_key as string;
    const as = (method: string, p: string, body?: string) =>
      request(server.url, method, p, { key, localAddress: '127.0.0.31', ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
    const accepted = await submit(server.url, key, multipart([{ name: 'a.txt', bytes: 'trial text' }]), '127.0.0.31');
    expect(accepted.status).toBe(202);
    const id = accepted.body.job_ids[0];
    const done = await waitFor(() => as('GET', `/v1/jobs/${id}`), terminal);
    expect(done.body.result.content).toBe('trial text');
    expect((await as('GET', `/v1/jobs/${id}/deliveries`)).status).toBe(200);

    for (const [method, p, body] of [
      ['GET', '/v1/jobs'],
      ['GET', '/v1/usage'],
      ['GET', '/v1/keys'],
      ['POST', '/v1/keys'],
      ['GET', '/v1/webhooks'],
      ['POST', '/v1/webhooks', JSON.stringify({ url: 'http://127.0.0.1:9/hook' })],
      ['DELETE', '/v1/webhooks/00000000-0000-4000-8000-000000000000'],
      ['POST', '/v1/webhooks/00000000-0000-4000-8000-000000000000/test'],
    ] as const) {
      const answer = await as(method, p, body);
      expect(answer.status, `${method} ${p}: ${JSON.stringify(answer.body)}`).toBe(403);
      expect(answer.body).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/live key/) });
    }
  });
});

describe('keep-alive (item 11)', () => {
  it('keeps an idle connection open past Node\'s default 5 s, so the client, not the server, closes it', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean; keepAlive: string | undefined }>((resolve, reject) => {
        const req = http.get(`${server.url}/v1/openapi.json`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, keepAlive: String(res.headers['keep-alive'] ?? '') }));
        });
        req.on('error', reject);
      });
    const first = await get();
    expect(first).toMatchObject({ status: 200, reused: false });
    expect(first.keepAlive).toMatch(/timeout=65/);
    // Idle for longer than Node's default keepAliveTimeout (5 s): the server must not have closed the socket.
    await new Promise((r) => setTimeout(r, 6000));
    expect(await get()).toMatchObject({ status: 200, reused: true });
    agent.destroy();
  });
});

describe('the OpenAPI document lists every status the server answers (item 12)', () => {
  it('documents 405 (and the gateway\'s 413) on every operation, and a 405 answer matches it', async () => {
    const doc = (await request(server.url, 'GET', '/v1/openapi.json')).body;
    for (const [p, methods] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(Object.keys(op.responses), `${method} ${p}`).toEqual(expect.arrayContaining(['405', '413', '500']));
        if (p.includes('{')) expect(Object.keys(op.responses), `${method} ${p}`).toContain('400');
      }
    }
    const answer = await request(server.url, 'PUT', '/v1/jobs', { key: alice.api_key });
    expect(answer.status).toBe(405);
    expect(answer.body).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/use GET/) });
  });
});
