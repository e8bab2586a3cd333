import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit } from '../support/api-client.ts';
import { ROOT, startServer, type RunningServer } from '../support/local-server.ts';

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
    const accepted = await submit(server.url, project.api_key, multipart([{ name: 'dash.txt', bytes: 'shown on the dashboard' }]));
    const id = accepted.body.job_ids[0];
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.locator('#jobs-body tr').filter({ hasText: 'dash.txt' }).textContent();
      }, { timeout: 30_000, interval: 1000 })
      .toContain('completed');
    await page.getByRole('button', { name: 'Result JSON of dash.txt' }).click();
    await expect.poll(() => page.locator('#jobs-body pre').textContent()).toContain('shown on the dashboard');
    expect(await page.locator('#jobs-body pre').textContent()).toContain(id);
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => page.locator('#jobs-empty').isVisible()).toBe(true);
    await page.getByLabel('Status').selectOption('');
    await shot('jobs');
    // Pages are counted just after the job completes, so the refresh that showed it completed may have read usage before.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return page.locator('#pages-today').textContent();
      }, { timeout: 30_000, interval: 1000 })
      .toBe('1');
    expect(await page.locator('#pages-month').textContent()).toBe('1');
    await shot('usage');
  });

  it('fits a phone screen without sideways scrolling of the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('#app').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('phone');
  });
});
