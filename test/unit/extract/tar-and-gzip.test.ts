import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { countPages, extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { makePdf } from '../../support/pdf-fixture.ts';
import { makeGzip, makeTar } from '../../support/tar-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

describe('TAR archives', () => {
  it("reads each member as its own section, as a ZIP's, long names (GNU's and pax's) and a PDF first member included", async () => {
    const long = `reports/${'quarterly-'.repeat(12)}summary.md`;
    const tar = makeTar([
      { name: 'first.pdf', data: makePdf({ pages: ['Opening page text'] }) },
      { name: 'reports', type: '5' },
      { name: long, data: '# Summary\n\nAll good.' },
      { name: 'link', type: '2' },
      { name: 'notes.txt', data: 'Plain notes.' },
    ]);
    const result = await extract({ bytes: tar, filename: 'bundle.tar', config: markdown });
    expect(result.metadata.format).toBe('tar');
    expect(result.content).toContain('## first.pdf\n\nOpening page text');
    expect(result.content).toContain(`## ${long}\n\n# Summary\n\nAll good.`);
    expect(result.content).toContain('## notes.txt\n\nPlain notes.');
    expect(result.content).not.toContain('## link');
    expect(countPages({ bytes: tar, filename: 'bundle.tar' })).toBe(3);

    const pax = makeTar([{ name: long, data: 'pax named' }], { pax: true });
    expect((await extract({ bytes: pax, filename: 'pax.tar', config: markdown })).content).toBe(`## ${long}\n\npax named`);
  });

  it('says an archive without files is empty', async () => {
    await expect(extract({ bytes: makeTar([{ name: 'only-a-folder', type: '5' }]), filename: 'empty.tar' })).rejects.toThrow(/TAR archive has no files/);
  });
});

describe('gzip files', () => {
  it("reads a paper's sources as arXiv serves them, a gzipped TAR of a LaTeX project, as the paper", async () => {
    const tar = makeTar([
      { name: 'main.tex', data: String.raw`\documentclass{article}\title{Sparse Joins}\begin{document}\maketitle\input{intro}\end{document}` },
      { name: 'intro.tex', data: String.raw`\section{Introduction}Joins are sparse.` },
      { name: 'figs/plot.png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    ]);
    const result = await extract({ bytes: makeGzip(tar), filename: '2501.00001', config: markdown });
    expect(result.metadata).toMatchObject({ format: 'gzip', title: 'Sparse Joins' });
    expect(result.content).toBe('# Sparse Joins\n\n# Introduction\n\nJoins are sparse.');
    expect(result.elements!.map((e) => e.type)).toEqual(['title', 'heading', 'paragraph']);
  });

  it('reads a gzipped single document by the name its header keeps, or else by its content', async () => {
    const tex = await extract({ bytes: makeGzip(String.raw`\section{Only}Body.`, 'paper.tex'), filename: 'paper.tex.gz', config: markdown });
    expect(tex.content).toBe('# Only\n\nBody.');
    const pdf = await extract({ bytes: gzipSync(makePdf({ pages: ['Compressed page'] })), filename: 'upload', config: markdown });
    expect(pdf.content).toBe('Compressed page');
  });

  it('refuses a gzip file that inflates past what a member may, and says a damaged one is damaged', async () => {
    const bomb = gzipSync(Buffer.alloc(130 * 1024 * 1024));
    await expect(extract({ bytes: bomb, filename: 'bomb.gz' })).rejects.toThrow(/inflates past 128 MB/);
    const damaged = makeGzip('some text', 'a.txt');
    damaged[20] = damaged[20]! ^ 0xff;
    await expect(extract({ bytes: damaged, filename: 'a.txt.gz' })).rejects.toThrow(/gzip file is damaged/);
  });
});
