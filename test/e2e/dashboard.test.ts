import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit } from '../support/api-client.ts';
import { ROOT, startServer, waitFor, type RunningServer } from '../support/local-server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(ROOT, 'test-artifacts');

let server: RunningServer;
let browser: Browser;
let page: Page;
let project: { project_id: string; api_key: string };
let receiver: http.Server;
const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does).`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  project = await server.createProject('dashboard');
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // The flags keep Chromium off the network this machine does not have.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${server.url}/dashboard`);
});

afterAll(async () => {
  await browser?.close();
  receiver?.close();
  await server?.stop();
});

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `dashboard-${name}.png`), fullPage: true });

describe('the dashboard in a real browser', () => {
  it('refuses a sandbox key with an explanation, then signs in with a live key kept only in the tab', async () => {
    const sandbox = (await request(server.url, 'POST', '/v1/sandbox/key')).body.api_key as string;
    await page.getByLabel('Live API key').fill(sandbox);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#signin-message').textContent()).toMatch(/Sandbox keys .* cannot manage a project/);
    await shot('sign-in');

    await page.getByLabel('Live API key').fill(project.api_key);
    await page.keyboard.press('Enter');
    await page.locator('#app').waitFor({ state: 'visible' });
    expect(page.url()).not.toContain(project.api_key);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => sessionStorage.getItem('docex.apiKey'))).toBe(project.api_key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('creates a key shown once, and revokes it so the API refuses it', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#new-key').textContent()).toMatch(/^kz_[0-9A-Za-z]{29}$/);
    const created = (await page.locator('#new-key').textContent())!;
    await expect.poll(() => page.locator('#new-key-box').textContent()).toContain('will not be shown again');
    expect((await request(server.url, 'GET', '/v1/usage', { key: created })).status).toBe(200);
    await page.locator('#keys-body tr').filter({ hasText: created.slice(-4) }).waitFor();
    await shot('keys');

    await page.getByRole('button', { name: `Revoke key kz_...${created.slice(-4)}` }).click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect.poll(() => page.locator('#keys-body').textContent()).toContain('revoked');
    // The revoked key's plaintext leaves the page (issue #18 item 12).
    expect(await page.locator('#new-key-box').isHidden()).toBe(true);
    expect(await page.locator('#new-key').textContent()).toBe('');
    expect((await request(server.url, 'GET', '/v1/usage', { key: created })).status).toBe(401);
    expect((await request(server.url, 'GET', '/v1/usage', { key: project.api_key })).status).toBe(200);
  });

  it('registers a webhook and sends a correctly signed test event to it', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.getByLabel('Receiver URL (https://)').fill(url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await expect.poll(() => page.locator('#new-secret').textContent()).toMatch(/.{32,}/);
    const secret = (await page.locator('#new-secret').textContent())!;

    await page.getByRole('button', { name: `Send a test event to ${url}` }).click();
    await expect.poll(() => page.locator('#webhooks-body output').textContent()).toMatch(/HTTP 200 in \d+ ms/);
    expect(received).toHaveLength(1);
    const { headers, body } = received[0]!;
    expect(headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(JSON.parse(body.toString())).toMatchObject({ project_id: project.project_id, status: 'completed' });
    await shot('webhooks');
  });

  it('lists a submitted job reaching completed, with its result and the pages used', async () => {
    // Every wait below is on an event (a job's status, an answer the page received), never on the machine's speed.
    const accepted = await submit(server.url, project.api_key, multipart([{ name: 'dash.txt', bytes: 'shown on the dashboard' }]));
    const id = accepted.body.job_ids[0];
    const failedJob = (await submit(server.url, project.api_key, multipart([{ name: 'blob.bin', bytes: Buffer.from([0, 1, 2, 255, 254, 0, 0, 9]) }]))).body.job_ids[0];
    // Polled here until terminal: the page's own read of the job right after may well be its second poll inside a second (a 429).
    await waitFor(() => request(server.url, 'GET', `/v1/jobs/${id}`, { key: project.api_key }), (a) => a.body?.status === 'completed', { timeoutMs: 120_000 });
    await waitFor(() => request(server.url, 'GET', `/v1/jobs/${failedJob}`, { key: project.api_key }), (a) => a.body?.status === 'failed', { timeoutMs: 120_000 });
    const listed = page.waitForResponse((r) => /\/v1\/jobs\?/.test(r.url()));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await listed;
    await page.locator('#jobs-body tr').filter({ hasText: 'dash.txt' }).filter({ hasText: 'completed' }).waitFor();
    // A failed job says why, in the table (issue #18 item 12).
    expect(await page.locator('#jobs-body tr').filter({ hasText: 'blob.bin' }).textContent()).toMatch(/failed.*Unsupported format/);

    // The page waits out a 429 as the SDK does (issue #18 item 13): the job was just polled above.
    await request(server.url, 'GET', `/v1/jobs/${id}`, { key: project.api_key });
    await page.getByRole('button', { name: 'Result JSON of dash.txt' }).click();
    await page.locator('#jobs-body pre').waitFor({ timeout: 60_000 });
    expect(await page.locator('#jobs-body pre').textContent()).toContain('shown on the dashboard');
    expect(await page.locator('#jobs-body pre').textContent()).toContain(id);

    // A filter that matches nothing says so (issue #18 item 12).
    const filtered = page.waitForResponse((r) => /status=cancelled/.test(r.url()));
    await page.getByLabel('Status').selectOption('cancelled');
    await filtered;
    await page.locator('#jobs-empty').waitFor();
    expect(await page.locator('#jobs-empty').textContent()).toMatch(/No jobs match this filter/);
    const all = page.waitForResponse((r) => /\/v1\/jobs\?limit=20$/.test(r.url()));
    await page.getByLabel('Status').selectOption('');
    await all;
    // The answer arrives before the page has rendered it: wait for the notice to go (a timeout fails the test).
    await page.locator('#jobs-empty').waitFor({ state: 'hidden' });
    expect(await page.locator('#jobs-empty').isHidden()).toBe(true);
    await shot('jobs');

    // Pages are counted just after the job completes: wait for the API to count them, then for the page's read.
    await waitFor(() => request(server.url, 'GET', '/v1/usage', { key: project.api_key }), (a) => a.body?.pages_today === 1, { timeoutMs: 60_000 });
    const usage = page.waitForResponse((r) => r.url().endsWith('/v1/usage'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await usage;
    await expect.poll(() => page.locator('#pages-today').textContent()).toBe('1');
    expect(await page.locator('#pages-month').textContent()).toBe('1');
    await shot('usage');
  });

  it('fits a phone screen without sideways scrolling of the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('#app').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // No table column is off-screen, not even inside a scrolling box (issue #18 item 12): every cell is within the screen.
    await page.locator('#jobs-body tr').first().waitFor();
    const outside = await page.evaluate(() =>
      Array.from(document.querySelectorAll('td')).filter((td) => {
        const box = td.getBoundingClientRect();
        return box.width > 0 && (box.left < 0 || box.right > window.innerWidth + 0.5);
      }).length,
    );
    expect(outside).toBe(0);
    await shot('phone');
  });
});
