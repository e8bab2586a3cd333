import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { countPages } from '../../../lambdas/extract/engine/page-count.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('text and Markdown extraction', () => {
  it('returns the decoded text with its encoding and counts', async () => {
    const result = await extract({ bytes: new Uint8Array([0x93, 0x48, 0x69, 0x94, 0x20, 0x63, 0x61, 0x66, 0xe9]), filename: 'a.txt' });
    expect(result.content).toBe('“Hi” café');
    expect(result.metadata).toMatchObject({
      format: 'text',
      mime_type: 'text/plain',
      encoding: 'windows-1252',
      pages: 1,
      char_count: 9,
      word_count: 2,
      ocr_pages: [],
      title: null,
    });
    expect(result.tables).toEqual([]);
  });

  it('keeps Markdown source as it is', async () => {
    const source = '# Title\n\n- item *one*\n- item two\n';
    const result = await extract({ bytes: utf8(source), filename: 'README.md' });
    expect(result.content).toBe(source);
    expect(result.metadata).toMatchObject({ format: 'markdown', mime_type: 'text/markdown', encoding: 'utf-8' });
  });

  it('pages and chunks text every 3,000 characters, offsets counted in code points', async () => {
    // Emoji are two UTF-16 units but one character: offsets must not drift.
    const text = '😀'.repeat(2999) + 'ab' + 'c'.repeat(3000) + 'tail';
    const bytes = utf8(text);
    const result = await extract({ bytes, filename: 'long.txt' });
    expect(result.metadata.pages).toBe(3);
    expect(result.metadata.pages).toBe(countPages({ bytes, filename: 'long.txt' }));
    expect(result.metadata.char_count).toBe(6005);
    expect(result.chunks.map(({ page_start, page_end, char_start, char_end }) => [page_start, page_end, char_start, char_end])).toEqual([
      [1, 1, 0, 3000],
      [2, 2, 3000, 6000],
      [3, 3, 6000, 6005],
    ]);
    const chars = [...result.content];
    for (const chunk of result.chunks) expect(chars.slice(chunk.char_start, chunk.char_end).join('')).toBe(chunk.text);
    expect(result.chunks[0]!.text).toBe('😀'.repeat(2999) + 'a');
  });

  it('gives an empty text file (only a BOM) one page and no chunks', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf]);
    const result = await extract({ bytes, filename: 'a.txt' });
    expect(result.content).toBe('');
    expect(result.metadata.pages).toBe(1);
    expect(countPages({ bytes, filename: 'a.txt' })).toBe(1);
    expect(result.chunks).toEqual([]);
  });

  it('refuses a zero-byte file as empty', async () => {
    await expect(extract({ bytes: new Uint8Array(0), filename: 'a.txt' })).rejects.toMatchObject({ code: 'empty_file' });
  });

  it('agrees with countPages across encodings', async () => {
    const body = 'Ünïcödé '.repeat(800);
    const utf16le = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]));
    for (const bytes of [utf8(body), utf16le, new Uint8Array(Buffer.from(body, 'latin1'))]) {
      const result = await extract({ bytes, filename: 'a.txt' });
      expect(result.metadata.pages).toBe(countPages({ bytes, filename: 'a.txt' }));
      expect(result.content).toBe(body);
    }
  });
});
