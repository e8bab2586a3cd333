// A worker thread's entry for a compiled server (bin/start.mjs): the pool's
// worker side alone, so a worker never loads the server that started it.

import { parentPort, workerData } from 'node:worker_threads';
import { runWorker, type WorkerData } from './pool.ts';

if (!parentPort) throw new Error('worker-entry.ts runs only as an extraction pool worker thread');
void runWorker(parentPort, workerData as WorkerData);
