// DOCX as Word shows it: list and heading numbers from the numbering part,
// code set as code, checkboxes as task items, merged table cells spread
// over the grid cells they cover. Every document is built here in code.

import { describe, expect, it } from 'vitest';
import { extractDocx } from '../../../lambdas/extract/formats/ooxml/docx.ts';
import { formatNumber } from '../../../lambdas/extract/formats/ooxml/numerals.ts';
import type { FormatOutput } from '../../../lambdas/extract/engine/types.ts';
import { makeDocx, w, xmlEscape } from '../../support/office-fixture.ts';

const run = (t: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${xmlEscape(t)}</w:t></w:r>`;
const para = (inner: string, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${inner}</w:p>`;
const numPr = (numId: number, ilvl?: number) => `<w:numPr>${ilvl !== undefined ? `<w:ilvl w:val="${ilvl}"/>` : ''}<w:numId w:val="${numId}"/></w:numPr>`;
const item = (t: string, numId: number, ilvl = 0, style?: string) => para(run(t), `${style ? `<w:pStyle w:val="${style}"/>` : ''}${numPr(numId, ilvl)}`);
const level = (ilvl: number, fmt: string, text: string, extra = '') =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/>${extra}</w:lvl>`;
const abstract = (id: number, levels: string) => `<w:abstractNum w:abstractNumId="${id}">${levels}</w:abstractNum>`;
const num = (id: number, abstractId: number, overrides = '') => `<w:num w:numId="${id}"><w:abstractNumId w:val="${abstractId}"/>${overrides}</w:num>`;

/** The document's Markdown. */
const markdown = (out: FormatOutput) => out.pages.join(out.pageSeparator);
/** Each element as [type, text, level?, ordered?]. */
const elements = (out: FormatOutput) =>
  (out.elements ?? []).map((e) => {
    const text = e.text ?? markdown(out).slice(e.start, e.end);
    return e.type === 'list_item' ? [e.type, text, e.level, e.ordered] : [e.type, text];
  });

describe('DOCX numbering as Word shows it', () => {
  const outline = abstract(10, [level(0, 'decimal', '%1'), level(1, 'decimal', '%1.%2'), level(2, 'decimal', '%1.%2.%3')].join(''));

  it('writes a numbered heading with its number, from the style that numbers it and the styles based on it', () => {
    const styles =
      `<w:style w:type="paragraph" w:styleId="H1"><w:name w:val="heading 1"/><w:pPr>${numPr(10, 0)}</w:pPr></w:style>` +
      `<w:style w:type="paragraph" w:styleId="H2"><w:name w:val="heading 2"/><w:pPr>${numPr(10, 1)}</w:pPr></w:style>` +
      '<w:style w:type="paragraph" w:styleId="Annex"><w:name w:val="Annex Heading"/><w:basedOn w:val="H2"/></w:style>';
    const body = [w.p('Scope', 'H1'), w.p('Terms', 'H2'), w.p('Text.'), w.p('Symbols', 'Annex'), w.p('Methods', 'H1'), w.p('Sampling', 'H2')].join('');
    const out = extractDocx(makeDocx({ body, styles, abstractNums: outline, nums: num(10, 10) }), 'markdown');
    expect(markdown(out)).toBe('# 1 Scope\n\n## 1.1 Terms\n\nText.\n\n## 1.2 Symbols\n\n# 2 Methods\n\n## 2.1 Sampling');
    expect(out.elements?.[1]).toMatchObject({ type: 'heading', level: 2, text: '1.1 Terms' });
  });

  it('writes a plain-numbered item as an ordinal and keeps any other label in the text of a bulleted, still ordered item', () => {
    const abstracts =
      abstract(20, [level(0, 'decimal', '%1.'), level(1, 'decimal', '%1.%2.'), level(2, 'lowerLetter', '%3)'), level(3, 'lowerRoman', '%4.')].join('')) +
      abstract(21, level(0, 'upperLetter', 'Article %1:'));
    const body = [
      item('Scope', 20, 0),
      item('Terms', 20, 1),
      item('first term', 20, 2),
      item('second term', 20, 2),
      item('detail', 20, 3),
      item('detail two', 20, 3),
      item('Methods', 20, 0),
      item('Parties', 21),
      item('Payment', 21),
    ].join('');
    const out = extractDocx(makeDocx({ body, abstractNums: abstracts, nums: num(20, 20) + num(21, 21) }), 'markdown');
    expect(markdown(out)).toBe(
      ['1. Scope', '  - 1.1. Terms', '    - a) first term', '    - b) second term', '      - i. detail', '      - ii. detail two', '2. Methods', '- Article A: Parties', '- Article B: Payment'].join('\n'),
    );
    expect(elements(out)).toEqual([
      ['list_item', 'Scope', 0, true],
      ['list_item', '1.1. Terms', 1, true],
      ['list_item', 'a) first term', 2, true],
      ['list_item', 'b) second term', 2, true],
      ['list_item', 'i. detail', 3, true],
      ['list_item', 'ii. detail two', 3, true],
      ['list_item', 'Methods', 0, true],
      ['list_item', 'Article A: Parties', 0, true],
      ['list_item', 'Article B: Payment', 0, true],
    ]);
    expect(markdown(extractDocx(makeDocx({ body, abstractNums: abstracts, nums: num(20, 20) + num(21, 21) }), 'text'))).toContain('Scope\n1.1. Terms\na) first term');
  });

  it('shares counters between the lists of one abstract numbering, restarts a level where a list overriding its start is first used', () => {
    const abstracts = abstract(30, level(0, 'decimal', '%1.'));
    const nums = num(30, 30) + num(31, 30) + num(32, 30, '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>');
    const body = [item('one', 30), item('two', 30), w.p('Between.'), item('three', 31), item('again one', 32), item('again two', 32), item('again three', 30)].join('');
    expect(markdown(extractDocx(makeDocx({ body, abstractNums: abstracts, nums }), 'markdown'))).toBe(
      '1. one\n2. two\n\nBetween.\n\n3. three\n1. again one\n2. again two\n3. again three',
    );
  });

  it('shows a level not yet counted at its start and counts on from it, and restarts levels under the one used unless lvlRestart says never', () => {
    const abstracts =
      abstract(40, [level(0, 'decimal', '%1.'), level(1, 'decimal', '%1.%2.'), level(2, 'decimal', '%1.%2.%3.')].join('')) +
      abstract(41, [level(0, 'decimal', '%1.'), level(1, 'decimal', '%2)', '<w:lvlRestart w:val="0"/>')].join(''));
    const body = [item('A', 40, 0), item('A deep', 40, 2), item('A next', 40, 1), item('B', 40, 0), item('B sub', 40, 1), item('x', 41, 0), item('x1', 41, 1), item('y', 41, 0), item('y1', 41, 1)].join('');
    expect(markdown(extractDocx(makeDocx({ body, abstractNums: abstracts, nums: num(40, 40) + num(41, 41) }), 'markdown'))).toBe(
      ['1. A', '    - 1.1.1. A deep', '  - 1.2. A next', '2. B', '  - 2.1. B sub', '1. x', '  1. x1', '2. y', '  2. y1'].join('\n'),
    );
  });

  it('writes counters in the level formats: zero-padded, letters, roman, legal numbering under roman, custom pictures', () => {
    const zeroPadded =
      '<w:lvl w:ilvl="0"><w:start w:val="9"/><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="w14"><w:numFmt w:val="custom" w:format="001, 002, 003, ..."/></mc:Choice><mc:Fallback><w:numFmt w:val="decimalZero"/></mc:Fallback></mc:AlternateContent><w:lvlText w:val="%1."/></w:lvl>';
    const abstracts =
      abstract(50, zeroPadded) +
      abstract(51, [level(0, 'upperRoman', '%1.'), level(1, 'decimal', '%1.%2', '<w:isLgl/>')].join('')) +
      abstract(52, level(0, 'decimalZero', '(%1)'));
    const body = [item('nine', 50), item('ten', 50), item('Part', 51, 0), item('Part', 51, 0), item('clause', 51, 1), item('zero', 52)].join('');
    expect(elements(extractDocx(makeDocx({ body, abstractNums: abstracts, nums: num(50, 50) + num(51, 51) + num(52, 52) }), 'text')).map((e) => e[1])).toEqual([
      // "009." is a plain number: the item's ordinal, 9.
      'nine',
      'ten',
      'I. Part',
      'II. Part',
      '2.1 clause',
      '(01) zero',
    ]);
    expect(markdown(extractDocx(makeDocx({ body, abstractNums: abstracts, nums: num(50, 50) + num(51, 51) + num(52, 52) }), 'markdown'))).toMatch(/^9\. nine\n10\. ten\n- I\. Part/);
    expect([formatNumber(27, 'lowerLetter'), formatNumber(52, 'upperLetter'), formatNumber(3999, 'lowerRoman'), formatNumber(4000, 'upperRoman')]).toEqual(['aa', 'ZZ', 'mmmcmxcix', '4000']);
    expect([1, 2, 3, 11, 22, 113].map((n) => formatNumber(n, 'ordinal'))).toEqual(['1st', '2nd', '3rd', '11th', '22nd', '113th']);
    expect([1, 12, 21, 40].map((n) => formatNumber(n, 'ordinalText'))).toEqual(['First', 'Twelfth', 'Twenty-first', 'Fortieth']);
    expect(formatNumber(3, 'cardinalText')).toBe('Three');
    expect(formatNumber(3, 'hebrew2')).toBe('3');
  });

  it('reads the levels of a list that links to a list style (numStyleLink) from the numbering that style names', () => {
    const styles = `<w:style w:type="numbering" w:styleId="LegalList"><w:name w:val="Legal List"/><w:pPr>${numPr(61)}</w:pPr></w:style>`;
    const abstracts = abstract(60, `<w:styleLink w:val="LegalList"/>${level(0, 'lowerRoman', '(%1)')}`) + abstract(61, '<w:numStyleLink w:val="LegalList"/>');
    const body = [item('first', 62), item('second', 62)].join('');
    expect(markdown(extractDocx(makeDocx({ body, styles, abstractNums: abstracts, nums: num(61, 60) + num(62, 61) }), 'markdown'))).toBe('- (i) first\n- (ii) second');
  });

  it('nests items of Word\'s "List Bullet 2" and "List Number 3" styles, which number at their list\'s first level', () => {
    const styles =
      `<w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:pPr>${numPr(1)}</w:pPr></w:style>` +
      `<w:style w:type="paragraph" w:styleId="ListBullet2"><w:name w:val="List Bullet 2"/><w:pPr>${numPr(1)}</w:pPr></w:style>` +
      `<w:style w:type="paragraph" w:styleId="ListNumber3"><w:name w:val="List Number 3"/><w:pPr>${numPr(2)}</w:pPr></w:style>`;
    const body = [w.p('top', 'ListBullet'), w.p('inner', 'ListBullet2'), w.p('innermost', 'ListNumber3')].join('');
    expect(markdown(extractDocx(makeDocx({ body, styles }), 'markdown'))).toBe('- top\n  - inner\n    1. innermost');
  });
});

describe('DOCX code', () => {
  const mono = (t: string, font = 'Consolas') => para(run(t, `<w:rFonts w:ascii="${font}" w:hAnsi="${font}"/>`));
  const styles =
    '<w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="SourceReference"><w:name w:val="Source Reference"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="ListingNumber"><w:name w:val="Listing Number"/></w:style>';

  it('joins paragraphs in a code style into one code block, and keeps "Source Reference" and "Listing Number" paragraphs as prose', () => {
    const body = [w.p('import sys', 'SourceCode'), w.p('print(sys.argv)', 'SourceCode'), w.p('See the original source.', 'SourceReference'), w.p('Listing 3.2', 'ListingNumber')].join('');
    const out = extractDocx(makeDocx({ body, styles }), 'markdown');
    expect(markdown(out)).toBe('```\nimport sys\nprint(sys.argv)\n```\n\nSee the original source.\n\nListing 3.2');
    expect(elements(out)).toEqual([
      ['code', 'import sys\nprint(sys.argv)'],
      ['paragraph', 'See the original source.'],
      ['paragraph', 'Listing 3.2'],
    ]);
  });

  it('reads monospaced lines that read as code as one block with their indentation and blank lines, and Courier prose as prose', () => {
    const body = [
      w.p('Fibonacci:'),
      mono('def fib(n):'),
      mono('    a, b = 0, 1'),
      para(''),
      mono('    for _ in range(n):'),
      mono('        a, b = b, a + b'),
      mono('    return a'),
      mono('This memo is set in a typewriter face for a vintage look and feel throughout.', 'Courier New'),
      para(run('Call the ') + run('printf', '<w:rFonts w:ascii="Consolas"/>') + run(' function.')),
    ].join('');
    const out = extractDocx(makeDocx({ body }), 'text');
    expect(elements(out)).toEqual([
      ['paragraph', 'Fibonacci:'],
      ['code', 'def fib(n):\n    a, b = 0, 1\n\n    for _ in range(n):\n        a, b = b, a + b\n    return a'],
      ['paragraph', 'This memo is set in a typewriter face for a vintage look and feel throughout.'],
      ['paragraph', 'Call the printf function.'],
    ]);
  });

  it('takes the monospaced font from the paragraph style or a character style, and a single SQL line as code', () => {
    const fonts =
      '<w:style w:type="paragraph" w:styleId="Typed"><w:name w:val="Typed"/><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr></w:style>' +
      '<w:style w:type="character" w:styleId="CodeChar"><w:name w:val="Code Char"/><w:rPr><w:rFonts w:ascii="Menlo"/></w:rPr></w:style>';
    const body = [
      w.p('SELECT * FROM users WHERE active = 1;', 'Typed'),
      w.p('Prose between.'),
      para(run('x := y + 1', '<w:rStyle w:val="CodeChar"/>')),
      // A typewriter look in a proportional face is no code font.
      para(run('total = sum(items);', '<w:rFonts w:ascii="American Typewriter"/>')),
    ].join('');
    expect(elements(extractDocx(makeDocx({ body, styles: fonts }), 'text'))).toEqual([
      ['code', 'SELECT * FROM users WHERE active = 1;'],
      ['paragraph', 'Prose between.'],
      ['code', 'x := y + 1'],
      ['paragraph', 'total = sum(items);'],
    ]);
  });
});

describe('DOCX checkboxes', () => {
  const control = (checked: boolean) =>
    `<w:sdt><w:sdtPr><w14:checkbox xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"><w14:checked w14:val="${checked ? 1 : 0}"/></w14:checkbox></w:sdtPr><w:sdtContent>${run(checked ? '☐' : '☒')}</w:sdtContent></w:sdt>`;
  const legacy = (checked: boolean) =>
    `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Check1"/><w:checkBox><w:sizeAuto/><w:default w:val="0"/>${checked ? '<w:checked/>' : ''}</w:checkBox></w:ffData></w:fldChar></w:r><w:r><w:instrText> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

  it('reads a paragraph opening with a checkbox as a task-list item, by the control\'s state rather than its stale glyph', () => {
    const body = [
      w.p('Tasks before release:'),
      para(control(true) + run(' Design')),
      para(legacy(false) + run(' Documentation')),
      para(legacy(true) + run(' Review')),
      para(run('☑ Typed box')),
      para('<w:r><w:sym w:font="Wingdings" w:char="F0A8"/></w:r>' + run(' Symbol box')),
    ].join('');
    const md = extractDocx(makeDocx({ body }), 'markdown');
    expect(markdown(md)).toBe('Tasks before release:\n\n- [x] Design\n- [ ] Documentation\n- [x] Review\n- [x] Typed box\n- [ ] Symbol box');
    expect(elements(md).slice(1)).toEqual([
      ['list_item', '☒ Design', 0, false],
      ['list_item', '☐ Documentation', 0, false],
      ['list_item', '☒ Review', 0, false],
      ['list_item', '☑ Typed box', 0, false],
      ['list_item', '☐ Symbol box', 0, false],
    ]);
    expect(markdown(extractDocx(makeDocx({ body }), 'text'))).toBe('Tasks before release:\n\n☒ Design\n☐ Documentation\n☒ Review\n☑ Typed box\n☐ Symbol box');
  });

  it('keeps checkboxes inline in a table cell', () => {
    const cell = (inner: string) => `<w:tc>${inner}</w:tc>`;
    const body = `<w:tbl><w:tr>${cell(w.p('Drinks'))}${cell(w.p('Chosen'))}</w:tr><w:tr>${cell(w.p('Tea'))}${cell(para(control(false) + run(' Tea')) + para(control(true) + run(' Coffee')))}</w:tr></w:tbl>`;
    expect(extractDocx(makeDocx({ body }), 'markdown').tables?.[0]?.rows).toEqual([
      ['Drinks', 'Chosen'],
      ['Tea', '☐ Tea ☒ Coffee'],
    ]);
  });
});

describe('DOCX merged table cells', () => {
  it('repeats a merged cell\'s text in every grid cell it covers, across (gridSpan) and down (vMerge), after skipped grid columns', () => {
    const tc = (t: string, props = '') => `<w:tc>${props ? `<w:tcPr>${props}</w:tcPr>` : ''}${w.p(t)}</w:tc>`;
    const body =
      '<w:tbl>' +
      `<w:tr>${tc('Region')}${tc('Sales', '<w:gridSpan w:val="2"/>')}</w:tr>` +
      `<w:tr>${tc('North', '<w:vMerge w:val="restart"/>')}${tc('Q1')}${tc('10')}</w:tr>` +
      `<w:tr>${tc('', '<w:vMerge/>')}${tc('Q2')}${tc('12')}</w:tr>` +
      `<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>${tc('Total', '<w:gridSpan w:val="2"/><w:vMerge w:val="restart"/>')}</w:tr>` +
      `<w:tr>${tc('South')}${tc('', '<w:gridSpan w:val="2"/><w:vMerge/>')}</w:tr>` +
      '</w:tbl>';
    expect(extractDocx(makeDocx({ body }), 'text').tables?.[0]?.rows).toEqual([
      ['Region', 'Sales', 'Sales'],
      ['North', 'Q1', '10'],
      ['North', 'Q2', '12'],
      ['', 'Total', 'Total'],
      ['South', 'Total', 'Total'],
    ]);
  });
});
