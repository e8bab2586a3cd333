import { describe, expect, it } from 'vitest';
import { mergeParts, mergeRulesOf, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import type { ExtractionResult, Table } from '../../../lambdas/extract/engine/types.ts';
import { tableMarkdown } from '../../../lambdas/extract/engine/blocks.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { makePdf } from '../../support/pdf-fixture.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';

const PDF = mergeRulesOf(splitOf('pdf')!);
const table = (page: number, rows: string[][]): Table => ({ page, rows, markdown: tableMarkdown(rows) });
const result = (content: string, pages: number, tables: Table[] = []): ExtractionResult => ({
  content,
  metadata: { format: 'pdf', mime_type: 'application/pdf', pages, pages_total: 4, char_count: [...content].length, word_count: 1, ocr_pages: [] },
  tables,
  chunks: [],
});

describe('merging the parts of a split document', () => {
  it('gives the same content, chunks and offsets as reading the document whole', async () => {
    const pages = ['first page', 'second page é', 'third page', 'fourth page'];
    const pdf = makePdf({ pages });
    const whole = await extract({ bytes: pdf.slice(), filename: 'a.pdf' });
    const part = async (first: number, last: number): Promise<Part> => ({
      first_page: first,
      last_page: last,
      ok: true,
      result: await extract({ bytes: pdf.slice(), filename: 'a.pdf', config: { ...DEFAULT_CONFIG, pages: Array.from({ length: last - first + 1 }, (_, i) => first + i) } }),
    });
    // Parts arrive in any order; they are merged in page order.
    const merged = mergeParts([await part(3, 4), await part(1, 2)], PDF)!;
    expect(merged.content).toBe(whole.content);
    expect(merged.chunks).toEqual(whole.chunks);
    expect(merged.metadata).toMatchObject({ pages: 4, pages_total: 4, char_count: whole.metadata.char_count, failed_page_ranges: [] });
  });

  it('joins a table cut at a seam when its header repeats, dropping the repeated header', () => {
    const merged = mergeParts([
      { first_page: 1, last_page: 2, ok: true, result: result('a', 2, [table(1, [['x']]), table(2, [['Name', 'Qty'], ['bolts', '4']])]) },
      { first_page: 3, last_page: 4, ok: true, result: result('b', 2, [table(3, [['Name', 'Qty'], ['nuts', '9']]), table(4, [['y', 'z']])]) },
    ], PDF)!;
    expect(merged.tables.map((t) => t.page)).toEqual([1, 2, 4]);
    expect(merged.tables[1]!.rows).toEqual([['Name', 'Qty'], ['bolts', '4'], ['nuts', '9']]);
    expect(merged.tables[1]!.markdown).toBe(tableMarkdown([['Name', 'Qty'], ['bolts', '4'], ['nuts', '9']]));
  });

  it('joins a table whose columns continue across a seam, and keeps tables apart when they do not', () => {
    const continued = mergeParts([
      { first_page: 1, last_page: 1, ok: true, result: result('a', 1, [table(1, [['Name', 'Qty'], ['bolts', '4']])]) },
      { first_page: 2, last_page: 2, ok: true, result: result('b', 1, [table(2, [['nuts', '9']])]) },
    ], PDF)!;
    expect(continued.tables).toHaveLength(1);
    expect(continued.tables[0]!.rows).toEqual([['Name', 'Qty'], ['bolts', '4'], ['nuts', '9']]);

    const apart = mergeParts([
      { first_page: 1, last_page: 1, ok: true, result: result('a', 1, [table(1, [['Name', 'Qty']])]) },
      { first_page: 2, last_page: 2, ok: true, result: result('b', 1, [table(2, [['one', 'two', 'three']])]) },
    ], PDF)!;
    expect(apart.tables).toHaveLength(2);
  });

  it('names the page ranges of failed parts, and gives nothing when every part failed', () => {
    const merged = mergeParts([
      { first_page: 1, last_page: 2, ok: true, result: result('kept', 2) },
      { first_page: 3, last_page: 4, ok: false, error: 'corrupt' },
    ], PDF)!;
    expect(merged.content).toBe('kept');
    expect(merged.metadata.pages).toBe(2);
    expect(merged.metadata.failed_page_ranges).toEqual([{ first_page: 3, last_page: 4, error: 'corrupt' }]);
    expect(mergeParts([{ first_page: 1, last_page: 2, ok: false, error: 'corrupt' }], PDF)).toBeNull();
  });
});
