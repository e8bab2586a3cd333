import { describe, expect, it } from 'vitest';
import { BATCH_PAGES, helpOver, helpReadPages, MIN_SHARED_PAGES, readPagesShared, SLOW_PAGE_MS, type HelpCall, type HelpTask, type PageHelpers } from '../../../lambdas/extract/engine/shared-pages.ts';

// The lead and its helpers run here in one thread, taking turns at each page
// (a macrotask apart, so the helpers' messages reach the lead between pages).
const turn = () => new Promise((resolve) => setImmediate(resolve));
const pagesTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const bytes = new TextEncoder().encode('%PDF-1.7 a document');

/** Helpers that run `help` for each port of the lead's call, as the pool's idle workers would; `queued` is the pool's count of waiting jobs. */
function helpers(count: number, help: (task: HelpTask) => Promise<void>, calls: HelpCall[] = [], queued = new Int32Array(new SharedArrayBuffer(4))): PageHelpers {
  return {
    count,
    call(call) {
      calls.push(call);
      call.ports.forEach((port, helper) => void help({ ...call, port, helper, queued }));
    },
  };
}

describe('pages read with helpers', () => {
  it('reads every page once and returns them in order, the helpers taking batches while the lead takes others', async () => {
    const readBy = new Map<number, string>();
    const read = (who: string) => async (page: number) => {
      expect(readBy.has(page)).toBe(false);
      readBy.set(page, who);
      await turn();
      return `page ${page}`;
    };
    const calls: HelpCall[] = [];
    const pages = pagesTo(41);
    const out = await readPagesShared(pages, read('lead'), { helpers: helpers(2, (task) => helpReadPages(task, read(`helper ${task.helper}`)), calls), bytes, ocr: 'never' });
    expect(out).toEqual(pages.map((p) => `page ${p}`));
    expect([...readBy.keys()].sort((a, b) => a - b)).toEqual(pages);
    const readers = new Set(readBy.values());
    expect(readers).toEqual(new Set(['lead', 'helper 0', 'helper 1']));
    // The document goes to the helpers once, shared, not copied per helper.
    expect(calls).toHaveLength(1);
    expect(calls[0]!.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...calls[0]!.bytes]).toEqual([...bytes]);
    // Done, the lead tells any helper still to come that there is nothing left.
    expect(helpOver(calls[0]!.claims)).toBe(true);
  });

  it('reads again the batch a helper fails on, and fails as it would alone when it cannot read it either', async () => {
    const read = async (page: number) => {
      await turn();
      return page;
    };
    const failing = (task: HelpTask) =>
      helpReadPages(task, async (page) => {
        await turn();
        if (page >= BATCH_PAGES) throw new Error(`helper cannot read page ${page}`);
        return page;
      });
    const pages = pagesTo(MIN_SHARED_PAGES * 2);
    expect(await readPagesShared(pages, read, { helpers: helpers(1, failing), bytes, ocr: 'never' })).toEqual(pages);

    const damaged = async (page: number) => {
      await turn();
      if (page === 30) throw new Error('page 30 is damaged');
      return page;
    };
    await expect(readPagesShared(pages, damaged, { helpers: helpers(1, (task) => helpReadPages(task, damaged)), bytes, ocr: 'never' })).rejects.toThrow('page 30 is damaged');
  });

  it('reads again the batches of a helper that stops after taking them', async () => {
    const read = async (page: number) => {
      await turn();
      return page;
    };
    let taken = 0;
    // A helper whose worker dies in its first batch: its port closes, what it took never comes.
    const dying = (task: HelpTask) =>
      helpReadPages(task, (page) => {
        taken++;
        if (page > BATCH_PAGES) return read(page);
        task.port.close();
        return new Promise<number>(() => {});
      });
    const pages = pagesTo(MIN_SHARED_PAGES * 2);
    expect(await readPagesShared(pages, read, { helpers: helpers(1, dying), bytes, ocr: 'never' })).toEqual(pages);
    expect(taken).toBeGreaterThan(0);
  });

  it('leaves the lead\'s pages to it while a job waits for the pool, and joins again once none does', async () => {
    const queued = new Int32Array(new SharedArrayBuffer(4));
    const readBy = new Map<number, string>();
    const read = (who: string) => async (page: number) => {
      readBy.set(page, who);
      await turn();
      return page;
    };
    const comesAndGoes = async (task: HelpTask) => {
      // A job is queued while the helper reads its first page: it finishes that batch, then goes.
      await helpReadPages(task, async (page) => {
        Atomics.store(queued, 0, 1);
        return read('helper before')(page);
      });
      await turn();
      Atomics.store(queued, 0, 0);
      await helpReadPages(task, read('helper after'));
    };
    const pages = pagesTo(MIN_SHARED_PAGES * 2);
    expect(await readPagesShared(pages, read('lead'), { helpers: helpers(1, comesAndGoes, [], queued), bytes, ocr: 'never' })).toEqual(pages);
    const count = (who: string) => [...readBy.values()].filter((w) => w === who).length;
    expect(count('helper before')).toBe(BATCH_PAGES);
    expect(count('helper after')).toBeGreaterThan(0);
    expect(count('lead') + count('helper before') + count('helper after')).toBe(pages.length);
  });

  it('calls helpers in for a short document once a page takes long to read (a scan read by OCR)', async () => {
    const readBy = new Map<number, string>();
    const read = (who: string) => async (page: number) => {
      readBy.set(page, who);
      await new Promise((resolve) => setTimeout(resolve, page === 1 ? SLOW_PAGE_MS + 10 : 1));
      return page;
    };
    const calls: HelpCall[] = [];
    const pages = pagesTo(BATCH_PAGES * 4);
    expect(await readPagesShared(pages, read('lead'), { helpers: helpers(1, (task) => helpReadPages(task, read('helper')), calls), bytes, ocr: 'auto' })).toEqual(pages);
    expect(calls).toHaveLength(1);
    expect(new Set(readBy.values())).toEqual(new Set(['lead', 'helper']));
  });

  it('reads alone when no helper joins, and never calls helpers for a short document read quickly', async () => {
    const read = async (page: number) => page;
    const idle = (task: HelpTask) => Promise.resolve(void task);
    expect(await readPagesShared(pagesTo(MIN_SHARED_PAGES + 3), read, { helpers: helpers(3, idle), bytes, ocr: 'never' })).toEqual(pagesTo(MIN_SHARED_PAGES + 3));
    const calls: HelpCall[] = [];
    const progress: number[] = [];
    const short = pagesTo(MIN_SHARED_PAGES - 1);
    expect(await readPagesShared(short, read, { helpers: helpers(3, idle, calls), bytes, ocr: 'never' }, (done, total) => progress.push(total - done))).toEqual(short);
    expect(calls).toHaveLength(0);
    // Each batch read is reported: pages left, down to none.
    expect(progress).toEqual(Array.from({ length: Math.ceil(short.length / BATCH_PAGES) }, (_, b) => Math.max(0, short.length - (b + 1) * BATCH_PAGES)));
  });
});
