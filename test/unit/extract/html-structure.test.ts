// How an HTML page's tables, lists and code, and a PPTX deck's merged table
// cells and review comments, come out as elements: which table is data and
// which lays out the page, spanning cells, description lists, list items
// written in blocks, and who wrote each comment.

import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../../lambdas/extract/formats/web/html.ts';
import { extractPptx } from '../../../lambdas/extract/formats/ooxml/pptx.ts';
import type { FormatOutput } from '../../../lambdas/extract/engine/types.ts';
import { makePptx, rels, XML } from '../../support/office-fixture.ts';

const html = (s: string, mode: 'text' | 'markdown' = 'text') => extractHtml(new TextEncoder().encode(s), mode);

/** Each element as [type, text, level?]. */
function blocks(out: FormatOutput): Array<[string, string, number?]> {
  const text = out.pages.join(out.pageSeparator);
  return (out.elements ?? []).map((e) => {
    const t = e.end > e.start ? text.slice(e.start, e.end) : (e.text ?? '');
    return e.type === 'list_item' ? [e.type, t, e.level] : [e.type, t];
  });
}

const kinds = (out: FormatOutput) => (out.elements ?? []).map((e) => e.type);

describe('HTML tables: data or layout', () => {
  it('keeps a data table whose cell holds a small table as its whole as a grid, the inner table written into that cell', () => {
    const out = html(
      '<table><tr><th>Region</th><th>Sales</th></tr>' +
        '<tr><td>North</td><td><table><tr><td>Q1</td><td>10</td></tr><tr><td>Q2</td><td>12</td></tr></table></td></tr>' +
        '<tr><td>South</td><td>7</td></tr></table>',
    );
    expect(out.tables!.map((t) => t.rows)).toEqual([
      [
        ['Region', 'Sales'],
        ['North', 'Q1 10 Q2 12'],
        ['South', '7'],
      ],
    ]);
    expect(kinds(out)).toEqual(['table']);
  });

  it('keeps a grid whose cells hold a label set as a heading, a short list or a line break as data', () => {
    const out = html('<table><tr><td><h3>Basic</h3></td><td><h3>Pro</h3></td></tr><tr><td><ul><li>1 user</li><li>1 GB</li></ul></td><td>10 users<br>50 GB</td></tr></table>');
    expect(out.tables!.map((t) => t.rows)).toEqual([
      [
        ['Basic', 'Pro'],
        ['1 user 1 GB', '10 users 50 GB'],
      ],
    ]);
  });

  it('keeps one row of single values (a box and its label) as a table', () => {
    const out = html('<table><tr><td><p>☐</p></td><td><p>Transition report</p></td></tr></table>');
    expect(out.tables!.map((t) => t.rows)).toEqual([[['☐', 'Transition report']]]);
  });

  it('reads a table as the page it lays out where a nested table shares its cell, or spans a row of its own, or is half blank', () => {
    const beside = html('<table><tr><td>Menu</td><td>News</td></tr><tr><td>Intro text<table><tr><td>A</td><td>B</td></tr><tr><td>1</td><td>2</td></tr></table></td><td>More</td></tr></table>');
    expect(kinds(beside)).toEqual(['paragraph', 'paragraph', 'paragraph', 'table', 'paragraph']);
    expect(beside.tables!.map((t) => t.rows)).toEqual([
      [
        ['A', 'B'],
        ['1', '2'],
      ],
    ]);
    const band = html(
      '<table><tr><td>Topic</td><td>Budget</td></tr><tr><td>Time</td><td>Noon</td></tr><tr><td colspan="2"><table><tr><td>Join</td><td>Now</td></tr></table></td></tr></table>',
    );
    expect(kinds(band)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'table']);
    const button = html('<table><tr><td>Topic</td><td>Budget</td></tr><tr><td>Time</td><td><table><tr><td>&nbsp;</td><td>Start</td><td> </td></tr></table></td></tr></table>');
    expect(kinds(button)).toEqual(['paragraph', 'paragraph', 'paragraph', 'table']);
  });

  it('reads a table as the page it lays out where its cells hold passages, navigation, or one row of headed columns', () => {
    const passage = 'This paragraph runs on for a while, as an article does, telling the reader about the things the page is about.';
    const passages = html(`<table><tr><td><p>${passage}</p><p>${passage}</p></td><td>Side</td></tr><tr><td>Foot</td><td>Note</td></tr></table>`);
    expect(kinds(passages)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph']);
    const nav = html('<table><tr><td><nav><a>Home</a> <a>About</a></nav></td><td>Welcome</td></tr><tr><td>x</td><td>y</td></tr></table>');
    expect(nav.tables).toEqual([]);
    const columns = html('<table><tr><td><h2>News</h2><p>Today.</p></td><td>Sidebar</td></tr></table>');
    expect(blocks(columns)).toEqual([
      ['heading', 'News'],
      ['paragraph', 'Today.'],
      ['paragraph', 'Sidebar'],
    ]);
  });
});

describe('HTML table spans', () => {
  it('repeats a spanning cell in every row and column it covers, and leaves out a row that only opens spanning cells', () => {
    const out = html(
      '<table><tr><th>Year</th><th>Quarter</th><th>Month</th><th>Revenue</th></tr>' +
        '<tr><th rowspan="4">2025</th><th rowspan="3">Q1</th></tr>' +
        '<tr><td>January</td><td>134</td></tr><tr><td>February</td><td>150</td></tr>' +
        '<tr><td colspan="2">Q2 not reported</td></tr></table>',
    );
    expect(out.tables![0]!.rows).toEqual([
      ['Year', 'Quarter', 'Month', 'Revenue'],
      ['2025', 'Q1', 'January', '134'],
      ['2025', 'Q1', 'February', '150'],
      ['2025', 'Q2 not reported', 'Q2 not reported', ''],
    ]);
  });
});

describe('HTML lists', () => {
  it('reads a description list as a list: terms at its level, descriptions one deeper, nested lists deeper still', () => {
    const out = html(
      '<dl><dt>Coffee</dt><dd>Black <em>hot</em> drink</dd><dd>Bitter</dd><dt>Water</dt>' +
        '<dt>Tea</dt><dd><dl><dt>Green</dt><dd>Unfermented</dd></dl></dd><dd>Often with milk<dl><dt>Chai</dt></dl></dd></dl>',
      'markdown',
    );
    expect(out.pages.join('')).toBe('- Coffee\n  - Black hot drink\n  - Bitter\n- Water\n- Tea\n  - Green\n    - Unfermented\n  - Often with milk\n    - Chai');
    expect(blocks(out).map((b) => b[2])).toEqual([0, 1, 1, 0, 0, 1, 2, 1, 2]);
  });

  it('nests a description list in a list item under it, a description without a term at the list level', () => {
    const out = html('<ol><li>Step one <img src="a.png"> <dl><dd>Note text</dd></dl></li><li>Step two</li></ol>', 'markdown');
    expect(out.pages.join('')).toBe('1. Step one\n  - Note text\n2. Step two');
  });

  it('keeps a list item whole where its text is written in blocks inside a link, with a button beside it', () => {
    const out = html(
      '<ul><li><a href="#a"><div><span>1</span> <span>Etymology</span></div></a></li>' +
        '<li><a href="#b"><div><span>2</span> <span>Behaviour</span></div></a><button>Toggle</button><ul><li><a href="#c"><div>2.1 Feeding</div></a></li></ul></li>' +
        '<li><div><p>First block</p><p>Second block</p></div></li></ul>',
    );
    expect(blocks(out)).toEqual([
      ['list_item', '1 Etymology', 0],
      ['list_item', '2 Behaviour Toggle', 0],
      ['list_item', '2.1 Feeding', 1],
      ['list_item', 'First block Second block', 0],
    ]);
  });
});

describe('HTML code', () => {
  it('writes a code block without the indentation all its lines share and without blank lines around it', () => {
    const out = html('<ul><li>Run:<pre><code>\n      $ make\n        build done  \n\n    </code></pre></li></ul>');
    expect(blocks(out)).toEqual([
      ['list_item', 'Run:', 0],
      ['code', '$ make\n  build done'],
    ]);
  });
});

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

describe('PPTX tables', () => {
  it('repeats a merged cell in every grid cell it covers (gridSpan with hMerge, rowSpan with vMerge)', () => {
    const tc = (text: string, attrs = '') => `<a:tc${attrs}><a:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></a:txBody></a:tc>`;
    const table =
      '<p:graphicFrame><a:graphic><a:graphicData><a:tbl>' +
      `<a:tr>${tc('')}${tc('Class1', ' gridSpan="2"')}${tc('', ' hMerge="1"')}${tc('Other')}</a:tr>` +
      `<a:tr>${tc('R1', ' rowSpan="2"')}${tc('True')}${tc('False')}${tc('Kept', ' hMerge="0"')}</a:tr>` +
      `<a:tr>${tc('', ' vMerge="1"')}${tc('False')}${tc('True')}${tc('x')}</a:tr>` +
      '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';
    const out = extractPptx(makePptx([{ title: 'Grid', shapes: table }]), 'text');
    expect(out.tables![0]!.rows).toEqual([
      ['', 'Class1', 'Class1', 'Other'],
      ['R1', 'True', 'False', 'Kept'],
      ['R1', 'False', 'True', 'x'],
    ]);
  });
});

describe('PPTX comments', () => {
  it("names each classic comment's author and reads a reply after the comment it answers", () => {
    const threading = (authorId: string, idx: string) =>
      `<p:extLst><p:ext uri="{C676402C-5697-4E1C-873F-D02D1690AC5C}"><p15:threadingInfo xmlns:p15="http://schemas.microsoft.com/office/powerpoint/2012/main"><p15:parentCm authorId="${authorId}" idx="${idx}"/></p15:threadingInfo></p:ext></p:extLst>`;
    const comments =
      XML +
      `<p:cmLst ${P}><p:cm authorId="0" idx="1"><p:text>Check this number</p:text></p:cm>` +
      '<p:cm authorId="1" idx="1"><p:text>Looks fine</p:text></p:cm>' +
      `<p:cm authorId="1" idx="2"><p:text>It is from the audit</p:text>${threading('0', '1')}</p:cm></p:cmLst>`;
    const authors = XML + `<p:cmAuthorLst ${P}><p:cmAuthor id="0" name="Ann Lee" initials="AL"/><p:cmAuthor id="1" name="Bo Chen" initials="BC"/></p:cmAuthorLst>`;
    const pptx = makePptx([{ title: 'Review', rels: [{ id: 'rK', type: 'comments', target: '../comments/comment1.xml' }] }], {
      'ppt/comments/comment1.xml': comments,
      'ppt/commentAuthors.xml': authors,
      'ppt/_rels/presentation.xml.rels': rels([
        { id: 'rSl0', type: 'slide', target: 'slides/slide1.xml' },
        { id: 'rA', type: 'commentAuthors', target: 'commentAuthors.xml' },
      ]),
    });
    expect(extractPptx(pptx, 'markdown').pages[0]).toBe(
      '## Review\n\n**Comment by Ann Lee:** Check this number\n\n**Comment by Bo Chen:** It is from the audit\n\n**Comment by Bo Chen:** Looks fine',
    );
  });

  it('names the authors of modern threaded comments and their replies from the authors part', () => {
    const modern =
      XML +
      '<p188:cmLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main">' +
      '<p188:cm id="{C1}" authorId="{A1}"><p188:replyLst><p188:reply id="{R1}" authorId="{A2}"><p188:txBody><a:p><a:r><a:t>Agreed</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst>' +
      '<p188:txBody><a:p><a:r><a:t>Looks good</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>';
    const authors =
      XML +
      '<p188:authorLst xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"><p188:author id="{A1}" name="Ann Lee" initials="AL" userId="ann" providerId="None"/>' +
      '<p188:author id="{A2}" name="Bo Chen" initials="BC" userId="bo" providerId="None"/></p188:authorLst>';
    const pptx = makePptx([{ title: 'Review', rels: [{ id: 'rK', type: 'comments', target: '../comments/modernComment_100_1.xml' }] }], {
      'ppt/comments/modernComment_100_1.xml': modern,
      'ppt/authors.xml': authors,
    });
    const out = extractPptx(pptx, 'text');
    expect(out.pages[0]).toBe('Review\n\nComment by Ann Lee: Looks good\n\nComment by Bo Chen: Agreed');
  });
});
