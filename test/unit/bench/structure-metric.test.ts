import { describe, expect, it } from 'vitest';
import { markdownBlocks, plainTextBlocks, scoreBlocks, scoreMarkdown } from '../../../bench/structure-metric.ts';

describe('markdownBlocks', () => {
  it('cuts headings, list items, table cells and paragraphs', () => {
    const md = [
      '# Title',
      '',
      '### 2.1 Data Collection ##',
      'First line of a paragraph',
      'and its second line.',
      '',
      '- a bullet',
      '  * nested bullet',
      '+ plus item',
      '• dot item',
      '•tight dot',
      '1. first',
      '12) twelfth',
      '',
      '| Name | Value |',
      '|:-----|------:|',
      '| alpha | 1 |',
      '',
      '#NoSpace is a paragraph',
      '**Bold** is a paragraph, 2.1 too',
    ].join('\n');
    expect(markdownBlocks(md)).toEqual([
      { kind: 'heading', text: 'title' },
      { kind: 'heading', text: '2.1 data collection' },
      { kind: 'paragraph', text: 'first line of a paragraph and its second line.' },
      { kind: 'list_item', text: 'a bullet' },
      { kind: 'list_item', text: 'nested bullet' },
      { kind: 'list_item', text: 'plus item' },
      { kind: 'list_item', text: 'dot item' },
      { kind: 'list_item', text: 'tight dot' },
      { kind: 'list_item', text: 'first' },
      { kind: 'list_item', text: 'twelfth' },
      { kind: 'table_cell', text: 'name' },
      { kind: 'table_cell', text: 'value' },
      { kind: 'table_cell', text: 'alpha' },
      { kind: 'table_cell', text: '1' },
      { kind: 'paragraph', text: '#nospace is a paragraph bold is a paragraph, 2.1 too' },
    ]);
  });

  it('normalises: NFKC, lower case, links and images to text, comments and * _ ` ~ \\ gone, whitespace collapsed', () => {
    const md = 'ＦＵＬＬ width ﬁ <!-- hidden -->  `code`  ~~gone~~ a\\_b **B** _i_ [link text](http://x.org/a_(b)) ![alt](i.png) [![inner](i.png)](u) [ref][1]';
    expect(markdownBlocks(md)).toEqual([{ kind: 'paragraph', text: 'full width fi code gone ab b i link text alt inner ref' }]);
  });

  it('keeps fenced code as paragraph text, without reading its lines as headings or lists', () => {
    const md = ['before', '```js', '# not a heading', '- not a list', '', '| nor a table |', '```', 'after'].join('\n');
    expect(markdownBlocks(md)).toEqual([
      { kind: 'paragraph', text: 'before' },
      { kind: 'paragraph', text: '# not a heading - not a list' },
      { kind: 'paragraph', text: '| nor a table |' },
      { kind: 'paragraph', text: 'after' },
    ]);
  });

  it('drops empty blocks: empty cells, rules', () => {
    expect(markdownBlocks('| a |  | b |\n|---|---|---|\n\n***\n\n-')).toEqual([
      { kind: 'table_cell', text: 'a' },
      { kind: 'table_cell', text: 'b' },
    ]);
  });

  it('reads plain text as paragraphs at blank lines and form feeds', () => {
    expect(plainTextBlocks('- one\nline two\n\n  \nthree\f4\n')).toEqual([
      { kind: 'paragraph', text: '- one line two' },
      { kind: 'paragraph', text: 'three' },
      { kind: 'paragraph', text: '4' },
    ]);
  });
});

describe('scoreMarkdown', () => {
  it('scores identical texts 1', () => {
    const md = '# H\n\nA paragraph.\n\n- item\n\n| a | b |\n|---|---|\n| 1 | 2 |';
    const s = scoreMarkdown(md, md);
    expect(s.blockF1).toBe(1);
    expect(s.wordF1).toBe(1);
    expect(Object.keys(s.kinds).sort()).toEqual(['heading', 'list_item', 'paragraph', 'table_cell']);
  });

  it('matches identical texts whatever the case, emphasis and line breaks', () => {
    const s = scoreMarkdown('A **Paragraph** that\nwraps.', 'a paragraph that wraps.');
    expect(s.kinds.paragraph).toMatchObject({ matched: 1, f1: 1 });
  });

  it('matches a paragraph with Dice >= 0.8, not below', () => {
    // 10 true words; 9 of them predicted: Dice = 18/19 = 0.947.
    const truth = 'one two three four five six seven eight nine ten';
    expect(scoreMarkdown('one two three four five six seven eight nine', truth).kinds.paragraph!.matched).toBe(1);
    // 4 of 10 words in common: Dice = 8/14 < 0.8.
    expect(scoreMarkdown('one two three four', truth).kinds.paragraph!.matched).toBe(0);
    // Exactly 0.8: 8 of 10 words, 10 predicted (two wrong): 16/20.
    expect(scoreMarkdown('one two three four five six seven eight x y', truth).kinds.paragraph!.matched).toBe(1);
  });

  it('matches table cells only when identical', () => {
    const s = scoreMarkdown('| alpha beta gamma delta epsilon zeta |', '| alpha beta gamma delta epsilon zeta eta |');
    expect(s.kinds.table_cell).toMatchObject({ matched: 0, f1: 0 });
  });

  it('matches one to one: a duplicate prediction is not matched twice', () => {
    const s = scoreMarkdown('- same\n- same\n- same', '- same\n- other');
    expect(s.kinds.list_item).toMatchObject({ predicted: 3, truth: 2, matched: 1 });
    expect(s.kinds.list_item!.precision).toBeCloseTo(1 / 3);
    expect(s.kinds.list_item!.recall).toBeCloseTo(1 / 2);
    expect(s.kinds.list_item!.f1).toBeCloseTo(2 / 5);
    // A fuzzy match does not take a block an identical match already took.
    const p = scoreMarkdown('a b c d e f g h i j', 'a b c d e f g h i j\n\na b c d e f g h i k');
    expect(p.kinds.paragraph).toMatchObject({ predicted: 1, truth: 2, matched: 1 });
  });

  it('takes the best fuzzy candidate, so a paragraph run into its neighbour matches neither', () => {
    const truth = 'a b c d e f g h i j\n\nk l m n o p q r s t';
    const merged = scoreMarkdown('a b c d e f g h i j k l m n o p q r s t', truth);
    expect(merged.kinds.paragraph).toMatchObject({ matched: 0, f1: 0 });
    const best = scoreMarkdown('a b c d e f g h x y\n\na b c d e f g h i y', 'a b c d e f g h i j');
    expect(best.kinds.paragraph).toMatchObject({ matched: 1, predicted: 2 });
  });

  it('does not match across kinds: a heading written as a paragraph costs both kinds', () => {
    const s = scoreMarkdown('Introduction\n\nBody text here.', '## Introduction\n\nBody text here.');
    expect(s.kinds.heading).toMatchObject({ predicted: 0, truth: 1, f1: 0 });
    expect(s.kinds.paragraph).toMatchObject({ predicted: 2, truth: 1, matched: 1 });
    expect(s.kinds.paragraph!.f1).toBeCloseTo(2 / 3);
    expect(s.blockF1).toBeCloseTo((0 + 2 / 3) / 2);
    expect(s.wordF1).toBe(1);
  });

  it('ignores separator rows and averages over the kinds present in either text only', () => {
    const s = scoreMarkdown('| a | b |\n|---|:-:|\n| c | d |\n\nExtra page 3', '| a | b |\n| --- | --- |\n| c | d |');
    expect(s.kinds.table_cell).toMatchObject({ predicted: 4, truth: 4, matched: 4, f1: 1 });
    expect(s.kinds.paragraph).toMatchObject({ predicted: 1, truth: 0, f1: 0 });
    expect(s.kinds.heading).toBeUndefined();
    expect(s.kinds.list_item).toBeUndefined();
    expect(s.blockF1).toBe(0.5);
  });

  it('computes word F1 over the word multisets, list numbers and markup aside', () => {
    const s = scoreMarkdown('1. apple apple pear', '- apple pear plum');
    // common: apple, pear = 2; predicted 3, true 3.
    expect(s.wordF1).toBeCloseTo(2 / 3);
    expect(scoreMarkdown('', 'something').wordF1).toBe(0);
    expect(scoreMarkdown('', 'something').blockF1).toBe(0);
  });

  it('scores plain-text blocks as paragraphs', () => {
    const s = scoreBlocks(plainTextBlocks('Intro\n\nA body that\nwraps.\n\n3'), markdownBlocks('# Intro\n\nA body that wraps.'));
    expect(s.kinds.paragraph).toMatchObject({ predicted: 3, truth: 1, matched: 1 });
  });

  it('keeps right-to-left words whole, marks included', () => {
    const s = scoreMarkdown('مَرْحَبًا بالعالم 2024', 'مَرْحَبًا بالعالم 2024');
    expect(s.wordF1).toBe(1);
    expect(scoreMarkdown('שלום עולם 3', 'שלום עולם 3').kinds.paragraph!.f1).toBe(1);
  });
});
