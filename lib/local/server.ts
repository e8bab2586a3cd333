// `npm start`: the whole service in one process. The handlers are the very
// Lambda handlers of the stack, built with makeHandler over the same adapters,
// pointed at embedded DynamoDB/S3; lib/wiring.ts says which route and which
// queue reaches which handler, as it does for the stack.

import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { dynamoClient, s3Client } from '../../lambdas/adapters/aws-clients.ts';
import { DynamoStore } from '../../lambdas/adapters/dynamo-store.ts';
import { S3Blobs } from '../../lambdas/adapters/s3-blobs.ts';
import { noJobEvents, systemClock } from '../../lambdas/core/ports.ts';
import { countPages } from '../../lambdas/extract/page-count.ts';
import { createExtractorPool } from '../../lambdas/extract/pool.ts';
import * as extractWorker from '../../lambdas/handlers/extract-worker.ts';
import * as getJob from '../../lambdas/handlers/get-job.ts';
import * as sandboxKey from '../../lambdas/handlers/sandbox-key.ts';
import * as submit from '../../lambdas/handlers/submit.ts';
import { functions, queues, routes } from '../wiring.ts';
import { createApiGateway } from './api-gateway.ts';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startEmbeddedAws } from './embedded-aws.ts';
import { startEventSourceMapping } from './event-source.ts';
import { QueueTwin } from './sqs-twin.ts';
import { TwinExtractionQueue } from './twin-extraction-queue.ts';

export interface LocalServerOptions {
  port: number;
  host?: string;
  dataDir: string;
  /** Multiplies every wait (visibility timeouts, delays); 0.01 runs a 5-minute schedule in 3 s. */
  timeScale?: number;
  /** Extraction worker threads; defaults to one per core. */
  workers?: number;
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
  const clientOptions = { dynamodbEndpoint: aws.dynamodbEndpoint, s3Endpoint: aws.s3Endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
  const store = new DynamoStore(dynamoClient(clientOptions), aws.table);
  const blobs = new S3Blobs(s3Client(clientOptions), aws.bucket);
  const clock = systemClock;

  const spec = queues.extraction;
  const queueDir = (name: string) => path.join(dataDir, 'queues', name);
  const extractionDlq = new QueueTwin({ name: 'extraction-dlq', dir: queueDir('extraction-dlq'), visibilityTimeoutSeconds: 30, timeScale });
  const extractionQueue = new QueueTwin({
    name: 'extraction',
    dir: queueDir('extraction'),
    visibilityTimeoutSeconds: spec.visibilityTimeoutSeconds,
    maxReceiveCount: spec.maxReceiveCount,
    deadLetter: extractionDlq,
    timeScale,
  });

  const workerSpec = functions['extract-worker'];
  const workers = options.workers ?? os.availableParallelism();
  const extractor = createExtractorPool({ size: workers, timeoutMs: workerSpec.timeoutSeconds * 1000, maxMemoryMb: workerSpec.memoryMb });

  const apiHandlers = {
    'sandbox-key': sandboxKey.makeHandler({ store, clock }),
    submit: submit.makeHandler({
      store,
      blobs,
      clock,
      queue: new TwinExtractionQueue(extractionQueue),
      countPages: (upload) => countPages({ bytes: upload.bytes, filename: upload.filename, contentType: upload.contentType }),
      webhookPolicy: { allowLoopbackHttp: true },
    }),
    'get-job': getJob.makeHandler({ store, blobs, clock }),
    'extract-worker': () => Promise.reject(new Error('extract-worker is a queue consumer, not a route')),
  };
  const workerHandler = extractWorker.makeHandler({
    store,
    blobs,
    clock,
    events: noJobEvents,
    extractor,
    maxReceiveCount: spec.maxReceiveCount,
    log: (message, fields) => console.log(JSON.stringify({ message, ...fields })),
  });
  const mapping = startEventSourceMapping(extractionQueue, workerHandler, {
    batchSize: spec.batchSize,
    // Concurrency beyond the pool would only queue inside it while the messages' visibility runs down.
    maxConcurrency: Math.min(spec.maxConcurrency, workers),
    functionName: spec.consumer,
    timeoutSeconds: workerSpec.timeoutSeconds,
  });

  const server = createApiGateway(routes, apiHandlers);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpoints: LocalEndpoints = { pid: process.pid, port, dynamodb: aws.dynamodbEndpoint, s3: aws.s3Endpoint, table: aws.table, bucket: aws.bucket };
  fs.writeFileSync(endpointsFile(dataDir), JSON.stringify(endpoints, null, 2));

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await mapping.stop();
      await extractor.close();
      await extractionQueue.close();
      await extractionDlq.close();
      await aws.close();
      fs.rmSync(endpointsFile(dataDir), { force: true });
    },
  };
}
