// The dashboard's playground in a real browser, and the page route it shows
// pages from: drop a generated two-page PDF, see both pages with every
// element's box where the result's bbox says, click a box to find its text.

import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, request, submit } from '../support/api-client.ts';
import { ROOT, startServer, waitFor, type RunningServer } from '../support/local-server.ts';
import { checkAnswer } from '../support/openapi-check.ts';
import { makePdf } from '../support/pdf-fixture.ts';
import { playgroundPdf } from '../support/playground-pdf.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let server: RunningServer;
let browser: Browser;
let page: Page;
let owner: { project_id: string; api_key: string };
let other: { project_id: string; api_key: string };
let jobId: string;

interface Element {
  type: string;
  text: string;
  page: number;
  bbox?: [number, number, number, number];
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does).`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer();
  owner = await server.createProject('playground');
  other = await server.createProject('someone else');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Live API key').fill(owner.api_key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#app').waitFor({ state: 'visible' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `playground-${name}.png`), fullPage: true });

/** A GET of the page route, its answer checked against the OpenAPI document (the body as bytes). */
async function getPage(id: string, n: number | string, key: string, query = ''): Promise<{ status: number; type: string; bytes: Buffer; json: any }> {
  const res = await fetch(`${server.url}/v1/jobs/${id}/pages/${n}${query}`, { headers: { authorization: `Bearer ${key}`, accept: 'image/png' } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const json = type.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : null;
  await checkAnswer(server.url, 'GET', `/v1/jobs/${id}/pages/${n}`, res.status, type, json ?? bytes.toString('latin1'));
  return { status: res.status, type, bytes, json };
}

describe('the playground', () => {
  it('takes a dropped PDF, shows its status timeline, then both pages with every element boxed where its bbox says', async () => {
    const pdf = playgroundPdf();
    // A synthetic drop: a File in a DataTransfer, as a dragged file arrives.
    await page.evaluate((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'fruit-report.pdf', { type: 'application/pdf' }));
      document.getElementById('pg-drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, [...pdf]);
    await expect.poll(() => page.locator('#pg-chosen').textContent()).toContain('fruit-report.pdf');
    await page.getByLabel('Chunking').selectOption('section');
    await shot('chosen');
    await page.getByRole('button', { name: 'Extract' }).click();

    await page.locator('#pg-viewer').waitFor({ state: 'visible', timeout: 120_000 });
    await expect.poll(() => page.locator('#pg-timeline').textContent()).toContain('completed');
    jobId = await lastJobId();
    // The page's last poll just read the job: wait the second out before reading it here.
    await new Promise((r) => setTimeout(r, 1100));
    const job = await waitFor(() => request(server.url, 'GET', `/v1/jobs/${jobId}`, { key: owner.api_key }), (a) => a.status === 200, { timeoutMs: 30_000 });
    const elements = job.body.result.elements as Element[];
    const sizes = job.body.result.metadata.page_sizes as { page: number; width: number; height: number }[];
    expect(elements.map((e) => e.type)).toEqual(expect.arrayContaining(['heading', 'paragraph', 'table']));

    // Both pages, each an image of the route, with one box per element of the page.
    await expect.poll(() => page.locator('.pg-page').count()).toBe(2);
    await expect.poll(() => page.locator('.pg-box').count(), { timeout: 30_000 }).toBe(elements.filter((e) => e.bbox).length);
    for (const n of [1, 2]) {
      const holder = page.locator(`.pg-page[data-page="${n}"]`);
      await expect.poll(() => holder.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      const frame = (await holder.boundingBox())!;
      const size = sizes.find((s) => s.page === n)!;
      // The holder's border is 1 px; the image fills the rest.
      const scale = (frame.width - 2) / size.width;
      for (const [i, e] of elements.entries()) {
        if (e.page !== n || !e.bbox) continue;
        const box = (await page.locator(`.pg-box[data-el="${i}"]`).boundingBox())!;
        const [x0, y0, x1, y1] = e.bbox;
        expect(Math.abs(box.x - (frame.x + 1 + x0 * scale))).toBeLessThan(2);
        expect(Math.abs(box.y - (frame.y + 1 + y0 * scale))).toBeLessThan(2);
        expect(Math.abs(box.width - (x1 - x0) * scale)).toBeLessThan(2);
        expect(Math.abs(box.height - (y1 - y0) * scale)).toBeLessThan(2);
      }
    }
    await shot('viewer');
  }, 180_000);

  it("clicking the heading's box highlights the heading in the content, and the reverse", async () => {
    const heading = page.locator('.pg-box.t-heading').first();
    const i = await heading.getAttribute('data-el');
    await heading.click();
    const inContent = page.locator(`#pg-content [data-el="${i}"]`);
    await expect.poll(() => inContent.getAttribute('class')).toContain('active');
    expect(await inContent.textContent()).toBe('Quarterly Fruit Report');
    expect(await inContent.evaluate((el) => el.tagName)).toBe('H1');
    // Keyboard: the boxes are buttons, reachable with Tab and pressed with Enter.
    const paragraphBox = page.locator('.pg-box.t-paragraph').first();
    await paragraphBox.focus();
    await page.keyboard.press('Enter');
    const p = await paragraphBox.getAttribute('data-el');
    await expect.poll(() => page.locator(`#pg-content [data-el="${p}"]`).getAttribute('class')).toContain('active');
    // The reverse: the table's block in the content marks its box on the page.
    const tableBlock = page.locator('#pg-content .t-table');
    await tableBlock.click();
    const t = await tableBlock.getAttribute('data-el');
    await expect.poll(() => page.locator(`.pg-box[data-el="${t}"]`).getAttribute('class')).toContain('active');
    // Tables as tables; chunks with their heading paths; downloads as Blob URLs.
    expect(await page.locator('#pg-content table td').allTextContents()).toEqual(expect.arrayContaining(['Banana', 'Yellow', '0.50']));
    await page.locator('#pg-chunks-box summary').click();
    expect(await page.locator('#pg-chunks').textContent()).toContain('Outlook');
    expect(await page.getByRole('link', { name: 'Download JSON' }).getAttribute('href')).toMatch(/^blob:/);
    expect(await page.getByRole('link', { name: 'Download Markdown' }).getAttribute('href')).toMatch(/^blob:/);
    await shot('highlighted');
  });

  it('sends a document over 4.5 MB through the upload flow, with an upload progress bar', async () => {
    const big = makePdf({ pages: ['A large document', 'Its second page'], padding: 5 * 1024 * 1024 });
    await page.locator('#pg-file').setInputFiles({ name: 'large.pdf', mimeType: 'application/pdf', buffer: Buffer.from(big) });
    await expect.poll(() => page.locator('#pg-chosen').textContent()).toContain('through the upload flow');
    const created = page.waitForResponse((r) => r.url().endsWith('/v1/uploads') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Extract' }).click();
    expect((await created).status()).toBe(201);
    await expect.poll(async () => `${await page.locator('#pg-title').textContent()} ${await page.locator('#pg-message').textContent()}`, { timeout: 120_000 }).toMatch(/^large\.pdf \(completed\)/);
    expect(await page.locator('#pg-upload').evaluate((p: HTMLProgressElement) => p.value)).toBe(100);
    expect(await page.locator('#pg-timeline').textContent()).toMatch(/awaiting_upload.*completed/);
    await expect.poll(() => page.locator('.pg-page').count()).toBe(2);
    await shot('upload-flow');
  }, 180_000);

  it('is usable at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('opens any job of the jobs list in the viewer; a failed one shows its error_message; Markdown of a flow format is text, never HTML', async () => {
    const md = '# Plan\n\nSome <img src=x onerror="window.pwned=1"> text.\n\n## Steps\n\n- one\n- two\n';
    const flow = (await submit(server.url, owner.api_key, multipart([{ name: 'plan.md', bytes: md }]))).body.job_ids[0] as string;
    const broken = (await submit(server.url, owner.api_key, multipart([{ name: 'broken.pdf', bytes: '%PDF-1.7\nthis is not a PDF at all\n%%EOF' }]))).body.job_ids[0] as string;
    await waitFor(() => request(server.url, 'GET', `/v1/jobs/${flow}`, { key: owner.api_key }), (a) => a.body?.status === 'completed', { timeoutMs: 120_000 });
    await waitFor(() => request(server.url, 'GET', `/v1/jobs/${broken}`, { key: owner.api_key }), (a) => a.body?.status === 'failed', { timeoutMs: 120_000 });
    await new Promise((r) => setTimeout(r, 1100));

    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: 'Open broken.pdf in the viewer' }).click();
    await expect.poll(() => page.locator('#pg-error').textContent(), { timeout: 30_000 }).toMatch(/.+/);
    expect(await page.locator('#pg-error').isVisible()).toBe(true);
    await shot('failed');

    await page.getByRole('button', { name: 'Open plan.md in the viewer' }).click();
    await expect.poll(() => page.locator('#pg-title').textContent(), { timeout: 30_000 }).toContain('plan.md');
    await expect.poll(() => page.locator('#pg-outline').textContent()).toContain('Steps');
    expect(await page.locator('#pg-pages-view').isVisible()).toBe(false);
    expect(await page.locator('#pg-content img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    await shot('flow');
  }, 180_000);
});

describe('GET /v1/jobs/{id}/pages/{n}', () => {
  it('answers a PNG of a page, at the width asked for', async () => {
    const answer = await getPage(jobId, 2, owner.api_key, '?width=306');
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('image/png');
    expect([...answer.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(answer.bytes.readUInt32BE(16)).toBe(306);
    expect(answer.bytes.readUInt32BE(20)).toBe(396);
  });

  it("is 403 for another project's job, 401 without a key, 404 for a page the document does not have, 400 for a bad width", async () => {
    expect((await getPage(jobId, 1, other.api_key)).status).toBe(403);
    const anonymous = await fetch(`${server.url}/v1/jobs/${jobId}/pages/1`);
    expect(anonymous.status).toBe(401);
    const missing = await getPage(jobId, 3, owner.api_key);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toContain('2 pages');
    expect((await getPage(jobId, 1, owner.api_key, '?width=5')).status).toBe(400);
    expect((await getPage('00000000-0000-4000-8000-000000000000', 1, owner.api_key)).status).toBe(404);
  });

  it('is 409 for a job whose format has no pages', async () => {
    const id = (await submit(server.url, owner.api_key, multipart([{ name: 'note.txt', bytes: 'no pages to show' }]))).body.job_ids[0] as string;
    await waitFor(() => request(server.url, 'GET', `/v1/jobs/${id}`, { key: owner.api_key }), (a) => a.body?.status === 'completed', { timeoutMs: 120_000 });
    const answer = await getPage(id, 1, owner.api_key);
    expect(answer.status).toBe(409);
    expect(answer.json.message).toContain('only PDFs and images');
  }, 180_000);
});

/** The id of the newest job of the project. */
async function lastJobId(): Promise<string> {
  const list = await request(server.url, 'GET', '/v1/jobs?limit=1', { key: owner.api_key });
  return list.body.jobs[0].id as string;
}
