import { afterEach, describe, expect, it } from 'vitest';
import { countPages, countPagesWithin, OverReadLimit, PageCountBudgetExceeded } from '../../../lambdas/extract/engine/page-count.ts';
import { createPageCounter, type PageCounter } from '../../../lambdas/extract/engine/pool.ts';
import { makePdf } from '../../support/pdf-fixture.ts';
import { inflatingPdf, manyObjectsPdf } from '../../support/hostile-pdf.ts';

const over = (fn: () => unknown): PageCountBudgetExceeded => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PageCountBudgetExceeded);
    return error as PageCountBudgetExceeded;
  }
  throw new Error('expected the count to be over budget');
};

describe('page counting within a budget', () => {
  it('refuses a small PDF whose object stream inflates past the budget, and says why', () => {
    const pdf = inflatingPdf();
    expect(pdf.byteLength).toBeLessThan(100 * 1024);
    const error = over(() => countPagesWithin({ bytes: pdf, filename: 'bomb.pdf' }));
    expect(error.message).toMatch(/inflate past 16 MB/);
    expect(error.message).toMatch(/re-save|repair/);
  });

  it('refuses a PDF with more objects than the budget', () => {
    const error = over(() => countPagesWithin({ bytes: manyObjectsPdf(2000), filename: 'x.pdf' }, { inflatedBytes: 1e9, objects: 1000, timeMs: 60_000 }));
    expect(error.reason).toMatch(/more than 1,000 objects/);
  });

  it('refuses a count that runs out of time', () => {
    const error = over(() => countPagesWithin({ bytes: manyObjectsPdf(50_000), filename: 'x.pdf' }, { inflatedBytes: 1e9, objects: 1e9, timeMs: 0 }));
    expect(error.reason).toMatch(/took longer than 0 s/);
  });

  it('counts real documents as before, and countPages (the workers\' count) still never throws', () => {
    expect(countPagesWithin({ bytes: makePdf({ pages: ['a', 'b', 'c'] }), filename: 'x.pdf' })).toBe(3);
    expect(countPages({ bytes: manyObjectsPdf(10), filename: 'x.pdf' }, { inflatedBytes: 1e9, objects: 5, timeMs: 1e9 })).toBe(1);
  });
});

/** An HTML page of `mb` MB (HTML is read whole; its read limit is 40 MB). */
const htmlOf = (mb: number) => {
  const bytes = Buffer.alloc(mb * 1e6, 'word ');
  bytes.write('<!DOCTYPE html><html><body><p>', 0);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};

describe('read limits at counting', () => {
  it('refuses a document read whole that is larger than its format\'s read limit, with what to do instead', () => {
    let error: unknown;
    try {
      countPagesWithin({ bytes: htmlOf(41), filename: 'big.html' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OverReadLimit);
    expect((error as Error).message).toMatch(/This HTML is 41 MB; HTML files are read whole, and the largest .* is 40 MB\. Split the document/);
    expect(countPagesWithin({ bytes: htmlOf(39), filename: 'big.html' })).toBeGreaterThan(0);
  });
});

describe('page counter (worker threads)', () => {
  let counter: PageCounter | undefined;
  afterEach(async () => {
    await counter?.close();
    counter = undefined;
  });

  it('counts in a worker, leaves the caller\'s bytes intact, and rejects a document over the budget', async () => {
    counter = createPageCounter({ size: 1, maxMemoryMb: 256 });
    const pdf = makePdf({ pages: ['a', 'b'] });
    expect(await counter.count({ bytes: pdf, filename: 'x.pdf', contentType: null })).toBe(2);
    expect(pdf.byteLength).toBeGreaterThan(0); // copied, not transferred
    await expect(counter.count({ bytes: inflatingPdf(), filename: 'bomb.pdf', contentType: null })).rejects.toBeInstanceOf(PageCountBudgetExceeded);
    // The worker is still there for the next document.
    expect(await counter.count({ bytes: pdf, filename: 'x.pdf', contentType: null })).toBe(2);
  });

  it('rejects a document over its format\'s read limit as the count in this thread does', async () => {
    counter = createPageCounter({ size: 1, maxMemoryMb: 512 });
    await expect(counter.count({ bytes: htmlOf(41), filename: 'big.html', contentType: 'text/html', release: true })).rejects.toThrow(OverReadLimit);
  });
});
