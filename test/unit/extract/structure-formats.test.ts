// The element model of the flow and office formats: which block each piece of
// text becomes (heading, list item with its level, caption, footnote, ...),
// checked on the format modules' own output.

import { describe, expect, it } from 'vitest';
import { extractDocx } from '../../../lambdas/extract/formats/ooxml/docx.ts';
import { extractHtml } from '../../../lambdas/extract/formats/web/html.ts';
import { extractOds, extractOdt } from '../../../lambdas/extract/formats/odf/odf.ts';
import { extractRtf } from '../../../lambdas/extract/formats/text/rtf.ts';
import { extractPptx } from '../../../lambdas/extract/formats/ooxml/pptx.ts';
import { extractXlsx } from '../../../lambdas/extract/formats/ooxml/xlsx.ts';
import type { FormatOutput } from '../../../lambdas/extract/engine/types.ts';
import { makeDocx, makeOdf, makePptx, makeXlsx, rels, w, W, XML } from '../../support/office-fixture.ts';

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';

/** Each element as [type, text, level?] for compact expectations. */
function blocks(out: FormatOutput): Array<[string, string, number?]> {
  const text = out.pages.join(out.pageSeparator);
  const starts = out.pages.map((_, i) => out.pages.slice(0, i).reduce((n, p) => n + p.length + out.pageSeparator.length, 0));
  return (out.elements ?? []).map((e) => {
    const base = e.page !== undefined ? starts[e.page]! : 0;
    // A block rendered nowhere (a figure's description) shows its own text.
    const t = e.end > e.start ? text.slice(base + e.start, base + e.end) : (e.text ?? '');
    return e.level !== undefined && e.type === 'list_item' ? [e.type, t, e.level] : [e.type, t];
  });
}

const textBox = (text: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="9" name="TextBox 9"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

describe('PPTX structure', () => {
  it('reads the slide title as a heading and body placeholder paragraphs as list items with their levels, text boxes as paragraphs', () => {
    const pptx = makePptx([
      {
        title: 'Plan',
        bullets: ['Agenda', { text: 'Detail', lvl: 1 }, { text: 'Plain line', bu: 'none' }, { text: 'Step one', bu: 'num' }, { text: 'Step two', bu: 'num' }],
        shapes: textBox('Side remark'),
      },
    ]);
    const out = extractPptx(pptx, 'markdown');
    expect(out.pages[0]).toBe('## Plan\n\n- Agenda\n  - Detail\n\nPlain line\n\n1. Step one\n2. Step two\n\nSide remark');
    expect(blocks(out)).toEqual([
      ['heading', '## Plan'],
      ['list_item', '- Agenda', 0],
      ['list_item', '  - Detail', 1],
      ['paragraph', 'Plain line'],
      ['list_item', '1. Step one', 0],
      ['list_item', '2. Step two', 0],
      ['paragraph', 'Side remark'],
    ]);
    expect(out.elements!.every((e) => e.page === 0)).toBe(true);
  });

  it('takes bullets from the layout and master: a master body style without bullets gives paragraphs, a layout list style can add them back', () => {
    const master =
      XML +
      `<p:sldMaster ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:p/></p:txBody></p:sp></p:spTree></p:cSld>` +
      '<p:txStyles><p:bodyStyle><a:lvl1pPr><a:buNone/></a:lvl1pPr><a:lvl2pPr><a:buNone/></a:lvl2pPr></p:bodyStyle></p:txStyles></p:sldMaster>';
    const layout = (withBullets: boolean) =>
      XML +
      `<p:sldLayout ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:lstStyle>${withBullets ? '<a:lvl2pPr><a:buChar char="-"/></a:lvl2pPr>' : ''}</a:lstStyle><a:p/></p:txBody></p:sp></p:spTree></p:cSld></p:sldLayout>`;
    const layoutRels = rels([{ id: 'rM', type: 'slideMaster', target: '../slideMasters/slideMaster1.xml' }]);
    const pptx = makePptx(
      [
        { title: 'Prose', bullets: ['A sentence.', { text: 'Another.', lvl: 1 }], rels: [{ id: 'rL', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }] },
        { title: 'Mixed', bullets: ['Lead-in.', { text: 'A point', lvl: 1 }], rels: [{ id: 'rL', type: 'slideLayout', target: '../slideLayouts/slideLayout2.xml' }] },
      ],
      {
        'ppt/slideMasters/slideMaster1.xml': master,
        'ppt/slideLayouts/slideLayout1.xml': layout(false),
        'ppt/slideLayouts/_rels/slideLayout1.xml.rels': layoutRels,
        'ppt/slideLayouts/slideLayout2.xml': layout(true),
        'ppt/slideLayouts/_rels/slideLayout2.xml.rels': layoutRels,
      },
    );
    const out = extractPptx(pptx, 'markdown');
    expect(out.pages).toEqual(['## Prose\n\nA sentence.\n\nAnother.', '## Mixed\n\nLead-in.\n\n  - A point']);
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'paragraph', 'paragraph', 'heading', 'paragraph', 'list_item']);
  });

  it('reads a chart: its title as a caption and its series by category as a table', () => {
    const chart =
      XML +
      `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue by region</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>` +
      ['2023', '2024']
        .map(
          (year, s) =>
            `<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>${year}</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
            '<c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>North</c:v></c:pt><c:pt idx="1"><c:v>South</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
            `<c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>${10 + s}</c:v></c:pt><c:pt idx="1"><c:v>${20 + s}</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>`,
        )
        .join('') +
      '</c:barChart><c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>EUR m</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx></c:plotArea></c:chart></c:chartSpace>';
    const frame =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Chart 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rC"/></a:graphicData></a:graphic></p:graphicFrame>';
    const pptx = makePptx([{ title: 'Results', shapes: frame, rels: [{ id: 'rC', type: 'chart', target: '../charts/chart1.xml' }] }], { 'ppt/charts/chart1.xml': chart });
    const out = extractPptx(pptx, 'markdown');
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'caption', 'paragraph', 'table']);
    expect(out.pages[0]).toContain('Revenue by region\n\nEUR m\n\n|  | 2023 | 2024 |');
    expect(out.tables![0]!.rows).toEqual([['', '2023', '2024'], ['North', '10', '11'], ['South', '20', '21']]);
    expect(out.tables![0]!.page).toBe(1);
  });

  it('reads speaker notes and comments (classic and threaded), SmartArt text and picture descriptions, but not file names as descriptions', () => {
    const classic = XML + `<p:cmLst ${P}><p:cm authorId="0"><p:text>Check this number</p:text></p:cm></p:cmLst>`;
    const modern =
      XML +
      '<p188:cmLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"><p188:cm id="{1}"><p188:txBody><a:p><a:r><a:t>Looks good</a:t></a:r></a:p></p188:txBody>' +
      '<p188:replyLst><p188:reply id="{2}"><p188:txBody><a:p><a:r><a:t>Agreed</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst></p188:cm></p188:cmLst>';
    const diagram =
      XML +
      '<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>' +
      '<dgm:pt modelId="0" type="doc"><dgm:t><a:p><a:r><a:t>ignored</a:t></a:r></a:p></dgm:t></dgm:pt>' +
      '<dgm:pt modelId="1"><dgm:t><a:p><a:r><a:t>Plan</a:t></a:r></a:p></dgm:t></dgm:pt>' +
      '<dgm:pt modelId="2" type="parTrans"/><dgm:pt modelId="3"><dgm:t><a:p><a:r><a:t>Build</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>';
    const smartArt =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Diagram"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rD" r:lo="rLo"/></a:graphicData></a:graphic></p:graphicFrame>';
    const pic = (descr: string) => `<p:pic><p:nvPicPr><p:cNvPr id="6" name="Picture" descr="${descr}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr></p:pic>`;
    const pptx = makePptx(
      [
        {
          title: 'Review',
          notes: 'Speak slowly.',
          shapes: smartArt + pic('A lighthouse at dusk') + pic('image1.png'),
          rels: [
            { id: 'rK', type: 'comments', target: '../comments/comment1.xml' },
            { id: 'rK2', type: 'comments', target: '../comments/modernComment_1.xml' },
            { id: 'rD', type: 'diagramData', target: '../diagrams/data1.xml' },
          ],
        },
      ],
      { 'ppt/comments/comment1.xml': classic, 'ppt/comments/modernComment_1.xml': modern, 'ppt/diagrams/data1.xml': diagram },
    );
    const out = extractPptx(pptx, 'text');
    expect(blocks(out)).toEqual([
      ['heading', 'Review'],
      ['paragraph', 'Plan'],
      ['paragraph', 'Build'],
      ['figure', 'A lighthouse at dusk'],
      ['paragraph', 'Notes: Speak slowly.'],
      ['paragraph', 'Comment: Check this number'],
      ['paragraph', 'Comment: Looks good'],
      ['paragraph', 'Comment: Agreed'],
    ]);
  });

  it('writes a footer placeholder once for the deck as a page footer, and never slide numbers or dates', () => {
    const ph = (type: string, text: string) =>
      `<p:sp><p:nvSpPr><p:cNvPr id="7" name="${type}"/><p:cNvSpPr/><p:nvPr><p:ph type="${type}"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const furniture = ph('ftr', 'ACME internal') + ph('sldNum', '3') + ph('dt', '1 May 2024');
    const out = extractPptx(makePptx([{ title: 'One', shapes: furniture }, { title: 'Two', shapes: furniture }]), 'text');
    expect(blocks(out)).toEqual([
      ['heading', 'One'],
      ['page_footer', 'ACME internal'],
      ['heading', 'Two'],
    ]);
  });
});

const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
const run = (t: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${t}</w:t></w:r>`;
const para = (inner: string, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${inner}</w:p>`;

describe('DOCX structure', () => {
  it('reads a text box once where the document offers it as DrawingML and as VML, and a VML-only text box', () => {
    const box = (t: string) => `<w:txbxContent>${w.p(t)}</w:txbxContent>`;
    const alternate =
      '<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="x"><wp:docPr id="1" name="Shape 1"/><a:graphic xmlns:a="y"><a:graphicData><wps:wsp xmlns:wps="z"><wps:txbx>' +
      box('Boxed text') +
      '</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:rect xmlns:v="v"><v:textbox>' +
      box('Boxed text') +
      '</v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r>';
    const vml = `<w:r><w:pict><v:shape xmlns:v="v"><v:textbox>${box('Old-style box')}</v:textbox></v:shape></w:pict></w:r>`;
    const out = extractDocx(makeDocx({ body: para(run('Anchor one.') + alternate) + para(run('Anchor two.') + vml) }), 'text');
    expect(out.pages.join('')).toBe('Anchor one.\n\nBoxed text\n\nAnchor two.\n\nOld-style box');
  });

  it('writes equations as linear text: a display equation as a formula, an inline one inside its paragraph', () => {
    const frac = '<m:f><m:num><m:r><m:t>a+b</m:t></m:r></m:num><m:den><m:r><m:t>2</m:t></m:r></m:den></m:f>';
    const sup = '<m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>';
    const sum =
      '<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub><m:r><m:t>i=1</m:t></m:r></m:sub><m:sup><m:r><m:t>n</m:t></m:r></m:sup><m:e><m:r><m:t>i</m:t></m:r></m:e></m:nary>';
    const rad = '<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/><m:e><m:r><m:t>y</m:t></m:r></m:e></m:rad>';
    const body =
      `<w:p><m:oMathPara ${M}><m:oMath>${frac}<m:r><m:t>=</m:t></m:r>${sum}</m:oMath></m:oMathPara></w:p>` +
      `<w:p>${run('The area is ')}<m:oMath ${M}>${sup}<m:r><m:t>+</m:t></m:r>${rad}</m:oMath>${run(' square metres.')}</w:p>`;
    const out = extractDocx(makeDocx({ body }), 'markdown');
    expect(blocks(out)).toEqual([
      ['formula', '$(a+b)/2=∑_(i=1)^n i$'],
      ['paragraph', 'The area is  x^2+√y  square metres.'],
    ]);
  });

  it('reads footnotes and endnotes as footnotes, and each distinct header and footer once as page header and footer', () => {
    const hdr = (t: string) => XML + `<w:hdr ${W}>${w.p(t)}</w:hdr>`;
    const notes = (kind: 'footnote' | 'endnote', t: string) =>
      XML +
      `<w:${kind}s ${W}><w:${kind} w:type="separator" w:id="-1">${w.p('----')}</w:${kind}><w:${kind} w:id="0">${w.p('sep')}</w:${kind}><w:${kind} w:id="1">${w.p(t)}</w:${kind}></w:${kind}s>`;
    const docx = makeDocx({
      body: para(run('Body text.') + '<w:r><w:footnoteReference w:id="1"/></w:r>'),
      footer: 'Page footer',
      rels: [
        { id: 'rH1', type: 'header', target: 'header2.xml' },
        { id: 'rH2', type: 'header', target: 'header3.xml' },
        { id: 'rFn', type: 'footnotes', target: 'footnotes.xml' },
        { id: 'rEn', type: 'endnotes', target: 'endnotes.xml' },
      ],
      parts: { 'word/header2.xml': hdr('Running head'), 'word/header3.xml': hdr('Running head'), 'word/footnotes.xml': notes('footnote', 'A footnote.'), 'word/endnotes.xml': notes('endnote', 'An endnote.') },
    });
    expect(blocks(extractDocx(docx, 'text'))).toEqual([
      ['page_header', 'Running head'],
      ['paragraph', 'Body text.'],
      ['footnote', 'A footnote.'],
      ['footnote', 'An endnote.'],
      ['page_footer', 'Page footer'],
    ]);
  });

  it('tells headings from lists: numbered heading styles, styles based on headings, numbering levels linked to a heading style; Title, Caption; list numbers restart per level', () => {
    const styles =
      '<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:basedOn w:val="Heading1"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Custom2"><w:name w:val="Section Head"/></w:style>';
    const abstractNums =
      '<w:abstractNum w:abstractNumId="5"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/></w:lvl></w:abstractNum>' +
      '<w:abstractNum w:abstractNumId="6"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="lowerLetter"/></w:lvl></w:abstractNum>';
    const nums = '<w:num w:numId="5"><w:abstractNumId w:val="5"/></w:num><w:num w:numId="6"><w:abstractNumId w:val="6"/></w:num>';
    const numbered = (t: string, numId: number, ilvl = 0, style?: string) =>
      para(run(t), `${style ? `<w:pStyle w:val="${style}"/>` : ''}<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
    const body = [
      w.p('The Report', 'Title'),
      numbered('Scope', 5, 0, 'Heading2'),
      w.p('Background', 'Chapter'),
      numbered('Methods', 5),
      numbered('one', 6),
      numbered('one-a', 6, 1),
      numbered('one-b', 6, 1),
      numbered('two', 6),
      numbered('two-a', 6, 1),
      w.p('Figure 1. A caption', 'Caption'),
    ].join('');
    const out = extractDocx(makeDocx({ body, styles, abstractNums, nums }), 'markdown');
    expect(out.pages.join('')).toBe(
      '# The Report\n\n## 1. Scope\n\n# Background\n\n## 2. Methods\n\n1. one\n  - a. one-a\n  - b. one-b\n2. two\n  - a. two-a\n\nFigure 1. A caption',
    );
    expect(blocks(out).map((b) => b[0])).toEqual(['title', 'heading', 'heading', 'heading', 'list_item', 'list_item', 'list_item', 'list_item', 'list_item', 'caption']);
  });

  it('finds headings made by direct formatting (clearly larger short lines, not bold ones at body size) in a document without heading styles, and typed bullets', () => {
    const body = [
      para(run('Annual Review', '<w:b/><w:sz w:val="40"/>')),
      para(run('This year went well for everyone involved, as the figures below show in detail.')),
      para(run('A.\tPURPOSE')),
      para(run('Short bold line', '<w:b/>')),
      para(run('Not a heading, it is a sentence.', '<w:b/>')),
      para(run('•\tTyped bullet')),
      para(run('- Dashed item')),
    ].join('');
    const out = extractDocx(makeDocx({ body }), 'markdown');
    expect(blocks(out)).toEqual([
      ['heading', '# Annual Review'],
      ['paragraph', 'This year went well for everyone involved, as the figures below show in detail.'],
      ['paragraph', 'A.\tPURPOSE'],
      ['paragraph', 'Short bold line'],
      ['paragraph', 'Not a heading, it is a sentence.'],
      ['list_item', '- Typed bullet', 0],
      ['list_item', '- Dashed item', 0],
    ]);
  });

  it('reads a layout table (one holding a table) and a single-cell box as the blocks in their cells, the inner table a table of its own', () => {
    const inner = w.table([
      ['Item', 'Cost'],
      ['Tea', '3'],
    ]);
    const body =
      `<w:tbl><w:tr><w:tc>${w.p('Form title', 'Heading1')}${w.p('Fill in below.')}</w:tc><w:tc>${inner}</w:tc></w:tr></w:tbl>` +
      `<w:tbl><w:tr><w:tc>${w.p('Boxed remark')}</w:tc></w:tr></w:tbl>`;
    const out = extractDocx(makeDocx({ body }), 'text');
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'paragraph', 'table', 'paragraph']);
    expect(out.tables).toEqual([{ rows: [['Item', 'Cost'], ['Tea', '3']], markdown: expect.any(String) }]);
  });

  it('writes a paragraph that starts as a list, a heading or a quote would as a paragraph in Markdown: the mark escaped, the text as typed', () => {
    const typed = ['2.\tReview each claim before the meeting.', '# of claims filed: 12', '> 5 days late'];
    const out = extractDocx(makeDocx({ body: typed.map((t) => para(run(t))).join('') }), 'markdown');
    expect(blocks(out)).toEqual([
      ['paragraph', '2\\.\tReview each claim before the meeting.'],
      ['paragraph', '\\# of claims filed: 12'],
      ['paragraph', '\\> 5 days late'],
    ]);
    expect(out.elements?.map((e) => e.text ?? '')).toEqual(typed);
    expect(blocks(extractDocx(makeDocx({ body: typed.map((t) => para(run(t))).join('') }), 'text')).map((b) => b[1])).toEqual(typed);
  });

  it('trusts heading styles where a document has them: a bold short line there stays a paragraph', () => {
    const body = [w.p('Real heading', 'Heading1'), para(run('Bold lead line', '<w:b/>')), w.p('Body.')].join('');
    expect(blocks(extractDocx(makeDocx({ body }), 'text')).map((b) => b[0])).toEqual(['heading', 'paragraph', 'paragraph']);
  });

  it('reads charts and SmartArt anchored in a paragraph, and picture descriptions', () => {
    const chart =
      XML +
      `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:lineChart><c:ser><c:tx><c:v>Units</c:v></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:lineChart></c:plotArea></c:chart></c:chartSpace>`;
    const diagram =
      XML +
      '<dgm:dataModel xmlns:dgm="d" xmlns:a="a"><dgm:ptLst><dgm:pt modelId="1"><dgm:t><a:p><a:r><a:t>Step A</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="2" type="sibTrans"><dgm:t><a:p><a:r><a:t>no</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>';
    const drawing = (inner: string, descr = '') =>
      `<w:r><w:drawing><wp:inline xmlns:wp="wp"><wp:docPr id="1" name="Object 1"${descr ? ` descr="${descr}"` : ''}/><a:graphic xmlns:a="a"><a:graphicData>${inner}</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const body =
      para(drawing('<c:chart xmlns:c="c" r:id="rC"/>')) +
      para(drawing('<dgm:relIds xmlns:dgm="d" r:dm="rD" r:lo="x" r:qs="y" r:cs="z"/>')) +
      para(drawing('<pic:pic xmlns:pic="p"/>', 'A red bicycle')) +
      para(drawing('<pic:pic xmlns:pic="p"/>', 'image3.jpeg'));
    const docx = makeDocx({
      body,
      rels: [
        { id: 'rC', type: 'chart', target: 'charts/chart1.xml' },
        { id: 'rD', type: 'diagramData', target: 'diagrams/data1.xml' },
      ],
      parts: { 'word/charts/chart1.xml': chart, 'word/diagrams/data1.xml': diagram },
    });
    expect(blocks(extractDocx(docx, 'text'))).toEqual([
      ['caption', 'Sales'],
      ['table', '\tUnits\nJan\t5'],
      ['paragraph', 'Step A'],
      ['figure', 'A red bicycle'],
    ]);
  });
});

describe('XLSX structure', () => {
  it('writes each sheet name as a heading and its used range as a table, then its charts (title, and the series a chart keeps values for as a table), text boxes and cell comments with their authors', () => {
    const xdr = 'xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
    const drawing =
      XML +
      `<xdr:wsDr ${xdr}><xdr:twoCellAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rC"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor>` +
      '<xdr:twoCellAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart r:id="rK2"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:twoCellAnchor>' +
      '<xdr:twoCellAnchor><xdr:sp><xdr:txBody><a:p><a:r><a:t>Figures unaudited</a:t></a:r></a:p></xdr:txBody></xdr:sp></xdr:twoCellAnchor></xdr:wsDr>';
    const chart =
      XML +
      `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Units per month</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser><c:tx><c:v>Units</c:v></c:tx></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`;
    // A second chart keeps its values: its series by category as a table, under its title.
    const kept = chart
      .replace('Units per month', 'Units by month')
      .replace('<c:v>Units</c:v></c:tx>', '<c:v>Units</c:v></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val>');
    const comments =
      XML +
      '<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>Ann</author></authors><commentList><comment ref="C2" authorId="0"><text><r><t>Ann:</t></r><r><t xml:space="preserve"> check this</t></r></text></comment></commentList></comments>';
    const xlsx = makeXlsx([{ name: 'Sales', rows: [[null, null], [null, null, 'Month', 'Units'], [null, null, 'Jan', 5]] }], {
      'xl/worksheets/_rels/sheet1.xml.rels': rels([
        { id: 'rD', type: 'drawing', target: '../drawings/drawing1.xml' },
        { id: 'rK', type: 'comments', target: '../comments1.xml' },
      ]),
      'xl/drawings/drawing1.xml': drawing,
      'xl/drawings/_rels/drawing1.xml.rels': rels([
        { id: 'rC', type: 'chart', target: '../charts/chart1.xml' },
        { id: 'rK2', type: 'chart', target: '../charts/chart2.xml' },
      ]),
      'xl/charts/chart1.xml': chart,
      'xl/charts/chart2.xml': kept,
      'xl/comments1.xml': comments,
    });
    const out = extractXlsx(xlsx, 'markdown');
    expect(out.pages[0]).toBe(
      '## Sales\n\n| Month | Units |\n| --- | --- |\n| Jan | 5 |\n\nUnits per month\n\nUnits by month\n\n|  | Units |\n| --- | --- |\n| Jan | 5 |\n\nFigures unaudited\n\nC2 (Ann): check this',
    );
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'table', 'caption', 'caption', 'table', 'paragraph', 'paragraph']);
    expect(out.elements!.find((e) => e.type === 'table')).toMatchObject({ page: 0, table: 0 });
  });

  it('reads a chart sheet: its name and its chart title', () => {
    const xlsx = makeXlsx([{ name: 'Data', rows: [['a']] }, { name: 'Chart1', rows: [] }], {
      'xl/worksheets/sheet2.xml': XML + '<chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><drawing r:id="rD"/></chartsheet>',
      'xl/worksheets/_rels/sheet2.xml.rels': rels([{ id: 'rD', type: 'drawing', target: '../drawings/drawing2.xml' }]),
      'xl/drawings/drawing2.xml': XML + '<xdr:wsDr xmlns:xdr="x" xmlns:c="c" xmlns:r="r"><xdr:absoluteAnchor><c:chart r:id="rC"/></xdr:absoluteAnchor></xdr:wsDr>',
      'xl/drawings/_rels/drawing2.xml.rels': rels([{ id: 'rC', type: 'chart', target: '../charts/chart2.xml' }]),
      'xl/charts/chart2.xml': XML + `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Trend</a:t></a:r></a:p></c:rich></c:tx></c:title></c:chart></c:chartSpace>`,
    });
    const out = extractXlsx(xlsx, 'text');
    expect(out.pages).toEqual(['Data\n\na', 'Chart1\n\nTrend']);
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'table', 'heading', 'caption']);
  });
});

describe('HTML structure', () => {
  const html = (s: string, mode: 'text' | 'markdown' = 'markdown') => extractHtml(new TextEncoder().encode(s), mode);

  it('nests lists by their depth, continues an ordered list from its start, and keeps a list item written in a paragraph whole', () => {
    const out = html('<ol start="3"><li><p>Third</p><ul><li>sub <b>bold</b></li></ul></li><li>Fourth<ol><li>deep</li></ol></li></ol>');
    expect(out.pages.join('')).toBe('3. Third\n  - sub bold\n4. Fourth\n  1. deep');
    expect(blocks(out)).toEqual([
      ['list_item', '3. Third', 0],
      ['list_item', '  - sub bold', 1],
      ['list_item', '4. Fourth', 0],
      ['list_item', '  1. deep', 1],
    ]);
  });

  it('reads description lists, figures with captions, table captions, preformatted code, block equations and image-only blocks', () => {
    const out = html(
      '<dl><dt>Term</dt><dd>Its definition.</dd></dl><figure><img src="a.png" alt="A chart of sales"><figcaption>Figure 1. Sales</figcaption></figure>' +
        '<table><caption>Table 2. Prices</caption><tr><th>Item</th><th>Price</th></tr><tr><td>Tea</td><td>3</td></tr></table>' +
        '<pre><code>x = 1\n  y = 2</code></pre><math display="block" alttext="E = mc^2"><mi>E</mi></math>',
      'text',
    );
    expect(blocks(out)).toEqual([
      ['list_item', 'Term', 0],
      ['list_item', 'Its definition.', 1],
      ['figure', 'A chart of sales'],
      ['caption', 'Figure 1. Sales'],
      ['caption', 'Table 2. Prices'],
      ['table', 'Item\tPrice\nTea\t3'],
      ['code', 'x = 1\n  y = 2'],
      ['formula', 'E = mc^2'],
    ]);
  });

  it('reads a layout table (one that holds tables) as the flow it lays out, with each inner table in tables; rich cells flatten to their text', () => {
    const out = html(
      '<table><tr><td><h2>Report</h2><p>Intro text.</p></td><td><table><tr><th>A</th><th>B</th></tr>' +
        '<tr><td><ul><li>one</li><li>two</li></ul></td><td>line<br>break <img alt="icon"></td></tr></table></td></tr></table>',
    );
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'paragraph', 'table']);
    expect(out.tables).toEqual([{ rows: [['A', 'B'], ['one two', 'line break icon']], markdown: expect.any(String) }]);
  });

  it("spreads colspan and rowspan so cells stay in their columns, a spanning cell's text in every position it covers", () => {
    const out = html('<table><tr><th colspan="2">Both</th><th>C</th></tr><tr><td rowspan="2">a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td></tr></table>');
    expect(out.tables![0]!.rows).toEqual([['Both', 'Both', 'C'], ['a', 'b', 'c'], ['a', 'd', 'e']]);
  });

  it('reads select options, button labels and iframe srcdoc documents; two line breaks in a row start a new paragraph', () => {
    const out = html(
      '<p>Pick one: <select><option>Red</option><optgroup label="x"><option>Blue</option></optgroup></select></p><button>Send now</button>' +
        '<iframe srcdoc="<h3>Embedded</h3><p>Inside the frame.</p>"></iframe><font>First part<br><br>Second part<br>same paragraph</font>',
      'text',
    );
    expect(blocks(out)).toEqual([
      ['paragraph', 'Pick one:'],
      ['paragraph', 'Red'],
      ['paragraph', 'Blue'],
      ['paragraph', 'Send now'],
      ['heading', 'Embedded'],
      ['paragraph', 'Inside the frame.'],
      ['paragraph', 'First part'],
      ['paragraph', 'Second part\nsame paragraph'],
    ]);
  });

  it('parses misnested markup as a browser does: an end tag inside a table leaves the table open, and the text after it is read', () => {
    const out = html(
      '<center><b>Composition</b><table border="1"></center><tr><td>C</td><td>Si</td></tr><tr><td>0.39</td><td>0.2</td></tr></table></center>' +
        '<p>Footer note.',
      'text',
    );
    expect(out.tables?.map((t) => t.rows)).toEqual([
      [
        ['C', 'Si'],
        ['0.39', '0.2'],
      ],
    ]);
    expect(blocks(out).map((b) => b[0])).toEqual(['paragraph', 'table', 'paragraph']);
  });

  it('survives elements nested far deeper than it recurses', () => {
    const deep = '<div>'.repeat(20000) + 'bottom text' + '</div>'.repeat(20000);
    expect(html(deep, 'text').pages.join('')).toBe('bottom text');
  });
});

describe('ODT structure', () => {
  const NS =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
  const automatic =
    '<office:automatic-styles><style:style style:name="P1" style:family="paragraph" style:parent-style-name="Title"/><style:style style:name="P2" style:family="paragraph" style:parent-style-name="Table"/>' +
    '<text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1"/><text:list-level-style-bullet text:level="2" text:bullet-char="•"/></text:list-style></office:automatic-styles>';
  const body =
    '<text:p text:style-name="P1">Field Guide</text:p>' +
    '<text:p>Written by <text:author-name>Ada</text:author-name> on <text:date text:date-value="2024-05-01">1 May 2024</text:date>.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>See the appendix.</text:p></text:note-body></text:note></text:p>' +
    '<text:list text:style-name="L1"><text:list-item><text:h text:outline-level="2">Numbered heading</text:h></text:list-item></text:list>' +
    '<text:list text:style-name="L1"><text:list-item><text:p>first</text:p><text:list><text:list-item><text:p>nested</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>second</text:p></text:list-item></text:list>' +
    '<text:p>Anchor<draw:frame><draw:text-box><text:p>Boxed note</text:p></draw:text-box></draw:frame></text:p>' +
    '<text:p><draw:frame><draw:image/><svg:desc>A map of the coast</svg:desc></draw:frame></text:p>' +
    '<text:p text:style-name="P2">Table 1: Tides</text:p>';
  const content = XML + `<office:document-content ${NS}>${automatic}<office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const styles =
    XML +
    `<office:document-styles ${NS}><office:styles><style:style style:name="Title" style:family="paragraph"/><style:style style:name="Caption" style:family="paragraph"/><style:style style:name="Table" style:family="paragraph" style:parent-style-name="Caption"/></office:styles>` +
    '<office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Guide header</text:p></style:header><style:footer><text:p><text:page-number>1</text:page-number></text:p></style:footer></style:master-page>' +
    '<style:master-page style:name="Other"><style:header><text:p>Guide header</text:p></style:header></style:master-page></office:master-styles></office:document-styles>';

  it('reads the title, field values, footnotes, numbered lists, headings in lists, text boxes, image descriptions, captions, and the header once', () => {
    const odt = makeOdf('text', '', undefined, { 'content.xml': content, 'styles.xml': styles });
    const out = extractOdt(odt, 'markdown');
    expect(blocks(out)).toEqual([
      ['page_header', 'Guide header'],
      ['title', '# Field Guide'],
      ['paragraph', 'Written by Ada on 1 May 2024.1'],
      ['heading', '## Numbered heading'],
      ['list_item', '1. first', 0],
      ['list_item', '  - nested', 1],
      ['list_item', '2. second', 0],
      ['paragraph', 'Anchor'],
      ['paragraph', 'Boxed note'],
      ['figure', 'A map of the coast'],
      ['caption', 'Table 1: Tides'],
      ['footnote', 'See the appendix.'],
    ]);
  });

  it('reads a flat OpenDocument text (.fodt), one XML file, rather than failing or giving its XML', () => {
    const flat =
      XML +
      `<office:document ${NS} xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" office:mimetype="application/vnd.oasis.opendocument.text"><office:meta><dc:title>Flat</dc:title></office:meta>` +
      '<office:body><office:text><text:h text:outline-level="1">Intro</text:h><text:p>Plain XML package.</text:p></office:text></office:body></office:document>';
    const out = extractOdt(new TextEncoder().encode(flat), 'markdown');
    expect(out.pages.join('')).toBe('# Intro\n\nPlain XML package.');
    expect(out.metadata.title).toBe('Flat');
  });
});

describe('ODS structure', () => {
  it('shows the value of cells written without display text', () => {
    const sheet =
      '<table:table table:name="Raw"><table:table-row><table:table-cell office:value-type="string"><text:p>n</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell office:value-type="float" office:value="42.5"/></table:table-row><table:table-row><table:table-cell office:value-type="date" office:date-value="2024-05-01"/></table:table-row></table:table>';
    expect(extractOds(makeOdf('spreadsheet', sheet), 'text').tables![0]!.rows).toEqual([['n'], ['42.5'], ['2024-05-01']]);
  });

  it('writes the sheet name as a heading, the used range as a table, then chart titles and cell comments with their cell and author', () => {
    const sheet =
      '<table:table table:name="Tides"><table:shapes><draw:frame><draw:object xlink:href="./Object 1"/></draw:frame></table:shapes>' +
      '<table:table-row><table:table-cell table:number-columns-repeated="2"/><table:table-cell><text:p>Hour</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell/><table:table-cell/><table:table-cell><office:annotation><dc:creator>Bo</dc:creator><text:p>Local time</text:p></office:annotation><text:p>6</text:p></table:table-cell></table:table-row></table:table>';
    const chart =
      XML +
      '<office:document-content xmlns:office="o" xmlns:chart="c" xmlns:text="t"><office:body><office:chart><chart:chart><chart:title><text:p>High water</text:p></chart:title><chart:plot-area><chart:axis><chart:title><text:p>Metres</text:p></chart:title></chart:axis></chart:plot-area></chart:chart></office:chart></office:body></office:document-content>';
    const ods = makeOdf('spreadsheet', sheet, undefined, { 'Object 1/content.xml': chart });
    const out = extractOds(ods, 'markdown');
    expect(out.pages[0]).toBe('## Tides\n\n| Hour |\n| --- |\n| 6 |\n\nHigh water\n\nMetres\n\nC2 (Bo): Local time');
    expect(blocks(out).map((b) => b[0])).toEqual(['heading', 'table', 'caption', 'paragraph', 'paragraph']);
  });
});

describe('E-mail bodies', () => {
  const mail = (parts: string[]) =>
    new TextEncoder().encode(
      ['From: a@example.com', 'To: b@example.com', 'Subject: Plan', 'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="b"', '', ...parts.flatMap((p) => ['--b', p]), '--b--', ''].join('\r\n'),
    );

  it('reads the HTML alternative with the HTML reader (headings, lists, tables) rather than the plain text', async () => {
    const { extract } = await import('../../../lambdas/extract/engine/extract.ts');
    const bytes = mail([
      'Content-Type: text/plain; charset=utf-8\r\n\r\nAgenda\r\n* one\r\n',
      'Content-Type: text/html; charset=utf-8\r\n\r\n<h2>Agenda</h2><ol><li>one</li><li>two</li></ol><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>',
    ]);
    const result = await extract({ bytes, filename: 'm.eml', config: { ...(await import('../../../lambdas/extract/engine/types.ts')).DEFAULT_CONFIG, output: 'markdown' } });
    expect(result.content).toContain('## Agenda\n\n1. one\n2. two\n\n| k | v |');
    expect(result.tables).toHaveLength(1);
  });

  it('cuts a plain-text body into paragraphs at blank lines, and bullet lines into list items', async () => {
    const { Blocks } = await import('../../../lambdas/extract/engine/blocks.ts');
    const { textParagraphs } = await import('../../../lambdas/extract/containers/html.ts');
    const out = new Blocks('markdown');
    textParagraphs(out, 'Hi Bob,\r\n\r\nPoints:\r\n\r\n- red\r\n- blue\r\n\r\n1. first\r\n2) second\r\n\r\nBye\r\nAnn');
    expect(out.text()).toBe('Hi Bob,\n\nPoints:\n\n- red\n- blue\n1. first\n2. second\n\nBye\nAnn');
    expect(out.elements.map((e) => e.type)).toEqual(['paragraph', 'paragraph', 'list_item', 'list_item', 'list_item', 'list_item', 'paragraph']);
  });
});

describe('RTF structure', () => {
  it('reads headings (outline levels and heading styles), bulleted and numbered list paragraphs with levels, footnotes, and the header once', () => {
    const rtf =
      '{\\rtf1\\ansi{\\stylesheet{\\s0 Normal;}{\\s1\\outlinelevel0 heading 1;}{\\s2 heading 2;}}' +
      '{\\header \\pard Running head\\par}{\\headerf \\pard Running head\\par}' +
      '\\pard\\s1 Chapter One\\par' +
      '\\pard\\s2 Section\\par' +
      '\\pard\\outlinelevel2 Sub-section\\par' +
      '\\pard Text with a note{\\super\\chftn}{\\footnote\\pard\\plain {\\super\\chftn} The note text.\\par}.\\par' +
      '{\\listtext\\f1 \\u8226?\\tab}\\pard\\ls1\\ilvl0 Bullet one\\par' +
      '{\\listtext 1.\\tab}\\pard\\ls2\\ilvl1 Numbered\\par' +
      '{\\pntext\\pard\\plain 2.\\tab}\\pard\\ls2\\ilvl1 Numbered two\\par' +
      '\\pard Plain end.\\par}';
    const out = extractRtf(new TextEncoder().encode(rtf), 'markdown');
    expect(blocks(out)).toEqual([
      ['page_header', 'Running head'],
      ['heading', '# Chapter One'],
      ['heading', '## Section'],
      ['heading', '### Sub-section'],
      ['paragraph', 'Text with a note.'],
      ['list_item', '- Bullet one', 0],
      ['list_item', '  1. Numbered', 1],
      ['list_item', '  2. Numbered two', 1],
      ['paragraph', 'Plain end.'],
      ['footnote', 'The note text.'],
    ]);
  });
});
