import { describe, expect, it } from 'vitest';
import { heapWatch } from '../../../lambdas/extract/engine/heap-trim.ts';

const MB = 1024 * 1024;

/** A heap whose committed size the test sets, and which a collection brings down to `after`. */
function fakeHeap() {
  const heap = { size: 60 * MB, after: 60 * MB, collections: 0, time: 0 };
  const watch = heapWatch(80 * MB, {
    growth: 32 * MB,
    quietMs: 5_000,
    now: () => heap.time,
    committed: () => heap.size,
    collect: () => {
      heap.collections++;
      heap.size = heap.after;
    },
  });
  return { heap, watch };
}

describe('heapWatch, the API thread checked twice a second', () => {
  it('leaves a heap under its limit alone', () => {
    const { heap, watch } = fakeHeap();
    watch.check();
    expect(heap.collections).toBe(0);
  });

  it('collects a heap a large job grew past the limit, and gives the pages back', () => {
    const { heap, watch } = fakeHeap();
    heap.size = 300 * MB;
    watch.check();
    expect(heap.collections).toBe(1);
    expect(heap.size).toBe(60 * MB);
  });

  it('does not collect again and again under a steady load whose live objects keep it just over the limit', () => {
    const { heap, watch } = fakeHeap();
    heap.size = heap.after = 90 * MB;
    for (let i = 0; i < 9; i++) {
      heap.time += 500;
      watch.check();
    }
    // The first check collects; the next ones within 5 s, with the heap not grown by 32 MB, do not.
    expect(heap.collections).toBe(1);
    // 5 s after that collection, the load may be over: collected once more.
    heap.time += 1000;
    watch.check();
    expect(heap.collections).toBe(2);
  });

  it('collects at once when the heap grows by the growth step after a collection (a merge allocating fast)', () => {
    const { heap, watch } = fakeHeap();
    heap.size = heap.after = 90 * MB;
    watch.check();
    heap.time += 500;
    heap.size = 125 * MB;
    watch.check();
    expect(heap.collections).toBe(2);
  });
});
