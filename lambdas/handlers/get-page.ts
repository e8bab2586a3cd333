import { functions } from '../../lib/wiring.ts';
import { onColdStart } from '../adapters/cold-start.ts';
import * as dynamo from '../adapters/aws-dynamodb.ts';
import * as s3 from '../adapters/aws-s3.ts';
import { compose, getPageDeps } from '../adapters/compose.ts';
import { authenticate } from '../core/auth.ts';
import { getPageImage, type PageRenderer } from '../core/job-pages.ts';
import { header, route, sourceIp } from '../core/http.ts';
import type { Blobs, Clock, JobLookup, KeyLookup } from '../core/ports.ts';
import { createExtractorPool } from '../extract/engine/pool.ts';

/** GET /v1/jobs/{id}/pages/{n}: a page of a finished job's PDF (a PNG rendered by PDFium) or its image. */
export const makeHandler = (deps: { keys: KeyLookup; jobs: JobLookup; blobs: Blobs; clock: Clock; renderer: PageRenderer }) =>
  route(async (event) => {
    const principal = await authenticate(deps.keys, header(event, 'authorization'), sourceIp(event), deps.clock.now());
    return getPageImage(deps, principal, event.pathParameters?.id ?? '', event.pathParameters?.n ?? '', event.queryStringParameters?.width ?? undefined);
  });

const spec = functions['get-page'];
export const handler = onColdStart(() =>
  makeHandler(
    getPageDeps(compose({
      keys: dynamo.keys,
      jobs: dynamo.jobs,
      blobs: s3.blobs,
      renderer: () => {
        // One isolated worker thread: a hostile PDF costs the thread, killed before the function's own timeout.
        const pool = createExtractorPool({ size: 1, timeoutMs: (spec.timeoutSeconds - 4) * 1000, maxMemoryMb: Math.floor(spec.memoryMb * 0.75) });
        return { renderPage: (b, p, w) => pool.renderPage!(b, p, w) };
      },
    })),
  ),
);
