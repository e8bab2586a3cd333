// The one place the functions' dependencies are put together, for the Lambda
// handlers and the local server alike: given the outside world (AWS clients,
// or the local server's twins), what each function of lib/wiring.ts gets.
//
// It lives beside the adapters rather than in lib/wiring.ts because it is code
// that builds objects, not the declaration the CDK app reads; and it imports
// no AWS client and no part of the extraction engine, because every Lambda
// bundle includes it: a handler hands in only the parts its function uses
// (each lambdas/adapters/aws-*.ts module gives its service's), so a bundle
// still loads only the SDK clients it calls (lambdas/adapters/aws-clients.ts).

import type { FunctionName } from '../../lib/wiring.ts';
import { queues } from '../../lib/wiring.ts';
import type { PageRenderer } from '../core/job-pages.ts';
import type { SplitSettings } from '../core/large-document.ts';
import { limits } from '../core/limits.ts';
import { logJson } from '../core/log.ts';
import {
  systemClock,
  type AggregationStarter,
  type ApiKeys,
  type Blobs,
  type ChunkQueue,
  type DeliveryLog,
  type ExtractionQueue,
  type JobQueries,
  type Jobs,
  type MessageVisibility,
  type Projects,
  type Quotas,
  type SandboxIssues,
  type UploadUrls,
  type Usage,
  type WebhookEventClaims,
  type WebhookQueue,
  type WebhookRegistrations,
} from '../core/ports.ts';
import type { WorkerDeps } from '../core/process-job.ts';
import type { WebhookSender } from '../core/webhook-delivery.ts';
import { WebhookEvents } from '../core/webhook-events.ts';
import type { SecretCipher } from '../core/webhook-secret.ts';
import type { WebhookIntake } from '../core/webhook-target.ts';

/** Every record port: what one table holds (DynamoStore implements them all). */
export interface Records
  extends ApiKeys,
    Projects,
    SandboxIssues,
    Quotas,
    Jobs,
    JobQueries,
    WebhookRegistrations,
    WebhookEventClaims,
    DeliveryLog,
    Usage {}

/** The extraction engine as the pipeline uses it: extracting, and cutting PDFs and row files into chunks. */
export type Engine = WorkerDeps['extractor'] & NonNullable<SplitSettings['pdf']> & NonNullable<SplitSettings['ranges']>;

type CountPages = (input: { bytes: Uint8Array; filename: string; contentType: string | null }) => Promise<number>;

/**
 * The outside world, each part made when a function first asks for it (so a
 * client is created once per container, and never for a function that does
 * not use it).
 */
export interface Infrastructure {
  records(): Records;
  blobs(): Blobs;
  uploadUrls(): UploadUrls;
  extractionQueue(): ExtractionQueue;
  chunkQueue(): ChunkQueue;
  webhookQueue(): WebhookQueue;
  visibility(): MessageVisibility;
  aggregation(): AggregationStarter;
  /** Which webhook URLs are taken, and the cipher that seals their secrets. */
  webhookIntake(): WebhookIntake;
  /** Opens sealed secrets to sign deliveries. */
  webhookCipher(): SecretCipher;
  deliverySender(): WebhookSender;
  /** The test action's sender, answering within an API request's time. */
  testSender(): WebhookSender;
  engine(): Engine;
  renderer(): PageRenderer;
  countPages(): CountPages;
}

export interface Settings {
  /** Documents over this many bytes take the large-document pipeline. */
  splitBytes: number;
  /** How long a claimed webhook event may stay queued before it counts as lost (scaled on the local server). */
  eventRequeueAfterMs?: number;
}

/**
 * The dependencies of each function, built from `parts`. A function asking for
 * a part it was not given is a wiring mistake, reported by name.
 */
export function compose(parts: Partial<Infrastructure>, settings: Settings = { splitBytes: limits.splitBytes }) {
  const made = new Map<keyof Infrastructure, unknown>();
  const part = <K extends keyof Infrastructure>(name: K): ReturnType<NonNullable<Infrastructure[K]>> => {
    if (!made.has(name)) {
      const make = parts[name] as (() => unknown) | undefined;
      if (!make) throw new Error(`compose: no ${name} was given; pass the adapter module that makes it (lambdas/adapters/aws-*.ts)`);
      made.set(name, make());
    }
    return made.get(name) as ReturnType<NonNullable<Infrastructure[K]>>;
  };
  const records = () => part('records');
  const clock = systemClock;
  const log = logJson;
  let events: WebhookEvents | undefined;
  // Terminal jobs are announced to their webhooks through the webhooks queue.
  const jobEvents = () =>
    (events ??= new WebhookEvents({
      eventClaims: records(),
      webhooks: records(),
      queue: part('webhookQueue'),
      clock,
      requeueAfterMs: settings.eventRequeueAfterMs,
    }));

  return {
    'sandbox-key': () => ({ keys: records(), sandboxIssues: records(), clock }),
    submit: () => ({
      keys: records(),
      jobs: records(),
      quotas: records(),
      blobs: part('blobs'),
      queue: part('extractionQueue'),
      clock,
      countPages: part('countPages'),
      webhookPolicy: part('webhookIntake'),
    }),
    'get-job': () => ({ keys: records(), jobQueries: records(), blobs: part('blobs'), clock }),
    'get-page': () => ({ keys: records(), jobs: records(), blobs: part('blobs'), clock, renderer: part('renderer') }),
    project: () => ({ keys: records(), jobQueries: records(), usage: records(), clock }),
    'cancel-job': () => ({
      keys: records(),
      jobs: records(),
      quotas: records(),
      blobs: part('blobs'),
      clock,
      events: jobEvents(),
      aggregation: part('aggregation'),
    }),
    uploads: () => ({
      keys: records(),
      jobs: records(),
      quotas: records(),
      queue: part('extractionQueue'),
      urls: part('uploadUrls'),
      clock,
      intake: part('webhookIntake'),
    }),
    'upload-arrived': () => ({
      jobs: records(),
      quotas: records(),
      blobs: part('blobs'),
      queue: part('extractionQueue'),
      clock,
      events: jobEvents(),
      countPages: part('countPages'),
    }),
    webhooks: () => ({
      keys: records(),
      webhooks: records(),
      jobs: records(),
      deliveries: records(),
      clock,
      intake: part('webhookIntake'),
      sender: part('testSender'),
    }),
    'webhook-delivery': () => ({
      jobs: records(),
      webhooks: records(),
      deliveries: records(),
      cipher: part('webhookCipher'),
      sender: part('deliverySender'),
      clock,
      visibility: part('visibility'),
    }),
    'extract-worker': () => {
      const engine = part('engine');
      return {
        jobs: records(),
        quotas: records(),
        blobs: part('blobs'),
        clock,
        events: jobEvents(),
        extractor: engine,
        log,
        // The same engine cuts a large PDF into one PDF per chunk, so each chunk worker reads only its pages.
        split: { queue: part('chunkQueue'), splitBytes: settings.splitBytes, pagesPerChunk: limits.chunkPages, pdf: engine, ranges: engine },
        maxReceiveCount: queues.extraction.maxReceiveCount,
      };
    },
    'chunk-worker': () => ({
      jobs: records(),
      blobs: part('blobs'),
      clock,
      extractor: part('engine'),
      aggregation: part('aggregation'),
      log,
      maxReceiveCount: queues.chunks.maxReceiveCount,
    }),
    'aggregate-part': () => ({ blobs: part('blobs') }),
    'aggregate-finish': () => ({
      jobs: records(),
      quotas: records(),
      blobs: part('blobs'),
      clock,
      events: jobEvents(),
      log,
    }),
    'aggregate-fail': () => ({ jobs: records(), quotas: records(), blobs: part('blobs'), clock, events: jobEvents(), log }),
    site: () => ({}),
  } satisfies Record<FunctionName, () => object>;
}
