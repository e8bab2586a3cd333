// `npm start`: the whole service in one process. The handlers are the very
// Lambda handlers of the stack, built with makeHandler over the dependencies
// compose() builds for them in AWS too (lambdas/adapters/compose.ts), here over
// embedded DynamoDB/S3 and queue twins; lib/wiring.ts says which route and which
// queue reaches which handler, as it does for the stack.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { S3Event } from 'aws-lambda';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dynamoClient, s3Client } from '../../lambdas/adapters/aws-clients.ts';
import { composeAll, recordParts } from '../../lambdas/adapters/compose.ts';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { createWebhookSender, systemLookupHost } from '../../lambdas/adapters/webhook-http.ts';
import { ATTEMPT_TIMEOUT_MS } from '../../lambdas/core/webhook-delivery.ts';
import { EVENT_REQUEUE_AFTER_MS } from '../../lambdas/core/webhook-events.ts';
import type { WebhookIntake } from '../../lambdas/core/webhook-target.ts';
import { createExtractorPool, createPageCounter } from '../../lambdas/extract/engine/pool.ts';
import { trimHeap } from '../../lambdas/extract/engine/heap-trim.ts';
import { formatNamed } from '../../lambdas/extract/engine/registry.ts';
import * as extractWorker from '../../lambdas/handlers/extract-worker.ts';
import * as getJob from '../../lambdas/handlers/get-job.ts';
import * as getPage from '../../lambdas/handlers/get-page.ts';
import * as project from '../../lambdas/handlers/project.ts';
import * as cancelJob from '../../lambdas/handlers/cancel-job.ts';
import * as site from '../../lambdas/handlers/site.ts';
import * as uploadArrived from '../../lambdas/handlers/upload-arrived.ts';
import * as uploads from '../../lambdas/handlers/uploads.ts';
import { S3DownloadUrls, S3UploadUrls } from '../../lambdas/adapters/s3-signed-urls.ts';
import * as sandboxKey from '../../lambdas/handlers/sandbox-key.ts';
import * as submit from '../../lambdas/handlers/submit.ts';
import * as webhookDelivery from '../../lambdas/handlers/webhook-delivery.ts';
import * as webhooks from '../../lambdas/handlers/webhooks.ts';
import * as chunkWorker from '../../lambdas/handlers/chunk-worker.ts';
import * as aggregatePart from '../../lambdas/handlers/aggregate-part.ts';
import * as aggregateFinish from '../../lambdas/handlers/aggregate-finish.ts';
import * as aggregateFail from '../../lambdas/handlers/aggregate-fail.ts';
import { aggregationDefinition } from '../../lambdas/core/aggregation-definition.ts';
import { limits } from '../../lambdas/core/limits.ts';
import { LocalAggregationStarter } from './local-aggregation.ts';
import { LocalStateMachine } from './state-machine.ts';
import { TwinChunkQueue } from './twin-chunk-queue.ts';
import { bucketExpiry, bucketNotifications, functions, queues, routes, type FunctionName, type QueueName } from '../wiring.ts';
import { createApiGateway } from './api-gateway.ts';
import { startLifecycleSweeps } from './bucket-lifecycle.ts';
import { LOCAL_REGION, startEmbeddedAws } from './embedded-aws.ts';
import { startWiredMapping } from './event-source.ts';
import { QueueTwin } from './sqs-twin.ts';
import { TwinExtractionQueue } from './twin-extraction-queue.ts';
import { FileSecretCipher } from './file-secret-cipher.ts';
import { TwinMessageVisibility, TwinWebhookQueue } from './twin-webhook-queue.ts';

/** The API thread's committed heap above which the server collects it (checked twice a second: a merge allocates about 80 MB a second): 20 MB above an idle server's. */
const API_THREAD_HEAP_BYTES = 80 * 1024 * 1024;

export interface LocalServerOptions {
  port: number;
  host?: string;
  dataDir: string;
  /** Multiplies every wait (visibility timeouts, delays); 0.01 runs a 5-minute schedule in 3 s. */
  timeScale?: number;
  /** Extraction worker threads; defaults to one per core. */
  workers?: number;
  /**
   * Documents over this many bytes take the large-document pipeline; defaults
   * to limits.splitBytes (10 MB). Lowered only to test the pipeline quickly.
   */
  splitBytes?: number;
  /** The module the pools' worker threads load (ExtractorPoolOptions.workerModule): bin/start.mjs's compiled worker-entry.ts. */
  workerModule?: URL;
}

export interface LocalServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Where a running local server says its embedded endpoints are, for `npm run admin`. */
export const endpointsFile = (dataDir: string) => path.join(dataDir, 'local-endpoints.json');

export interface LocalEndpoints {
  pid: number;
  port: number;
  dynamodb: string;
  s3: string;
  table: string;
  bucket: string;
  /** Operator actions that need the server's own queues (`npm run admin -- webhooks redrive`): loopback only, behind a token kept in this 0600 file. */
  admin: { url: string; token: string };
}

/** The embedded DynamoDB holds a lock on the data dir; say so plainly instead of failing inside dynalite. */
function refuseIfInUse(dataDir: string): void {
  const file = endpointsFile(dataDir);
  if (!fs.existsSync(file)) return;
  const { pid, port } = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalEndpoints;
  try {
    process.kill(pid, 0);
  } catch {
    return; // that server is gone (it crashed); its data is ours now
  }
  throw new Error(`Another docex server (pid ${pid}, port ${port}) is using ${dataDir}. Stop it, or set DOCEX_DATA_DIR to another directory.`);
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  const dataDir = path.resolve(options.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  refuseIfInUse(dataDir);
  const timeScale = options.timeScale ?? 1;
  const aws = await startEmbeddedAws(dataDir);
  const clientOptions = { dynamodbEndpoint: aws.dynamodbEndpoint, s3Endpoint: aws.s3Endpoint, region: LOCAL_REGION, credentials: aws.credentials };
  const store = new DynamoStore(dynamoClient(clientOptions), aws.table);
  const s3 = s3Client(clientOptions);
  const blobs = new S3Blobs(s3, aws.bucket);

  const queueDir = (name: string) => path.join(dataDir, 'queues', name);
  /** A wiring queue and its DLQ as persisted twins, with the redrive policy of the stack. */
  const twinOf = (name: QueueName, visibilityTimeoutSeconds = queues[name].visibilityTimeoutSeconds) => {
    const dlq = new QueueTwin({ name: `${name}-dlq`, dir: queueDir(`${name}-dlq`), visibilityTimeoutSeconds: 30, timeScale });
    const queue = new QueueTwin({ name, dir: queueDir(name), visibilityTimeoutSeconds, maxReceiveCount: queues[name].maxReceiveCount, deadLetter: dlq, timeScale });
    return [queue, dlq] as const;
  };
  const [extractionQueue, extractionDlq] = twinOf('extraction');
  const extractionQueuePort = new TwinExtractionQueue(extractionQueue);

  // Webhooks: the same queue, DLQ and consumer as in AWS. One attempt's time
  // limit scales with the rest, but never below a second, so a busy machine
  // does not fail a healthy loopback receiver; the in-flight visibility stays
  // 6x that real time, as the design asks of every queue.
  const hookSpec = queues.webhooks;
  const attemptTimeoutMs = Math.max(1000, ATTEMPT_TIMEOUT_MS * timeScale);
  const [webhookQueue, webhookDlq] = twinOf('webhooks', Math.max(hookSpec.visibilityTimeoutSeconds, Math.ceil((6 * attemptTimeoutMs) / 1000 / timeScale)));
  const cipher = FileSecretCipher.open(dataDir);
  // The local server is for development: plain http:// to loopback receivers is allowed here, and only here.
  const intake: WebhookIntake = { allowLoopbackHttp: true, lookupHost: systemLookupHost, cipher };
  const sender = createWebhookSender({ allowLoopback: true, timeoutMs: attemptTimeoutMs });

  const workerSpec = functions['extract-worker'];
  const workers = options.workers ?? os.availableParallelism();
  const extractor = createExtractorPool({ size: workers, timeoutMs: workerSpec.timeoutSeconds * 1000, maxMemoryMb: workerSpec.memoryMb, prewarm: true, workerModule: options.workerModule });

  // Page counting at submission and on an upload's arrival: in worker threads of their own, so a
  // hostile document costs a worker, never the event loop every project's requests share, and
  // never waits behind extractions.
  const pageCounter = createPageCounter({ size: Math.max(1, Math.min(2, workers)), maxMemoryMb: 512, prewarm: true, workerModule: options.workerModule });

  // The large-document pipeline: the chunk queue (with its DLQ) feeds the chunk
  // worker, which shares the extraction pool; the aggregation state machine is
  // the stack's own definition, run by the local interpreter with the same handlers.
  const [chunkQueue, chunkDlq] = twinOf('chunks');
  // Made from the state machine below, whose tasks are composed first; only the cancel and chunk functions, composed after it, use it.
  let aggregation: LocalAggregationStarter | undefined;

  // The same dependencies as the Lambda handlers get, over the twins. One
  // extraction pool serves every function here, so the API thread never parses,
  // renders or merges a document itself.
  const deps = composeAll(
    {
      ...recordParts(store),
      blobs: () => blobs,
      uploadUrls: () => new S3UploadUrls(s3, aws.bucket),
      downloadUrls: () => new S3DownloadUrls(s3, aws.bucket),
      extractionQueue: () => extractionQueuePort,
      chunkQueue: () => new TwinChunkQueue(chunkQueue),
      webhookQueue: () => new TwinWebhookQueue(webhookQueue),
      visibility: () => new TwinMessageVisibility([webhookQueue]),
      aggregation: () => aggregation!,
      webhookIntake: () => intake,
      webhookCipher: () => cipher,
      deliverySender: () => sender,
      testSender: () => sender,
      engine: () => extractor,
      renderer: () => ({ renderPage: (b, p, w) => extractor.renderPage!(b, p, w) }),
      countPages: () => (upload) => pageCounter.count(upload),
      formatNames: () => formatNamed,
    },
    { splitBytes: options.splitBytes ?? limits.splitBytes, eventRequeueAfterMs: EVENT_REQUEUE_AFTER_MS * timeScale },
  );

  const stateMachine = new LocalStateMachine(
    aggregationDefinition({ part: 'aggregate-part', finish: 'aggregate-finish', fail: 'aggregate-fail' }),
    {
      'aggregate-part': aggregatePart.makeHandler(deps['aggregate-part']()) as (input: unknown) => Promise<unknown>,
      'aggregate-finish': aggregateFinish.makeHandler(deps['aggregate-finish']()) as (input: unknown) => Promise<unknown>,
      'aggregate-fail': aggregateFail.makeHandler(deps['aggregate-fail']()) as (input: unknown) => Promise<unknown>,
    },
    { dir: path.join(dataDir, 'executions'), timeScale, log: (m) => console.error(m) },
  );
  aggregation = new LocalAggregationStarter(stateMachine);

  // The routes of lib/wiring.ts; queue consumers and state machine tasks are wired below instead.
  const apiHandlers = {
    'sandbox-key': sandboxKey.makeHandler(deps['sandbox-key']()),
    submit: submit.makeHandler(deps.submit()),
    'get-job': getJob.makeHandler(deps['get-job']()),
    'get-page': getPage.makeHandler(deps['get-page']()),
    webhooks: webhooks.makeHandler(deps.webhooks()),
    uploads: uploads.makeHandler(deps.uploads()),
    'cancel-job': cancelJob.makeHandler(deps['cancel-job']()),
    project: project.makeHandler(deps.project()),
    site: site.makeHandler(),
  };
  // The bucket notifications of lib/wiring.ts, played from s3rver's events. A lost event is made up
  // for by the upload's deadline message, as in AWS.
  const bucketConsumers: Partial<Record<FunctionName, (event: S3Event) => Promise<void>>> = {
    'upload-arrived': uploadArrived.makeHandler(deps['upload-arrived']()),
  };
  aws.onObjectCreated((event) => {
    for (const notification of bucketNotifications) {
      const records = event.Records.filter((r) => decodeURIComponent(r.s3.object.key.replace(/\+/g, ' ')).startsWith(notification.prefix));
      const consumer = bucketConsumers[notification.fn];
      if (records.length === 0 || !consumer) continue;
      consumer({ Records: records }).catch((error) => console.error(`${notification.fn}: ${String(error)}`));
    }
  });
  // Four jobs per worker: while the workers parse, the main thread claims the next jobs and hands
  // their documents to the pool, and writes finished results, so the workers never wait on the
  // store's and bucket's round trips (with twice the pool, a warm corpus run took about 10% longer).
  // At most three jobs per worker wait inside the pool, each for at most an extraction's time
  // limit: 4 x 300 s from claim to result, inside the queue's 1,800 s visibility.
  const mapping = startWiredMapping('extraction', extractionQueue, extractWorker.makeHandler(deps['extract-worker']()), workers * 4);
  const chunkMapping = startWiredMapping('chunks', chunkQueue, chunkWorker.makeHandler(deps['chunk-worker']()), workers);
  stateMachine.resume();
  // The API thread's heap, grown by a large upload or merge, given back once it is over (heap-trim.ts);
  // an idle server's is about 60 MB.
  const heapTrim = setInterval(() => trimHeap(API_THREAD_HEAP_BYTES), 500).unref();

  const deliveryMapping = startWiredMapping('webhooks', webhookQueue, webhookDelivery.makeHandler(deps['webhook-delivery']()));
  // The bucket's lifecycle rules, as S3 applies them in AWS (documents, results, uploads, parts).
  const lifecycle = startLifecycleSweeps(s3, aws.bucket, bucketExpiry, { timeScale, log: (m) => console.error(m) });
  const admin = await startAdminServer({ redriveWebhooks: () => webhookDlq.moveMessagesTo(webhookQueue) });

  const server = createApiGateway(routes, apiHandlers);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpoints: LocalEndpoints = {
    pid: process.pid,
    port,
    dynamodb: aws.dynamodbEndpoint,
    s3: aws.s3Endpoint,
    table: aws.table,
    bucket: aws.bucket,
    admin: { url: admin.url, token: admin.token },
  };
  fs.rmSync(endpointsFile(dataDir), { force: true });
  fs.writeFileSync(endpointsFile(dataDir), JSON.stringify(endpoints, null, 2), { mode: 0o600 });

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    close: async () => {
      clearInterval(heapTrim);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await admin.close();
      await lifecycle.stop();
      await mapping.stop();
      await chunkMapping.stop();
      await stateMachine.close();
      await deliveryMapping.stop();
      await extractor.close();
      await pageCounter.close();
      await extractionQueue.close();
      await extractionDlq.close();
      await chunkQueue.close();
      await chunkDlq.close();
      await webhookQueue.close();
      await webhookDlq.close();
      await aws.close();
      fs.rmSync(endpointsFile(dataDir), { force: true });
    },
  };
}

/**
 * Operator actions on state only this process can touch (its queue files are
 * its own while it runs). A separate listener on loopback, whatever HOST the
 * API uses, behind a random token that only readers of the data directory's
 * 0600 endpoints file know: an HTTP call answers at once with what was done,
 * which a watched command file could not.
 */
async function startAdminServer(actions: { redriveWebhooks(): Promise<number> }): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = http.createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply(401, { error: 'unauthorized', message: 'Use `npm run admin`, which reads the token from the data directory.' });
    }
    if (req.method === 'POST' && req.url === '/webhooks/redrive') {
      try {
        return reply(200, { moved: await actions.redriveWebhooks() });
      } catch (error) {
        return reply(500, { error: 'internal_error', message: String(error) });
      }
    }
    reply(404, { error: 'not_found', message: 'Admin actions: POST /webhooks/redrive.' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
