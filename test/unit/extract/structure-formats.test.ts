// The element model of the flow and office formats: which block each piece of
// text becomes (heading, list item with its level, caption, footnote, ...),
// checked on the format modules' own output.

import { describe, expect, it } from 'vitest';
import { extractPptx } from '../../../lambdas/extract/pptx.ts';
import type { FormatOutput } from '../../../lambdas/extract/types.ts';
import { makePptx, rels, XML } from '../../support/office-fixture.ts';

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';

/** Each element as [type, text, level?] for compact expectations. */
function blocks(out: FormatOutput): Array<[string, string, number?]> {
  const text = out.pages.join(out.pageSeparator);
  const starts = out.pages.map((_, i) => out.pages.slice(0, i).reduce((n, p) => n + p.length + out.pageSeparator.length, 0));
  return (out.elements ?? []).map((e) => {
    const base = e.page !== undefined ? starts[e.page]! : 0;
    const t = text.slice(base + e.start, base + e.end);
    return e.level !== undefined && e.type !== 'heading' ? [e.type, t, e.level] : [e.type, t];
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
