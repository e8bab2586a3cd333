// The extraction worker with faults for the pool's tests: a document named
// in FAULTS makes the worker misbehave the way a parser bug would. Loaded
// through ExtractorPoolOptions.workerModule (faultyPool below), so none of
// this reaches the Lambda bundles.

import fs from 'node:fs';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { createExtractorPool, type ExtractorPoolOptions, runWorker, type WorkerData } from '../../lambdas/extract/engine/pool.ts';

const FAULTS: Record<string, () => unknown> = {
  'docex-fault:throw': () => {
    throw new TypeError('simulated parser bug');
  },
  // Names the thread, so a test can tell a replaced worker from the one before.
  'docex-fault:whoami': () => {
    throw new Error(`thread ${threadId}`);
  },
  // A helper's start (the pool calls idle workers in to read a long PDF's pages): its worker
  // stops at once when DOCEX_TEST_HELPER_EXIT is set.
  'docex-help': () => {
    if (process.env.DOCEX_TEST_HELPER_EXIT) process.exit(1);
  },
  'docex-fault:oom': () => {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(1e6).fill(1.5));
  },
};

/** A pool whose workers run this module, so the filenames in FAULTS misbehave. */
export const faultyPool = (opts: ExtractorPoolOptions) => createExtractorPool({ ...opts, workerModule: new URL(import.meta.url) });

if (parentPort && (workerData as Partial<WorkerData> | null)?.docexExtractWorker) {
  // With DOCEX_TEST_WORKER_LOG set, each worker logs what it starts (a filename, or docex-help), a line each: `<thread> <what>`.
  const log = process.env.DOCEX_TEST_WORKER_LOG;
  void runWorker(parentPort, workerData as WorkerData, (filename) => {
    if (log) fs.appendFileSync(log, `${threadId} ${filename}\n`);
    FAULTS[filename]?.();
  });
}
