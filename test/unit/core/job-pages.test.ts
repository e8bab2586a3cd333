import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { getPageImage, pageDocumentKey } from '../../../lambdas/core/job-pages.ts';
import { pageViewOf as pagedKind } from '../../../lambdas/extract/engine/registry.ts';
import type { Blobs, JobLookup } from '../../../lambdas/core/ports.ts';
import type { Job } from '../../../lambdas/core/job.ts';
import { renderShownPage } from '../../../lambdas/extract/engine/page-view.ts';
import { layoutPdf } from '../../support/pdf-fixture.ts';
import { makeJob } from '../../support/jobs.ts';

const pdf = layoutPdf([{ texts: [{ x: 72, y: 700, text: 'One' }] }, { texts: [{ x: 72, y: 700, text: 'Two' }] }]);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function setup(job: Job, kept: Uint8Array | null, now = Date.now()) {
  const jobs: JobLookup = { getJob: async (id: string) => (id === job.id ? job : null) };
  const blobs = { get: async (key: string) => (key === pageDocumentKey(job.project_id, job.id) ? kept : null) } as unknown as Blobs;
  const renderer = { renderPage: (b: Uint8Array, p: number, w: number) => renderShownPage(b, p, w) };
  const principal = { project_id: job.project_id } as never;
  return (page: string, width?: string, id = job.id) => getPageImage({ jobs, blobs, clock: { now: () => now }, renderer }, principal, id, page, width);
}

const completed = (overrides: Partial<Job> = {}) =>
  makeJob({ status: 'completed', filename: 'a.pdf', expires_at: Math.floor(Date.now() / 1000) + 7 * 86400, result_ref: { key: 'r', size: 1, expires_at: Math.floor(Date.now() / 1000) + 3600 }, ...overrides });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

describe('page images of a job', () => {
  it('knows the documents that have pages from their bytes', () => {
    expect(pagedKind(pdf)).toEqual({ view: 'render', mime_type: 'application/pdf' });
    expect(pagedKind(Uint8Array.from(PNG))).toEqual({ view: 'picture', mime_type: 'image/png' });
    expect(pagedKind(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0))).toEqual({ view: 'picture', mime_type: 'image/jpeg' });
    expect(pagedKind(new TextEncoder().encode('# a heading'))).toBeNull();
  });

  it('renders a page of a PDF as a PNG of the width asked for, in its proportions', async () => {
    const get = setup(completed(), pdf);
    const reply = await get('2', '306');
    expect(reply.headers?.['Content-Type']).toBe('image/png');
    const png = Buffer.from(reply.body as Uint8Array);
    expect([...png.subarray(0, 8)]).toEqual(PNG);
    expect(png.readUInt32BE(16)).toBe(306);
    expect(png.readUInt32BE(20)).toBe(396); // US Letter: 612 x 792 points
  });

  it('answers 404 for a page outside the document, 400 for a bad page or width', async () => {
    const get = setup(completed(), pdf);
    expect(await status(get('3'))).toBe(404);
    expect(await status(get('0'))).toBe(400);
    expect(await status(get('x'))).toBe(400);
    expect(await status(get('1', '50'))).toBe(400);
    expect(await status(get('1', '5000'))).toBe(400);
    expect(await status(get('1', undefined, 'not-a-uuid'))).toBe(400);
  });

  it('answers 403 for another project, 404 for no job, 409 before completion or without pages, 410 once the result expired', async () => {
    const job = completed();
    expect(await status(getPageImage({ jobs: { getJob: async () => job }, blobs: {} as Blobs, clock: { now: () => Date.now() }, renderer: { renderPage: async () => ({ pages: 0, png: null }) } }, { project_id: 'other' } as never, job.id, '1', undefined))).toBe(403);
    expect(await status(setup(job, pdf)('1', undefined, '00000000-0000-4000-8000-000000000000'))).toBe(404);
    expect(await status(setup(completed({ status: 'processing', result_ref: undefined }), pdf)('1'))).toBe(409);
    expect(await status(setup(completed(), null)('1'))).toBe(409);
    expect(await status(setup(completed(), new TextEncoder().encode('plain text'))('1'))).toBe(409);
    const later = Date.now() + 2 * 3600_000;
    expect(await status(setup(job, pdf, later)('1'))).toBe(410);
  });

  it("draws a TIFF's pages as PNGs (browsers show no TIFF), where its pages are stored as a PDF holds them", async () => {
    // test/fixtures/README.md: a two-page Group 4 fax at 200 dpi, 1,700 x 2,200 pixels a page.
    const tiff = new Uint8Array(fs.readFileSync(new URL('../../fixtures/fax-g4.tif', import.meta.url)));
    expect(pagedKind(tiff)).toEqual({ view: 'render', mime_type: 'image/tiff' });
    const get = setup(completed({ filename: 'fax.tif' }), tiff);
    const reply = await get('2', '425');
    expect(reply.headers?.['Content-Type']).toBe('image/png');
    const png = Buffer.from(reply.body as Uint8Array);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([425, 550]);
    const missing = await get('3').catch((e: ApiError) => e);
    expect(missing).toMatchObject({ status: 404, message: expect.stringMatching(/has 2 pages; there is no page 3/) });
  });

  it('answers an image job page 1 as the image itself', async () => {
    const png = Uint8Array.from([...PNG, 0, 0, 0, 13]);
    const get = setup(completed({ filename: 'a.png' }), png);
    const reply = await get('1');
    expect(reply.headers?.['Content-Type']).toBe('image/png');
    expect(await status(get('2'))).toBe(404);
  });
});
