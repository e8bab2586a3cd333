import { describe, expect, it } from 'vitest';
import { chunkPages, planChunks } from '../../../lambdas/core/chunk-plan.ts';
import type { ByteRun, RowLayout } from '../../../lambdas/extract/engine/byte-ranges.ts';
import { extractCsv, extractCsvRows, planRowRuns } from '../../../lambdas/extract/formats/text/csv.ts';
import { mergeParts, mergeRulesOf, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';

// A chunk of a large CSV or TSV file reads only its rows' bytes (located once
// when the file is planned); what it extracts must be what reading the whole
// file for its pages gave.

const utf16le = (text: string) => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
const cp1252 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

function rowsText(count: number, opts: { emptyFirst?: boolean; longAt?: number; accents?: boolean } = {}): string {
  const lines = opts.emptyFirst ? ['', ',,', 'id,name,note'] : ['id,name,note'];
  for (let i = 1; i <= count; i++) {
    const name = opts.accents ? `café ${i} naïve` : `name 🙂 ${i}`;
    const note = i === opts.longAt ? `"${'long, quoted\nfield '.repeat(900)}"` : i % 5 === 0 ? `"quoted, ""with"" a\r\nbreak ${i}"` : `plain ${i}`;
    lines.push(i % 11 === 0 ? `${i},${name}` : `${i},${name},${note}`);
  }
  return lines.join(i0(count) ? '\r\n' : '\n') + '\n';
}
const i0 = (n: number) => n % 2 === 0;

const cases: Array<[string, Uint8Array, 'csv' | 'tsv']> = [
  ['UTF-8 with a four-byte character in every row', new Uint8Array(Buffer.from(rowsText(2600))), 'csv'],
  ['UTF-8 with a BOM and empty rows before the header', new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rowsText(2601, { emptyFirst: true }))])), 'csv'],
  ['UTF-16LE with a BOM', utf16le(rowsText(2600)), 'csv'],
  ['Windows-1252', cp1252(rowsText(2650, { accents: true })), 'csv'],
  ['a quoted field longer than a chunk of pages', new Uint8Array(Buffer.from(rowsText(2000, { longAt: 150 }))), 'csv'],
  ['TSV', new Uint8Array(Buffer.from(rowsText(2500).replace(/,/g, '\t'))), 'tsv'],
];

function slice(bytes: Uint8Array, plan: { layout: RowLayout; runs: ByteRun[] }, i: number) {
  const run = plan.runs[i]!;
  const { header } = plan.layout;
  const head = header && header[0] < run[0] ? bytes.subarray(header[0], header[1]) : new Uint8Array(0);
  return { bytes: new Uint8Array(Buffer.concat([head, bytes.subarray(run[0], run[1])])), range: { layout: plan.layout, run, header_bytes: head.byteLength } };
}

describe('a CSV chunk read from its rows only', () => {
  for (const [name, bytes, format] of cases) {
    for (const selected of [null, [1, 2, 5, 6, 7, 12, 13, 19]]) {
      it(`extracts what the whole file's pages give: ${name}${selected ? ', pages selected' : ''}`, () => {
        const pages = countPages({ bytes, filename: `data.${format}` });
        expect(pages).toBeGreaterThan(19);
        const plan = planChunks(pages, selected, 2);
        const rows = planRowRuns(bytes, format, plan)!;
        expect(rows.layout.pages_total).toBe(pages);
        for (const [i, range] of plan.entries()) {
          const wanted = chunkPages(range, selected);
          const part = slice(bytes, rows, i);
          for (const mode of ['markdown', 'text'] as const) {
            expect(extractCsvRows(part.bytes, mode, part.range, wanted)).toEqual(extractCsv(bytes, mode, format, wanted));
          }
        }
      });
    }
  }

  it('leaves an East Asian multi-byte encoding to whole reads, whose byte offsets it cannot work out', () => {
    // "コンピュータのデータ,あいう" in Shift-JIS, a row at a time.
    const row = Buffer.from('8382815b835e815b82cc8366815b835e2c82a082a282a40a', 'hex');
    const text = Buffer.concat(Array.from({ length: 3000 }, () => row));
    expect(planRowRuns(new Uint8Array(text), 'csv', [{ first_page: 1, last_page: 2 }])).toBeNull();
  });

  it('merges the chunks into the whole read, through extract() as the chunk worker calls it', async () => {
    const bytes = new Uint8Array(Buffer.from(rowsText(900)));
    const pages = countPages({ bytes, filename: 'data.csv' });
    const plan = planChunks(pages, null, 3);
    const rows = planRowRuns(bytes, 'csv', plan)!;
    const parts: Part[] = [];
    for (const [i, range] of plan.entries()) {
      const part = slice(bytes, rows, i);
      const result = await extract({ bytes: part.bytes, filename: 'data.csv', config: { ...DEFAULT_CONFIG, pages: chunkPages(range, null) }, range: part.range });
      parts.push({ ...range, ok: true, result });
    }
    const merged = mergeParts(parts, mergeRulesOf(splitOf('csv')!))!;
    const whole = await extract({ bytes, filename: 'data.csv' });
    expect(merged.content).toBe(whole.content);
    expect(merged.tables).toEqual(whole.tables);
    expect(merged.metadata.pages).toBe(pages);
  });
});
