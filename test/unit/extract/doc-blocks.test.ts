// How the Word 97-2003 reader's text streams become blocks. The binary format
// is read by word-extractor; here its document is stood in for, so the test
// names only the mapping: headers and footers once as page furniture, notes
// as footnotes, tab-separated rows as a table, typed bullets as list items.

import { describe, expect, it, vi } from 'vitest';

vi.mock('word-extractor/lib/buffer-reader.js', () => ({
  default: class {
    open = async () => undefined;
    close = async () => undefined;
  },
}));
vi.mock('word-extractor/lib/word-ole-extractor.js', () => ({
  default: class {
    extract = async () => ({
      getHeaders: () => 'Company memo\n\nCompany memo\n3\n',
      getBody: () => 'Intro line.\nName\tQty\nTea\t2\nCoffee\t5\n• first point\nClosing words.\n',
      getTextboxes: () => 'Boxed\n',
      getFootnotes: () => 'A footnote.\n',
      getEndnotes: () => 'An endnote.\n',
      getAnnotations: () => '',
      getFooters: () => 'Confidential\n',
    });
  },
}));

describe('DOC blocks', () => {
  it('writes headers and footers once as page furniture, notes as footnotes, tab-separated rows as a table, typed bullets as list items', async () => {
    const { extractDoc } = await import('../../../lambdas/extract/formats/legacy-office/doc.ts');
    const out = await extractDoc(new Uint8Array([1, 2, 3]), 'markdown');
    const text = out.pages.join('');
    expect((out.elements ?? []).map((e) => [e.type, text.slice(e.start, e.end)])).toEqual([
      ['page_header', 'Company memo'],
      ['paragraph', 'Intro line.'],
      ['table', '| Name | Qty |\n| --- | --- |\n| Tea | 2 |\n| Coffee | 5 |'],
      ['list_item', '- first point'],
      ['paragraph', 'Closing words.'],
      ['paragraph', 'Boxed'],
      ['footnote', 'A footnote.'],
      ['footnote', 'An endnote.'],
      ['page_footer', 'Confidential'],
    ]);
    expect(out.tables).toHaveLength(1);
  });
});
