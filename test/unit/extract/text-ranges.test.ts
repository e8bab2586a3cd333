import { describe, expect, it } from 'vitest';
import { chunkPages, planChunks } from '../../../lambdas/core/chunk-plan.ts';
import type { RangePlan } from '../../../lambdas/extract/engine/byte-ranges.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { mergeParts, mergeRulesOf, type Part } from '../../../lambdas/extract/engine/merge.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';
import { planRanges } from '../../../lambdas/extract/engine/range-planners.ts';
import { splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';

// A chunk of a large plain-text or Markdown file reads only its own bytes
// (located once when the file is planned): what it extracts must be what
// reading the whole file for its pages gives, and the chunks merged must be
// the whole file read at once.

const words = ['water', 'café', 'naïve', '🙂', '水の', 'Ωmega', 'tables', 'falling'];
/** Paragraphs of every length, some longer than a page, with blank lines of spaces, no-break spaces and ideographic spaces between them. */
function prose(paragraphs: number, crlf = false): string {
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const lines = Array.from({ length: 1 + (p % 4) }, (_, l) => Array.from({ length: 5 + ((p * 7 + l * 3) % (p % 9 === 0 ? 900 : 40)) }, (_, i) => words[(p + l + i) % words.length]).join(' '));
    out.push(lines.join(crlf ? '\r\n' : '\n'));
    out.push(p % 5 === 0 ? '  \u00a0' : p % 7 === 0 ? '\u3000' : '');
  }
  return out.join(crlf ? '\r\n' : '\n');
}

/** Headings, lists, tables, paragraphs and fenced code blocks (some longer than a chunk, one holding lines that would be headings outside it). */
function markdown(sections: number): string {
  const out: string[] = [];
  for (let s = 0; s < sections; s++) {
    out.push(`${'#'.repeat(1 + (s % 3))} Section ${s} über 🙂`, '');
    out.push(prose(3 + (s % 4)), '');
    if (s % 4 === 1) out.push('```', ...Array.from({ length: 40 + (s % 3) * 120 }, (_, i) => (i % 9 === 0 ? `# not a heading ${i}` : `code line ${i} ${words[i % words.length]}`)), '```', '');
    if (s % 3 === 2) out.push(...Array.from({ length: 30 }, (_, i) => `${i % 2 ? '  ' : ''}- item ${i} ${words[i % words.length]}`), '');
    if (s % 5 === 3) out.push('| a | b |', '| --- | --- |', ...Array.from({ length: 60 }, (_, i) => `| ${i} | ${words[i % words.length]} |`), '');
  }
  return out.join('\n');
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text));
const bom = (b: number[], body: Buffer) => new Uint8Array(Buffer.concat([Buffer.from(b), body]));
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
};
const utf32le = (text: string) => Buffer.concat([...text].map((c) => { const b = Buffer.alloc(4); b.writeUInt32LE(c.codePointAt(0)!); return b; }));

const cases: Array<[string, Uint8Array, 'txt' | 'md']> = [
  ['UTF-8 with multi-byte characters', utf8(prose(400)), 'txt'],
  ['UTF-8 with a BOM and CRLF line breaks', bom([0xef, 0xbb, 0xbf], Buffer.from(prose(400, true))), 'txt'],
  ['UTF-16LE with a BOM', bom([0xff, 0xfe], Buffer.from(prose(400), 'utf16le')), 'txt'],
  ['UTF-16BE with a BOM', bom([0xfe, 0xff], utf16be(prose(400))), 'txt'],
  ['UTF-32LE with a BOM', bom([0xff, 0xfe, 0, 0], utf32le(prose(150))), 'txt'],
  ['Windows-1252', new Uint8Array(Buffer.from(prose(400).replace(/[^\x00-\xff]/g, 'x'), 'latin1')), 'txt'],
  ['no blank line at all', utf8(prose(400).replace(/\n\s*\n/g, '\n')), 'txt'],
  ['Markdown in UTF-8', utf8(markdown(60)), 'md'],
  ['Markdown in UTF-16LE', bom([0xff, 0xfe], Buffer.from(markdown(60), 'utf16le')), 'md'],
];

function sliceOf(bytes: Uint8Array, plan: RangePlan, i: number) {
  const run = plan.runs[i]!;
  return { bytes: bytes.slice(run[0], run[4] ?? run[1]), range: { layout: plan.layout, run, header_bytes: 0 } };
}

const config = (pages: number[] | null, extra: Partial<ExtractionConfig> = {}): ExtractionConfig => ({ ...DEFAULT_CONFIG, ...extra, pages });

describe('a text chunk read from its own bytes', () => {
  for (const [name, bytes, ext] of cases) {
    for (const selected of [null, [1, 2, 5, 6, 7, 12, 13, 19]]) {
      it(`extracts what the whole file's pages give: ${name}${selected ? ', pages selected' : ''}`, async () => {
        const filename = `notes.${ext}`;
        const pages = countPages({ bytes, filename });
        expect(pages).toBeGreaterThan(19);
        const plan = planChunks(pages, selected, 3);
        const ranges = (await planRanges(bytes.slice(), ext === 'md' ? 'markdown' : 'text', plan))!;
        expect(ranges.layout.pages_total).toBe(pages);
        for (const [i, range] of plan.entries()) {
          const wanted = chunkPages(range, selected);
          const part = sliceOf(bytes, ranges, i);
          // Never more than its pages and the one block that runs on over its end.
          expect(part.bytes.byteLength).toBeLessThan(bytes.byteLength / 2);
          for (const output of ['text', 'markdown'] as const) {
            const own = await extract({ bytes: part.bytes.slice(), filename, config: config(wanted, { output }), range: part.range });
            const whole = await extract({ bytes: bytes.slice(), filename, config: config(wanted, { output }) });
            expect(own).toEqual(whole);
          }
        }
      });
    }
  }

  it('merges the chunks into the whole read: text, pages, chunks and metadata', async () => {
    for (const [, bytes, ext] of cases) {
      const filename = `notes.${ext}`;
      const format = ext === 'md' ? 'markdown' : 'text';
      const plan = planChunks(countPages({ bytes, filename }), null, 3);
      const ranges = (await planRanges(bytes.slice(), format, plan))!;
      // Chunks by page (the default): chunks by section or size start again at each part, as for every split document.
      const parts: Part[] = [];
      for (const [i, range] of plan.entries()) {
        const part = sliceOf(bytes, ranges, i);
        parts.push({ ...range, ok: true, result: await extract({ bytes: part.bytes, filename, config: config(chunkPages(range, null)), range: part.range }) });
      }
      const merged = mergeParts(parts, mergeRulesOf(splitOf(format)!))!;
      const whole = await extract({ bytes: bytes.slice(), filename });
      expect(merged.content).toBe(whole.content);
      expect(merged.chunks).toEqual(whole.chunks);
      expect({ ...merged.metadata, failed_page_ranges: undefined }).toEqual({ ...whole.metadata, failed_page_ranges: undefined });
      // Elements too, but for the one a seam cuts: each chunk keeps the part of it on its pages, as a whole read of those pages does.
      const seams = new Set(parts.slice(1).map((p) => merged.chunks.find((c) => c.page_start === p.first_page)!.char_start));
      const crossing = (e: { char_start: number; char_end: number }) => [...seams].some((s) => e.char_start < s && s <= e.char_end);
      expect(merged.elements!.filter((e) => !crossing(e))).toEqual(whole.elements!.filter((e) => !crossing(e)));
    }
  });

  it('leaves an East Asian multi-byte encoding to whole reads, whose code points it cannot find in the bytes', async () => {
    // "コンピュータのデータ" in Shift-JIS, a line at a time.
    const line = Buffer.from('8382815b835e815b82cc8366815b835e0a', 'hex');
    expect(await planRanges(new Uint8Array(Buffer.concat(Array.from({ length: 3000 }, () => line))), 'text', [{ first_page: 1, last_page: 2 }])).toBeNull();
  });
});
