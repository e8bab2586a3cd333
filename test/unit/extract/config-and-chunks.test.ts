import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lambdas/core/errors.ts';
import { parseExtractionConfig } from '../../../lambdas/core/extraction-config.ts';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../../../lambdas/extract/engine/types.ts';
import { makeDocx, w } from '../../support/office-fixture.ts';
import { makePdf } from '../../support/pdf-fixture.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

function rejection(value: string): ApiError {
  try {
    parseExtractionConfig(value);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('the config form field', () => {
  it('fills in defaults and reads every option', () => {
    expect(parseExtractionConfig('{}')).toEqual(DEFAULT_CONFIG);
    expect(
      parseExtractionConfig(
        '{"output":"markdown","pages":"1-3, 8,2","ocr":"never","chunking":{"strategy":"size","max_chars":500,"overlap":50},"elements":false,"keep_page_furniture":true,"comments":true}',
      ),
    ).toEqual({
      output: 'markdown',
      pages: [1, 2, 3, 8],
      ocr: 'never',
      chunking: { strategy: 'size', max_chars: 500, overlap: 50 },
      elements: false,
      keep_page_furniture: true,
      comments: true,
    });
    expect(parseExtractionConfig('{"pages":[3,1]}').pages).toEqual([1, 3]);
  });

  it.each([
    ['not json', 'The config field is not valid JSON'],
    ['[1]', 'config must be an object'],
    ['{"format":"x"}', 'config.format is not a known field'],
    ['{"output":"html"}', 'config.output must be one of "text", "markdown"'],
    ['{"ocr":true}', 'config.ocr must be a string'],
    ['{"pages":"5-2"}', 'config.pages has the range "5-2"'],
    ['{"pages":"1,x"}', 'config.pages has "x"'],
    ['{"pages":"0"}', 'config.pages must number pages from 1'],
    ['{"chunking":{"strategy":"words"}}', 'config.chunking.strategy must be one of'],
    ['{"chunking":{"max_chars":10}}', 'config.chunking.max_chars must be at least 100'],
    ['{"chunking":{"max_chars":1000,"overlap":600}}', 'config.chunking.overlap must be an integer from 0 to 500'],
    ['{"chunking":{"size":3}}', 'config.chunking.size is not a known field'],
  ])('answers 400 naming the field for %s', (value, message) => {
    const err = rejection(value);
    expect(err.status).toBe(400);
    expect(err.message.startsWith(message)).toBe(true);
  });
});

describe('page selection and chunking', () => {
  it('extracts only the selected PDF pages and counts only those', async () => {
    const bytes = makePdf({ pages: ['one', 'two', 'three', 'four'] });
    const result = await extract({ bytes, filename: 'a.pdf', config: { ...DEFAULT_CONFIG, pages: [2, 4, 7] } });
    expect(result.content).toBe('two\n\nfour');
    expect(result.metadata).toMatchObject({ pages: 2, pages_total: 4 });
    expect(result.chunks.map((c) => [c.page_start, c.text])).toEqual([
      [2, 'two'],
      [4, 'four'],
    ]);
  });

  it('cuts size chunks at whitespace, with overlap, offsets in code points', async () => {
    const text = '😀 ' + 'word '.repeat(100);
    const result = await extract({ bytes: utf8(text), filename: 'a.txt', config: { ...DEFAULT_CONFIG, chunking: { strategy: 'size', max_chars: 100, overlap: 20 } } });
    const { content, chunks } = result;
    const cps = Array.from(content);
    for (const c of chunks) {
      expect(cps.slice(c.char_start, c.char_end).join('')).toBe(c.text);
      expect(c.text.length).toBeLessThanOrEqual(100);
      expect(c.text.endsWith(' ')).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.char_start).toBeLessThan(chunks[i - 1]!.char_end);
    }
    expect(chunks.at(-1)!.char_end).toBe(cps.length);
  });

  it('cuts section chunks at headings', async () => {
    const bytes = makeDocx({ body: [w.p('Intro text'), w.p('Part A', 'Heading1'), w.p('alpha'), w.p('Part B', 'Heading1'), w.p('beta')].join('') });
    const result = await extract({ bytes, filename: 'a.docx', config: { ...DEFAULT_CONFIG, chunking: { strategy: 'section', max_chars: 4000, overlap: 0 } } });
    expect(result.chunks.map((c) => c.text)).toEqual(['Intro text\n\n', 'Part A\n\nalpha\n\n', 'Part B\n\nbeta']);
  });
});

describe('language', () => {
  it('is guessed from common words when the text says enough, and left null otherwise', async () => {
    const german = 'Die Katze sitzt auf dem Dach und schaut in den Garten, weil sie nicht schlafen will. '.repeat(4);
    const english = 'The cat sits on the roof and looks into the garden, because it does not want to sleep. '.repeat(4);
    expect((await extract({ bytes: utf8(german), filename: 'de.txt' })).metadata.language).toBe('de');
    expect((await extract({ bytes: utf8(english), filename: 'en.txt' })).metadata.language).toBe('en');
    expect((await extract({ bytes: utf8('Invoice 4711'), filename: 'short.txt' })).metadata.language).toBeNull();
  });
});
