// The part of a Lambda runtime the deploy suite needs, run in a child process
// per function on the chosen Node: imports the handler module from the task
// root as the Node.js runtime does (`<file>.<export>` of the function's
// Handler setting), then serves invocations sent over IPC, one at a time, in a
// container that stays warm between them. Plain JavaScript, so it runs on any
// Node without a loader.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const taskRoot = process.env.LAMBDA_TASK_ROOT;
const [file, exportName] = process.env._HANDLER.split('.');
const candidates = ['.mjs', '.js', '.cjs'].map((ext) => join(taskRoot, file + ext));
const modulePath = candidates.find((p) => existsSync(p));
if (!modulePath) throw new Error(`no handler module ${file} in ${taskRoot}`);
const handler = (await import(pathToFileURL(modulePath).href))[exportName];
if (typeof handler !== 'function') throw new Error(`${modulePath} exports no function ${exportName}`);

const timeoutMs = Number(process.env.DOCEX_HARNESS_TIMEOUT_SECONDS) * 1000;
let queue = Promise.resolve();
process.on('message', (message) => {
  queue = queue.then(async () => {
    const deadline = Date.now() + timeoutMs;
    const context = {
      awsRequestId: message.requestId,
      functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
      functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
      invokedFunctionArn: message.functionArn,
      memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
      logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
      logStreamName: 'harness',
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    try {
      const result = await handler(message.event, context);
      process.send({ requestId: message.requestId, ok: true, result: result ?? null });
    } catch (error) {
      process.send({ requestId: message.requestId, ok: false, error: { errorType: error?.name ?? 'Error', errorMessage: String(error?.message ?? error), stack: String(error?.stack ?? '') } });
    }
  });
});
process.send({ ready: true, node: process.version });
