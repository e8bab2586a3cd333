// V8 keeps the heap a large document grew, committed, long after its objects
// are garbage: a pool worker that read a 3 MB PDF held 160-200 MB, and the
// server's memory stayed near its peak after the job. A full collection gives
// the pages back (measured: 48 MB after it). Pool workers collect once they
// have been idle 10 s (IDLE_TRIM_MS and IDLE_HEAP_BYTES, pool.ts: a collection
// also discards compiled code the next batch then compiles again), and right after a job
// only past TRIM_HEAP_BYTES: collecting after every job over 96 MB cost a
// batch of corpus PDFs 5-8% of its pages per second.

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A thread whose committed heap is above this after a job collects it at once, busy or not. */
export const TRIM_HEAP_BYTES = 256 * 1024 * 1024;

/**
 * Once a pool worker has had nothing to do for a moment, it collects down
 * from this: an idle server's worker holds 10-20 MB of heap, and an idle
 * moment costs no job anything.
 */
export const IDLE_HEAP_BYTES = 32 * 1024 * 1024;

let collect: (() => void) | undefined;

/** A full garbage collection when this thread's heap has grown past TRIM_HEAP_BYTES. */
export function trimHeap(limit = TRIM_HEAP_BYTES): void {
  if (getHeapStatistics().total_heap_size <= limit) return;
  // Node has no API for a collection; --expose-gc gives contexts created after it a `gc` function.
  // The flag only adds that function: collections otherwise run as before.
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
