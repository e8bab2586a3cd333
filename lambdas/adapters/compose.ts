// The one place the functions' dependencies are put together, for the Lambda
// handlers and the local server alike: given the outside world (AWS clients,
// or the local server's twins), what each function of lib/wiring.ts gets.
//
// It lives beside the adapters rather than in lib/wiring.ts because it is code
// that builds objects, not the declaration the CDK app reads; and it imports
// no AWS client and no part of the extraction engine, because every Lambda
// bundle includes it: a handler hands in only the parts its function uses
// (each lambdas/adapters/aws-*.ts module has one factory per part, named for
// it), so a bundle carries only the adapters and loads only the SDK clients
// its function calls (lambdas/adapters/aws-clients.ts).

import type { FunctionName } from '../../lib/wiring.ts';
import { maxReceiveCount } from '../../lib/wiring-runtime.ts';
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
  type DownloadUrls,
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

/** Every record port: what one table holds (DynamoStore implements them all; a Lambda takes one adapter per port it calls). */
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
export type Engine = WorkerDeps['extractor'] & NonNullable<SplitSettings['pdf']> & NonNullable<SplitSettings['ranges']> & NonNullable<SplitSettings['pages']>;

type CountPages = (input: { bytes: Uint8Array; filename: string; contentType: string | null }) => Promise<number>;

/**
 * The outside world, each part made when a function first asks for it (so a
 * client is created once per container, and never for a function that does
 * not use it).
 */
export interface Infrastructure {
  keys(): ApiKeys;
  sandboxIssues(): SandboxIssues;
  quotas(): Quotas;
  jobs(): Jobs;
  jobQueries(): JobQueries;
  webhooks(): WebhookRegistrations;
  eventClaims(): WebhookEventClaims;
  deliveries(): DeliveryLog;
  usage(): Usage;
  blobs(): Blobs;
  uploadUrls(): UploadUrls;
  downloadUrls(): DownloadUrls;
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
  /** The format a filename names (the engine registry's formatNamed), for the functions that take documents in. */
  formatNames(): (filename: string) => string;
}

export interface Settings {
  /** Documents over this many bytes take the large-document pipeline. */
  splitBytes: number;
  /** How long a claimed webhook event may stay queued before it counts as lost (scaled on the local server). */
  eventRequeueAfterMs?: number;
}

/** Every record part answered by one object that implements them all (the local server's DynamoStore). */
export const recordParts = (records: Records) =>
  ({
    keys: () => records,
    sandboxIssues: () => records,
    quotas: () => records,
    jobs: () => records,
    jobQueries: () => records,
    webhooks: () => records,
    eventClaims: () => records,
    deliveries: () => records,
    usage: () => records,
  }) satisfies Partial<Infrastructure>;

/** The parts a function's builder takes its dependencies from, each made once. */
export interface Composition {
  part<K extends keyof Infrastructure>(name: K): ReturnType<NonNullable<Infrastructure[K]>>;
  settings: Settings;
  /** The announcer of terminal jobs, made by the first function that announces (jobEvents). */
  events?: WebhookEvents;
}

/**
 * The parts a function's dependencies are built from (by its builder below).
 * A function asking for a part it was not given is a wiring mistake, reported by name.
 */
export function compose(parts: Partial<Infrastructure>, settings: Settings = { splitBytes: limits.splitBytes }): Composition {
  const made = new Map<keyof Infrastructure, unknown>();
  return {
    settings,
    part<K extends keyof Infrastructure>(name: K): ReturnType<NonNullable<Infrastructure[K]>> {
      if (!made.has(name)) {
        const make = parts[name] as (() => unknown) | undefined;
        if (!make) throw new Error(`compose: no ${name} was given; pass the factory of that name from its lambdas/adapters/aws-*.ts module`);
        made.set(name, make());
      }
      return made.get(name) as ReturnType<NonNullable<Infrastructure[K]>>;
    },
  };
}

const clock = systemClock;
const log = logJson;

/** Terminal jobs are announced to their webhooks through the webhooks queue. */
const jobEvents = (c: Composition) =>
  (c.events ??= new WebhookEvents({
    eventClaims: c.part('eventClaims'),
    webhooks: c.part('webhooks'),
    queue: c.part('webhookQueue'),
    clock,
    requeueAfterMs: c.settings.eventRequeueAfterMs,
  }));

// One builder per function, each its own top-level function: a handler calls
// only its own, so esbuild leaves the others out of its bundle (and
// WebhookEvents out of the functions that announce nothing).
export const sandboxKeyDeps = (c: Composition) => ({ keys: c.part('keys'), sandboxIssues: c.part('sandboxIssues'), clock });
export const submitDeps = (c: Composition) => ({
  keys: c.part('keys'),
  jobs: c.part('jobs'),
  quotas: c.part('quotas'),
  blobs: c.part('blobs'),
  queue: c.part('extractionQueue'),
  clock,
  countPages: c.part('countPages'),
  nameFormat: c.part('formatNames'),
  webhookPolicy: c.part('webhookIntake'),
});
export const getJobDeps = (c: Composition) => ({ keys: c.part('keys'), jobQueries: c.part('jobQueries'), blobs: c.part('blobs'), downloadUrls: c.part('downloadUrls'), clock });
export const getPageDeps = (c: Composition) => ({ keys: c.part('keys'), jobs: c.part('jobs'), blobs: c.part('blobs'), clock, renderer: c.part('renderer') });
export const projectDeps = (c: Composition) => ({ keys: c.part('keys'), jobQueries: c.part('jobQueries'), usage: c.part('usage'), clock });
export const cancelJobDeps = (c: Composition) => ({
  keys: c.part('keys'),
  jobs: c.part('jobs'),
  quotas: c.part('quotas'),
  blobs: c.part('blobs'),
  clock,
  events: jobEvents(c),
  aggregation: c.part('aggregation'),
});
export const uploadsDeps = (c: Composition) => ({
  keys: c.part('keys'),
  jobs: c.part('jobs'),
  quotas: c.part('quotas'),
  queue: c.part('extractionQueue'),
  urls: c.part('uploadUrls'),
  clock,
  intake: c.part('webhookIntake'),
});
export const uploadArrivedDeps = (c: Composition) => ({
  jobs: c.part('jobs'),
  quotas: c.part('quotas'),
  blobs: c.part('blobs'),
  queue: c.part('extractionQueue'),
  clock,
  events: jobEvents(c),
  countPages: c.part('countPages'),
  nameFormat: c.part('formatNames'),
});
export const webhooksDeps = (c: Composition) => ({
  keys: c.part('keys'),
  webhooks: c.part('webhooks'),
  jobs: c.part('jobs'),
  deliveries: c.part('deliveries'),
  clock,
  intake: c.part('webhookIntake'),
  sender: c.part('testSender'),
});
export const webhookDeliveryDeps = (c: Composition) => ({
  jobs: c.part('jobs'),
  webhooks: c.part('webhooks'),
  deliveries: c.part('deliveries'),
  cipher: c.part('webhookCipher'),
  sender: c.part('deliverySender'),
  clock,
  visibility: c.part('visibility'),
});
export const extractWorkerDeps = (c: Composition) => {
  const engine = c.part('engine');
  return {
    jobs: c.part('jobs'),
    quotas: c.part('quotas'),
    blobs: c.part('blobs'),
    clock,
    events: jobEvents(c),
    extractor: engine,
    log,
    // The same engine cuts a large PDF into one PDF per chunk, so each chunk worker reads only its pages.
    split: { queue: c.part('chunkQueue'), splitBytes: c.settings.splitBytes, pagesPerChunk: limits.chunkPages, pdf: engine, ranges: engine, pages: engine },
    maxReceiveCount: maxReceiveCount.extraction,
  };
};
export const chunkWorkerDeps = (c: Composition) => ({
  jobs: c.part('jobs'),
  blobs: c.part('blobs'),
  clock,
  extractor: c.part('engine'),
  aggregation: c.part('aggregation'),
  log,
  maxReceiveCount: maxReceiveCount.chunks,
});
export const aggregatePartDeps = (c: Composition) => ({ blobs: c.part('blobs') });
export const aggregateFinishDeps = (c: Composition) => ({
  jobs: c.part('jobs'),
  quotas: c.part('quotas'),
  blobs: c.part('blobs'),
  clock,
  events: jobEvents(c),
  log,
});
export const aggregateFailDeps = (c: Composition) => ({ jobs: c.part('jobs'), quotas: c.part('quotas'), blobs: c.part('blobs'), clock, events: jobEvents(c), log });
export const siteDeps = (_: Composition) => ({});

/** Every function's builder, by the name lib/wiring.ts gives it. */
export const functionDeps = {
  'sandbox-key': sandboxKeyDeps,
  submit: submitDeps,
  'get-job': getJobDeps,
  'get-page': getPageDeps,
  project: projectDeps,
  'cancel-job': cancelJobDeps,
  uploads: uploadsDeps,
  'upload-arrived': uploadArrivedDeps,
  webhooks: webhooksDeps,
  'webhook-delivery': webhookDeliveryDeps,
  'extract-worker': extractWorkerDeps,
  'chunk-worker': chunkWorkerDeps,
  'aggregate-part': aggregatePartDeps,
  'aggregate-finish': aggregateFinishDeps,
  'aggregate-fail': aggregateFailDeps,
  site: siteDeps,
} satisfies Record<FunctionName, (c: Composition) => object>;

/** Every function's dependencies from one set of parts: what the local server, which runs them all, builds. */
export function composeAll(parts: Partial<Infrastructure>, settings?: Settings): { [N in FunctionName]: () => ReturnType<(typeof functionDeps)[N]> } {
  const c = compose(parts, settings);
  return Object.fromEntries(Object.entries(functionDeps).map(([name, build]) => [name, () => build(c)])) as never;
}
