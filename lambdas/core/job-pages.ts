// GET /v1/jobs/{id}/pages/{n}: a page of a finished job's PDF or image, as a
// picture, for as long as the job's result is kept. A PDF or image keeps a
// copy of its document under pages/ when its job completes (process-job.ts);
// the route reads it under the job's auth and isolation, and a PDF page is
// rendered by PDFium in an extraction worker, never on the request's thread.

import type { Principal } from './auth.ts';
import { ApiError, forbidden, invalidRequest, notFound } from './errors.ts';
import type { Reply } from './http.ts';
import { limits } from './limits.ts';
import type { Blobs, Clock, JobLookup } from './ports.ts';
import { pageViewOf } from '../extract/engine/registry.ts';

export const pageDocumentKey = (projectId: string, jobId: string) => `pages/${projectId}/${jobId}`;


export const PAGE_WIDTH = { min: 100, max: 2000, default: 1000 } as const;

export interface PageRenderer {
  renderPage(bytes: Uint8Array, page: number, width: number): Promise<{ pages: number; png: Uint8Array | null }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getPageImage(
  deps: { jobs: JobLookup; blobs: Blobs; clock: Clock; renderer: PageRenderer },
  principal: Principal,
  id: string,
  pageParam: string,
  widthParam: string | undefined,
): Promise<Reply> {
  if (!UUID.test(id)) throw invalidRequest(`"${id}" is not a job id; job ids are the UUIDs returned in job_ids.`);
  if (!/^[1-9][0-9]{0,5}$/.test(pageParam)) throw invalidRequest(`"${pageParam}" is not a page number; pages are numbered from 1.`);
  const page = Number(pageParam);
  let width: number = PAGE_WIDTH.default;
  if (widthParam !== undefined) {
    width = Number(widthParam);
    if (!/^[0-9]{1,5}$/.test(widthParam) || width < PAGE_WIDTH.min || width > PAGE_WIDTH.max) {
      throw invalidRequest(`width must be a whole number of pixels from ${PAGE_WIDTH.min} to ${PAGE_WIDTH.max}; got "${widthParam}".`);
    }
  }
  const now = deps.clock.now();
  const job = await deps.jobs.getJob(id.toLowerCase());
  if (!job || job.expires_at * 1000 <= now) throw notFound(`No job ${id}. Job records are kept for 7 days after submission.`);
  if (job.project_id !== principal.project_id) throw forbidden(`Job ${id} belongs to another project; use that project's API key.`);
  if (job.status !== 'completed' && job.status !== 'partial_success') {
    throw new ApiError(409, 'conflict', `Job ${id} is ${job.status}; its pages can be fetched once it completed.`);
  }
  const ref = job.result_ref;
  const expired = () =>
    new ApiError(410, 'result_expired', `The pages of job ${job.id} are no longer kept (documents and results are kept for 12 hours after completion). Submit the file again.`);
  if (!ref || ref.expires_at * 1000 <= now) throw expired();
  const bytes = await deps.blobs.get(pageDocumentKey(job.project_id, job.id));
  const kind = bytes ? pageViewOf(bytes) : null;
  if (!bytes || !kind) {
    throw new ApiError(
      409,
      'conflict',
      `Job ${id} has no page images: only PDFs and images (PNG, JPEG, TIFF) have pages to show, and a document split into chunks (over ${limits.splitBytes / 1024 / 1024} MB) keeps none.`,
    );
  }
  if (kind.view === 'picture') {
    if (page !== 1) throw notFound(`Job ${id} is an image, shown whole as it was submitted: ask for page 1.`);
    // The image itself, as it was submitted (width does not apply).
    return { status: 200, body: bytes, headers: { 'Content-Type': kind.mime_type } };
  }
  const image = await deps.renderer.renderPage(bytes, page, width);
  if (!image.png) throw notFound(`Job ${id}'s document has ${image.pages} page${image.pages === 1 ? '' : 's'}; there is no page ${page}.`);
  return { status: 200, body: image.png, headers: { 'Content-Type': 'image/png' } };
}
