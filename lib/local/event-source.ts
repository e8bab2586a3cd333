// Local twin of Lambda's SQS event-source mapping with ReportBatchItemFailures:
// it feeds a QueueTwin to the very handler that runs in AWS, with events shaped
// like AWS's and the same outcome rules for deleting or keeping messages.

import { createHash, randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { functions, queues, type QueueName } from '../wiring.ts';
import type { QueueTwin, ReceivedMessage } from './sqs-twin.ts';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** Long enough that an idle poller costs nothing; a send wakes it at once anyway. */
const LONG_POLL_MS = 20_000;
/** The IAM user id from AWS's own sample event: the handlers never look at it. */
const SENDER_ID = 'AIDAIENQZJOLO23YVJ4VO';

export function startEventSourceMapping(
  queue: QueueTwin,
  handler: SqsHandler,
  opts: { batchSize: number; maxConcurrency: number; functionName: string; timeoutSeconds?: number },
): { stop(): Promise<void> } {
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // every poller listens on it while it waits

  const poll = async (): Promise<void> => {
    while (!abort.signal.aborted && !queue.closed) {
      let batch: ReceivedMessage[];
      try {
        batch = await queue.receive({ max: opts.batchSize, waitMs: LONG_POLL_MS, signal: abort.signal });
      } catch (err) {
        if (abort.signal.aborted || queue.closed) return;
        console.error(`${opts.functionName}: receive from ${queue.name} failed`, err);
        await sleep(1000, abort.signal);
        continue;
      }
      // Messages received just as stop() was called still run: they are in flight now, and
      // abandoning them would hide them for a whole visibility timeout.
      if (batch.length > 0) await invoke(queue, handler, opts, batch);
    }
  };

  const loops = Array.from({ length: Math.max(1, opts.maxConcurrency) }, poll);
  return {
    async stop() {
      abort.abort();
      await Promise.all(loops);
    },
  };
}

async function invoke(
  queue: QueueTwin,
  handler: SqsHandler,
  opts: { functionName: string; timeoutSeconds?: number },
  batch: ReceivedMessage[],
): Promise<void> {
  const event: SQSEvent = { Records: batch.map((m) => toRecord(queue, m)) };
  const timeoutMs = (opts.timeoutSeconds ?? 900) * 1000;
  const context = makeContext(opts.functionName, timeoutMs);
  let toDelete: SQSRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
    });
    const result = await Promise.race([Promise.resolve().then(() => handler(event, context)), timedOut]);
    const failures = result?.batchItemFailures ?? [];
    const failed = new Set(failures.map((f) => f.itemIdentifier));
    const ids = new Set(event.Records.map((r) => r.messageId));
    if (failures.some((f) => !f.itemIdentifier || !ids.has(f.itemIdentifier))) {
      // Lambda treats a response naming no valid record as a failure of the whole batch.
      console.error(`${opts.functionName}: invalid batchItemFailures, keeping the whole batch`, failures);
    } else {
      toDelete = event.Records.filter((r) => !failed.has(r.messageId));
    }
  } catch (err) {
    console.error(`${opts.functionName}: invocation ${context.awsRequestId} failed`, err);
  } finally {
    clearTimeout(timer);
  }
  await Promise.all(
    toDelete.map((r) =>
      queue.delete(r.receiptHandle).catch((err) => console.error(`${opts.functionName}: delete ${r.messageId} failed`, err)),
    ),
  );
}

function toRecord(queue: QueueTwin, m: ReceivedMessage): SQSRecord {
  const messageAttributes: SQSRecord['messageAttributes'] = {};
  for (const [name, a] of Object.entries(m.messageAttributes)) {
    messageAttributes[name] = {
      ...(a.StringValue !== undefined && { stringValue: a.StringValue }),
      ...(a.BinaryValue !== undefined && { binaryValue: Buffer.from(a.BinaryValue).toString('base64') }),
      stringListValues: [],
      binaryListValues: [],
      dataType: a.DataType,
    };
  }
  return {
    messageId: m.messageId,
    receiptHandle: m.receiptHandle,
    body: m.body,
    attributes: {
      ApproximateReceiveCount: String(m.receiveCount),
      SentTimestamp: String(m.sentTimestamp),
      SenderId: SENDER_ID,
      ApproximateFirstReceiveTimestamp: String(m.firstReceiveTimestamp),
    },
    messageAttributes,
    md5OfBody: createHash('md5').update(m.body, 'utf8').digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: queue.arn,
    awsRegion: 'local',
  };
}

function makeContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const unsupported = () => {
    throw new Error('context.done/fail/succeed are not supported: return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/**
 * The mapping lib/wiring.ts declares for `name`: its batch size, its consumer's
 * name and timeout, and its concurrency, capped at `concurrencyCap` where the
 * local machine has fewer workers than Lambda would scale to.
 */
export function startWiredMapping(name: QueueName, queue: QueueTwin, handler: SqsHandler, concurrencyCap = Infinity): { stop(): Promise<void> } {
  const spec = queues[name];
  return startEventSourceMapping(queue, handler, {
    batchSize: spec.batchSize,
    maxConcurrency: Math.min(spec.maxConcurrency, concurrencyCap),
    functionName: spec.consumer,
    timeoutSeconds: functions[spec.consumer].timeoutSeconds,
  });
}
