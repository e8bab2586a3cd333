import { describe, expect, it } from 'vitest';
import { FORMATS, pageViewOf, splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { READERS } from '../../../lambdas/extract/engine/readers.ts';

describe('the format registry', () => {
  it('holds one descriptor per format, each with its own MIME type and a reader', () => {
    const names = FORMATS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(FORMATS.map((d) => d.mime_type)).size).toBe(names.length);
    expect(Object.keys(READERS).sort()).toEqual([...names].sort());
  });

  it('can recognise every format it holds: each descriptor has a signature', () => {
    const unrecognisable = FORMATS.filter(({ signature: s }) => !(s.header || s.magic || s.zipMimetype || s.zipMembers || s.anyZip || s.compoundStreams || s.names || s.sniff || s.anyText));
    expect(unrecognisable).toEqual([]);
    // One format takes any ZIP, one any text: detection always ends somewhere.
    expect(FORMATS.filter((d) => d.signature.anyZip)).toHaveLength(1);
    expect(FORMATS.filter((d) => d.signature.anyText)).toHaveLength(1);
  });

  it('joins the parts of a split document with the separator its reader puts between pages', () => {
    const pageSeparatorOf = (format: string) => splitOf(format)?.separator ?? '';
    expect(['pdf', 'pptx', 'ppt', 'xlsx', 'xls', 'ods'].map(pageSeparatorOf)).toEqual(Array(6).fill('\n\n'));
    expect(['csv', 'tsv'].map(pageSeparatorOf)).toEqual(['\n', '\n']);
    expect(['text', 'markdown', 'docx', 'no-such-format'].map(pageSeparatorOf)).toEqual(['', '', '', '']);
  });

  it('shows pages of PDFs (rendered, even after a little junk) and images (as they are), of nothing else', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(pageViewOf(bytes('junk\n%PDF-1.7\n'))?.view).toBe('render');
    expect(pageViewOf(Uint8Array.of(0x4d, 0x4d, 0x00, 0x2a, 0))).toEqual({ view: 'picture', mime_type: 'image/tiff' });
    expect(pageViewOf(bytes('{\\rtf1 not a picture}'))).toBeNull();
  });
});
