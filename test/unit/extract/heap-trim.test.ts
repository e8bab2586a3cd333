import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { trimHeap } from '../../../lambdas/extract/engine/heap-trim.ts';

const MB = 1024 * 1024;
const committed = () => getHeapStatistics().total_heap_size;

/** Grows the heap by about `mb` MB of objects, then lets them go. */
function growAndDrop(mb: number): void {
  let held: number[][] | null = [];
  // Arrays of doubles: 1 MB each, in old space once they survive the young generation's collections.
  for (let i = 0; i < mb; i++) held.push(new Array<number>(MB / 8).fill(i + 0.5));
  expect(held.length).toBe(mb);
  held = null;
}

describe('trimHeap', () => {
  it('gives back the heap a large job grew, once its objects are garbage', () => {
    growAndDrop(160);
    const grown = committed();
    trimHeap(64 * MB);
    expect(committed()).toBeLessThan(grown - 100 * MB);
  });
});
