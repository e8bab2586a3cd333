import { describe, expect, it } from 'vitest';
import { resultJson, resultJsonWithMembers } from '../../../lambdas/core/job-result.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG, type ExtractionResult } from '../../../lambdas/extract/engine/types.ts';

describe('a result written out as JSON a piece at a time', () => {
  it('is byte for byte what JSON.stringify writes, absent and undefined members included', async () => {
    const csv = ['name,note', ...Array.from({ length: 6000 }, (_, i) => `"row ${i}, ""quoted""",naïve 🙂 \\ ${i}`)].join('\n');
    const result = await extract({ bytes: new TextEncoder().encode(csv), filename: 'a.csv', config: { ...DEFAULT_CONFIG, elements: true } });
    const odd = { ...result, metadata: { ...result.metadata, title: undefined }, tables: [...result.tables, { rows: [['a', undefined as unknown as string]], markdown: '' }] } as ExtractionResult;
    for (const r of [result, odd]) expect(Buffer.from(resultJson(r)).equals(Buffer.from(JSON.stringify(r)))).toBe(true);
    expect(resultJson(result).byteLength).toBeGreaterThan(1 << 20);
  });

  it('writes elements and chunks in batches, and arrays long enough to be cut inside them, as JSON.stringify does', () => {
    const elements = Array.from({ length: 700 }, (_, i) => ({ type: 'paragraph', text: `p ${i} \u2028 "q"`, page: 1, level: i % 3 ? undefined : 2, char_start: i, char_end: i + 1 }));
    const boxes = Array.from({ length: 1500 }, (_, i) => ({ page: 1 + (i % 4), bbox: [i, 0, i + 1, 2] }));
    const result = {
      content: 'x',
      metadata: { pages: 2000, page_sizes: Array.from({ length: 2000 }, () => [612, 792]), title: undefined },
      tables: [],
      chunks: [{ text: 'a', boxes, note: () => 1 }, { text: 'b', headings: [undefined, 'H'] }],
      elements: [...elements, undefined, ...elements.slice(0, 10)],
    } as unknown as ExtractionResult;
    expect(Buffer.from(resultJson(result)).toString()).toBe(JSON.stringify(result));
  });

  it('says where each member lies in the bytes, across the pieces it was written in', async () => {
    const csv = ['name,note', ...Array.from({ length: 30_000 }, (_, i) => `row ${i},naïve 🙂 ${i}`)].join('\n');
    const result = await extract({ bytes: new TextEncoder().encode(csv), filename: 'a.csv', config: { ...DEFAULT_CONFIG, elements: true } });
    const { json, members } = resultJsonWithMembers(result);
    expect(json.byteLength).toBeGreaterThan(3 << 20);
    expect(Object.keys(members)).toEqual(Object.keys(result));
    for (const [key, [start, end]] of Object.entries(members)) expect(JSON.parse(Buffer.from(json.subarray(start, end)).toString())).toEqual(result[key as keyof ExtractionResult]);
  });

  it('hands back bytes that own their buffer, so a worker thread can move them', () => {
    const small = resultJson({ content: 'x', metadata: {} as ExtractionResult['metadata'], tables: [], chunks: [] });
    expect(small.byteOffset).toBe(0);
    expect(small.byteLength).toBe(small.buffer.byteLength);
  });
});
