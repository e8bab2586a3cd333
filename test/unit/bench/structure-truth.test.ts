import { describe, expect, it } from 'vitest';
import { generateModels, truthMarkdown } from '../../../bench/structure/docmodel.ts';
import { pandocToMarkdown } from '../../../bench/structure/pandoc-truth.ts';
import { markdownBlocks, scoreMarkdown } from '../../../bench/structure-metric.ts';

describe('generated documents', () => {
  const models = generateModels(24);

  it('are the same for the same seed', () => {
    expect(JSON.stringify(generateModels(24))).toBe(JSON.stringify(models));
  });

  it('vary: languages, two columns, headers, fonts, every block kind', () => {
    expect(new Set(models.map((m) => m.language))).toEqual(new Set(['en', 'he', 'ar']));
    expect(models.filter((m) => m.twoColumn).length).toBeGreaterThan(4);
    expect(models.filter((m) => m.header !== null).length).toBeGreaterThan(10);
    expect(new Set(models.map((m) => m.style.bodyFont)).size).toBeGreaterThan(3);
    const types = new Set(models.flatMap((m) => m.blocks.map((b) => b.type)));
    expect(types).toEqual(new Set(['title', 'heading', 'paragraph', 'list', 'table', 'caption', 'figure']));
    expect(models.some((m) => m.blocks.some((b) => b.type === 'heading' && /^\d+\.\d+ /.test(b.text)))).toBe(true);
    expect(models.some((m) => m.blocks.some((b) => b.type === 'list' && b.items.some((i) => i.level > 0)))).toBe(true);
  });

  it('have a truth with every kind of block, and no running header or footer', () => {
    for (const m of models) {
      const md = truthMarkdown(m);
      const kinds = new Set(markdownBlocks(md).map((b) => b.kind));
      expect(kinds.has('heading') && kinds.has('paragraph')).toBe(true);
      if (m.header) expect(md).not.toContain(m.header);
      expect(md).not.toContain(m.footerText);
      // The truth scores 1 against itself, and every model block is one or more truth blocks.
      expect(scoreMarkdown(md, md).blockF1).toBe(1);
    }
  });
});

describe('pandocToMarkdown', () => {
  const str = (s: string) => s.split(' ').flatMap((w, i) => (i === 0 ? [{ t: 'Str', c: w }] : [{ t: 'Space' }, { t: 'Str', c: w }]));
  const cell = (s: string) => [['', [], []], { t: 'AlignDefault' }, 1, 1, [{ t: 'Plain', c: str(s) }]];
  const row = (...cs: string[]) => [['', [], []], cs.map(cell)];

  it('writes headings, paragraphs, nested lists, tables and notes; drops images and raw HTML', () => {
    const ast = {
      meta: { title: { t: 'MetaInlines', c: str('The Title') } },
      blocks: [
        { t: 'Header', c: [2, ['', [], []], str('2.1 Data Collection')] },
        { t: 'Para', c: [...str('A paragraph'), { t: 'SoftBreak' }, { t: 'Strong', c: str('that wraps') }, { t: 'Note', c: [{ t: 'Para', c: str('A note.') }] }] },
        { t: 'Para', c: [{ t: 'Image', c: [['', [], []], str('alt'), ['x.png', '']] }] },
        { t: 'RawBlock', c: ['html', '<div>'] },
        { t: 'Para', c: str('1. Not a list') },
        {
          t: 'BulletList',
          c: [[{ t: 'Plain', c: str('one') }, { t: 'OrderedList', c: [[1, { t: 'Decimal' }, { t: 'Period' }], [[{ t: 'Plain', c: str('inner') }]]] }], [{ t: 'Plain', c: str('two') }]],
        },
        {
          t: 'Table',
          c: [['', [], []], [null, []], [], [['', [], []], [row('Name', 'Value')]], [[['', [], []], 0, [], [row('a|b', '1')]]], [['', [], []], []]],
        },
      ],
    };
    const md = pandocToMarkdown(ast, { metaTitle: true });
    expect(md).toBe(
      [
        '# The Title',
        '## 2.1 Data Collection',
        'A paragraph that wraps',
        '1\\. Not a list',
        '- one',
        '  1. inner',
        '- two',
        '| Name | Value |\n| --- | --- |\n| a\\|b | 1 |',
        'A note.',
      ].join('\n\n') + '\n',
    );
    expect(markdownBlocks(md).map((b) => b.kind)).toEqual([
      'heading', 'heading', 'paragraph', 'paragraph', 'list_item', 'list_item', 'list_item', 'table_cell', 'table_cell', 'table_cell', 'table_cell', 'paragraph',
    ]);
    expect(pandocToMarkdown(ast, { metaTitle: false })).not.toContain('The Title');
  });
});
