import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS, formatNamed, pageViewOf, splitOf } from '../../../lambdas/extract/engine/registry.ts';
import { type FormatReaders, readerOf } from '../../../lambdas/extract/engine/readers.ts';

describe('the format registry', () => {
  it('holds one descriptor per format, each with its own MIME type and a reader', async () => {
    const names = FORMATS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(FORMATS.map((d) => d.mime_type)).size).toBe(names.length);
    for (const name of names) expect(typeof (await readerOf(name)), name).toBe('function');
  });

  it('finds each format\'s reader in its family\'s folder, and every reader there is of a format of that family', async () => {
    const formatsDir = path.resolve(import.meta.dirname, '../../../lambdas/extract/formats');
    const families = fs.readdirSync(formatsDir).filter((f) => fs.existsSync(path.join(formatsDir, f, 'reader.ts')));
    expect(families.sort()).toEqual([...new Set(FORMATS.map((d) => d.family))].sort());
    for (const family of families) {
      const { readers } = (await import(`../../../lambdas/extract/formats/${family}/reader.ts`)) as { readers: FormatReaders };
      expect(Object.keys(readers).sort(), family).toEqual(FORMATS.filter((d) => d.family === family).map((d) => d.name).sort());
    }
  });

  it('can recognise every format it holds: each descriptor has a signature', () => {
    const unrecognisable = FORMATS.filter(
      ({ signature: s }) =>
        !(s.header || s.magic || s.zipMimetype || s.zipMembers || s.archiveMembers || s.anyZip || s.anyTar || s.gzip || s.compoundStreams || s.names || s.sniff || s.anyText),
    );
    expect(unrecognisable).toEqual([]);
    // One format takes any ZIP, one any TAR, one any gzip file, one any text: detection always ends somewhere.
    expect(FORMATS.filter((d) => d.signature.anyZip)).toHaveLength(1);
    expect(FORMATS.filter((d) => d.signature.anyTar)).toHaveLength(1);
    expect(FORMATS.filter((d) => d.signature.gzip)).toHaveLength(1);
    expect(FORMATS.filter((d) => d.signature.anyText)).toHaveLength(1);
  });

  it('joins the parts of a split document with the separator its reader puts between pages', () => {
    const pageSeparatorOf = (format: string) => splitOf(format)?.separator ?? '';
    expect(['pdf', 'pptx', 'ppt', 'xlsx', 'xls', 'ods'].map(pageSeparatorOf)).toEqual(Array(6).fill('\n\n'));
    expect(['csv', 'tsv'].map(pageSeparatorOf)).toEqual(['\n', '\n']);
    expect(['text', 'markdown', 'docx', 'no-such-format'].map(pageSeparatorOf)).toEqual(['', '', '', '']);
  });

  it('names a format from a filename for the metrics, and never mints a name from a client\'s extension', () => {
    const named = ['Scan.JPG', 'a.tif', 'notes.TXT', 'flat.fodt', 'page.htm', 'data.tab', 'README.md', 'deck.pptx', 'mail.eml', 'x.unheard-of', 'no-extension', 'constructor.'].map(formatNamed);
    expect(named).toEqual(['jpeg', 'tiff', 'text', 'odt', 'html', 'tsv', 'markdown', 'pptx', 'eml', 'other', 'other', 'other']);
  });

  it('shows pages of PDFs (rendered, even after a little junk) and images (as they are), of nothing else', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(pageViewOf(bytes('junk\n%PDF-1.7\n'))?.view).toBe('render');
    expect(pageViewOf(Uint8Array.of(0x4d, 0x4d, 0x00, 0x2a, 0))).toEqual({ view: 'picture', mime_type: 'image/tiff' });
    expect(pageViewOf(bytes('{\\rtf1 not a picture}'))).toBeNull();
  });
});
