import { describe, expect, it } from 'vitest';
import { chunkPages, describeRanges, planChunks, plannedPages } from '../../../lambdas/core/chunk-plan.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';

describe('chunk planning', () => {
  it('cuts a document into consecutive page ranges of at most the chunk size', () => {
    expect(planChunks(120, null, 50)).toEqual([
      { index: 0, first_page: 1, last_page: 50 },
      { index: 1, first_page: 51, last_page: 100 },
      { index: 2, first_page: 101, last_page: 120 },
    ]);
    expect(planChunks(50, null, 50)).toHaveLength(1);
  });

  it('plans over the selected pages only, so scattered selections still give even chunks', () => {
    const selected = [2, 3, 10, 11, 40, 99, 500];
    const plan = planChunks(100, selected, 3);
    expect(plan).toEqual([
      { index: 0, first_page: 2, last_page: 10 },
      { index: 1, first_page: 11, last_page: 99 },
    ]);
    expect(chunkPages(plan[0]!, selected)).toEqual([2, 3, 10]);
    expect(chunkPages(plan[1]!, selected)).toEqual([11, 40, 99]);
    expect(plannedPages(plan, selected)).toBe(6);
    expect(planChunks(10, [20, 30], 5)).toEqual([]);
  });

  it('refuses a chunk size that is not a positive whole number', () => {
    expect(() => planChunks(10, null, 0)).toThrow(/positive integer/);
  });

  it('splits formats whose extractor selects pages, and leaves the rest to one worker', () => {
    const splits = (format: string) => splitOf(format) !== undefined;
    expect(['pdf', 'pptx', 'ppt', 'xlsx', 'xls', 'ods', 'csv', 'tsv', 'text', 'markdown'].every(splits)).toBe(true);
    expect(['docx', 'odt', 'epub', 'html', 'doc', 'rtf', 'zip', 'eml', 'msg', 'png', 'jpeg', 'tiff'].some(splits)).toBe(false);
    expect(['pdf', 'csv', 'text', 'pptx'].map((f) => splitOf(f)?.chunks)).toEqual(['cut', 'ranges', 'ranges', 'pages']);
    expect(splitOf('csv')?.oneTable).toBe(true);
  });

  it('names page ranges the way users read them', () => {
    expect(describeRanges([{ first_page: 1, last_page: 50 }, { first_page: 51, last_page: 51 }])).toBe('1-50, 51');
  });
});
