import { describe, expect, it } from 'vitest';
import { tableMarkdown } from '../../../lambdas/extract/engine/blocks.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { mergeParts, mergeRulesOf, type MergeRules, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { mergedJson, planMerge } from '../../../lambdas/extract/engine/merge-stream.ts';
import { partSource } from '../../support/part-source.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { DEFAULT_CONFIG, type ExtractionResult, type Table } from '../../../lambdas/extract/engine/types.ts';
import { resultJson } from '../../../lambdas/core/job-result.ts';

// The streamed merge must write the very result mergeParts builds in memory,
// reading each part only when a pass needs it.

const rules = (format: string): MergeRules => mergeRulesOf(splitOf(format)!);
const table = (page: number, rows: string[][]): Table => ({ page, rows, markdown: tableMarkdown(rows) });
const pdfPart = (first: number, last: number, content: string, tables: Table[], elements = true): Part => ({
  first_page: first,
  last_page: last,
  ok: true,
  result: {
    content,
    metadata: { format: 'pdf', mime_type: 'application/pdf', pages: last - first + 1, pages_total: 6, char_count: [...content].length, word_count: 2, ocr_pages: [first], language: first > 1 ? 'en' : null, page_sizes: [{ page: first, width: 612, height: 792 }] },
    tables,
    chunks: [{ index: 0, text: content, page_start: first, page_end: last, char_start: 0, char_end: [...content].length, headings: [] }],
    ...(elements
      ? { elements: [{ type: 'heading' as const, text: `Heading ${first}`, page: first, level: 1, char_start: 0, char_end: 4 }, ...tables.map((_, i) => ({ type: 'table' as const, text: 'x', page: first, table: i, char_start: 1, char_end: 2 }))] }
      : {}),
  },
});

/** The parts as a source that counts its reads, and the JSON the stream writes, in small pieces. */
async function streamed(parts: Part[], mergeRules: MergeRules, metadata: Record<string, string> | null = null) {
  const reads: number[] = [];
  const source = partSource(parts, reads);
  const plan = await planMerge(source, mergeRules, metadata);
  if (!plan) return { json: null, plan, reads };
  let json = '';
  let pieces = 0;
  for await (const piece of mergedJson(source, plan, 64)) {
    json += piece;
    pieces++;
  }
  expect(pieces).toBeGreaterThan(1);
  return { json: JSON.parse(json) as ExtractionResult, plan, reads };
}

const inMemory = (parts: Part[], mergeRules: MergeRules, metadata: Record<string, string> | null = null) => {
  const merged = mergeParts(structuredClone(parts), mergeRules)!;
  if (metadata) merged.metadata = { ...merged.metadata, ...metadata };
  return JSON.parse(Buffer.from(resultJson(merged)).toString()) as ExtractionResult;
};

describe('the streamed merge of a split document', () => {
  it('writes what mergeParts gives for PDF parts: tables joined at seams, a failed part named, the original metadata kept', async () => {
    const parts: Part[] = [
      pdfPart(1, 2, 'first é 🙂', [table(1, [['x']]), table(2, [['Name', 'Qty'], ['bolts', '4']])]),
      pdfPart(3, 4, 'second', [table(3, [['Name', 'Qty'], ['nuts', '9']]), table(4, [['a', 'b']])]),
      { first_page: 5, last_page: 5, ok: false, error: 'damaged' },
      pdfPart(6, 6, 'third', [table(6, [['a', 'b'], ['c', 'd']])]),
    ];
    const { json, plan } = await streamed(parts, rules('pdf'), { title: 'The original' });
    expect(json).toEqual(inMemory(parts, rules('pdf'), { title: 'The original' }));
    expect(json!.tables.map((t) => t.rows.length)).toEqual([1, 3, 2]);
    expect(plan).toMatchObject({ pages: 5, partial: true });
  });

  it('writes what mergeParts gives without elements, and with no tables', async () => {
    const parts = [pdfPart(1, 1, 'a', [], false), pdfPart(2, 3, 'b', [], false)];
    expect((await streamed(parts, rules('pdf'))).json).toEqual(inMemory(parts, rules('pdf')));
  });

  it('writes a CSV file\'s parts as its one table, padded to its widest row and rendered once', async () => {
    const lines = ['id,name,note', ...Array.from({ length: 600 }, (_, i) => (i % 50 === 7 ? `${i},wide,row,with,extra,cells` : `${i},name ${i},"a note, ${i}"`))];
    const bytes = new Uint8Array(Buffer.from(lines.join('\n')));
    const parts: Part[] = [];
    for (const [first, last] of [[1, 2], [3, 4], [5, 6], [7, 9]] as const) {
      const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i);
      parts.push({ first_page: first, last_page: last, ok: true, result: await extract({ bytes: bytes.slice(), filename: 'a.csv', config: { ...DEFAULT_CONFIG, pages } }) });
    }
    const { json } = await streamed(parts, rules('csv'));
    expect(json).toEqual(inMemory(parts, rules('csv')));
    expect(json!.tables[0]!.rows[0]).toEqual(['id', 'name', 'note', '', '', '']);
  });

  it('writes a text file\'s parts with the headings in force carried over the seams and a word cut by a seam counted once', async () => {
    const text = Array.from({ length: 30 }, (_, i) => `# Part ${i}\n\n${'word '.repeat(150 + i)}`).join('\n\n');
    const bytes = new Uint8Array(Buffer.from(text));
    const parts: Part[] = [];
    for (let first = 1; first <= 9; first += 2) {
      parts.push({ first_page: first, last_page: first + 1, ok: true, result: await extract({ bytes: bytes.slice(), filename: 'a.md', config: { ...DEFAULT_CONFIG, pages: [first, first + 1] } }) });
    }
    const { json, reads } = await streamed(parts, rules('markdown'));
    const whole = await extract({ bytes: bytes.slice(), filename: 'a.md', config: { ...DEFAULT_CONFIG, pages: Array.from({ length: 10 }, (_, i) => i + 1) } });
    expect(json).toEqual(inMemory(parts, rules('markdown')));
    expect(json!.chunks).toEqual(whole.chunks);
    expect(json!.metadata.word_count).toBe(whole.metadata.word_count);
    // Once for the plan, then once per section that needs it: never every part held at once.
    expect(reads.length).toBeLessThanOrEqual(parts.length * 5);
  });

  it('has nothing to write when no part could be read', async () => {
    const { plan } = await streamed([{ first_page: 1, last_page: 2, ok: false, error: 'corrupt' }], rules('pdf'));
    expect(plan).toBeNull();
  });
});
