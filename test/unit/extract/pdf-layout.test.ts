// Layout analysis of PDFs: paragraphs, headings, lists, running headers and
// footers, columns, figures and captions, read from PDFs made here.

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { assemblePdf, layoutPdf, pdfString, taggedPdf, type PlacedText } from '../../support/pdf-fixture.ts';

const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };

/** Lines of 10-point body text from `y` down, 12 points apart. */
function lines(x: number, y: number, texts: string[], extra: Partial<PlacedText> = {}): PlacedText[] {
  return texts.map((text, i) => ({ x, y: y - i * 12, text, ...extra }));
}

/**
 * A one-page PDF of raw content: Helvetica as /F1 (and the Symbol font, or the font `symbol` names, as /F2), paths drawn as
 * written; US Letter unless `box` says otherwise, cropped to `crop`, shown turned by `rotate`.
 */
function drawnPdf(content: string, box = '0 0 612 792', page: { crop?: string; rotate?: number; symbol?: boolean | string } = {}): Uint8Array {
  // /F2: the Symbol font, or the font `symbol` names.
  const second = page.symbol === true ? 'Symbol' : page.symbol;
  const fonts = second ? '/F1 3 0 R /F2 6 0 R' : '/F1 3 0 R';
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [${box}]${page.crop ? ` /CropBox [${page.crop}]` : ''}${page.rotate ? ` /Rotate ${page.rotate}` : ''} /Resources << /Font << ${fonts} >> >> /Contents 5 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...(second ? [`<< /Type /Font /Subtype /Type1 /BaseFont /${second} >>`] : []),
  ]);
}

/** `text` at (x, y) in 10-point Helvetica. */
const textAt = (x: number, y: number, text: string) => `BT /F1 10 Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`;

/** A table's cell texts row by row: each row's y, then a text per column set at that column's x ('' for none). */
const cellsAt = (xs: number[], rows: Array<[number, ...string[]]>) => rows.flatMap(([y, ...texts]) => texts.flatMap((t, c) => (t ? [textAt(xs[c]!, y, t)] : [])));

/** A contents page's chapter line (bold, a step larger) and an entry under it, set in. */
const chapter = (y: number, text: string): PlacedText => ({ x: 72, y, text, bold: true, size: 12 });
const entry = (y: number, text: string): PlacedText => ({ x: 84, y, text });
/** The headings and the title of a result, with their pages. */
const headingsOf = (result: { elements?: Array<{ type: string; page: number; text: string }> }) =>
  result.elements!.filter((e) => e.type === 'heading' || e.type === 'title').map((e) => [e.page, e.text]);

const LONG_1 = 'The quick survey of the northern districts found that most households relied on';
const LONG_2 = 'wells dug before the war, and that the water table had fallen by a third in the';
const LONG_3 = 'last decade, which the committee took to be the main cause of the shortage.';

describe('PDF layout analysis', () => {
  it('writes a paragraph that opens with a year and a stop as a paragraph in Markdown, its stop escaped', async () => {
    const texts = lines(72, 700, ['1999. The council met twice that year and agreed on the budget for the', 'northern wells, which the committee had asked for since the drought.']);
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'year.pdf', config: markdown });
    expect(result.content).toBe('1999\\. The council met twice that year and agreed on the budget for the northern wells, which the committee had asked for since the drought.');
    expect(result.elements?.map((e) => [e.type, e.text])).toEqual([['paragraph', '1999. The council met twice that year and agreed on the budget for the northern wells, which the committee had asked for since the drought.']]);
  });

  it('joins the lines of a paragraph, repairs a word hyphenated across a line break, and marks headings by size and weight with levels', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Water in the North', size: 18, bold: true },
          { x: 72, y: 690, text: 'Background', size: 14, bold: true },
          ...lines(72, 668, [LONG_1, LONG_2, LONG_3]),
          ...lines(72, 620, ['A second paragraph begins here and describes the experi-', 'ment that followed, in which every well was measured.']),
          { x: 72, y: 580, text: '2.1 Method', bold: true },
          ...lines(72, 562, ['Each well was measured twice, in spring and in autumn.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'report.pdf', config: markdown });
    expect(result.content).toBe(
      [
        '# Water in the North',
        '## Background',
        `${LONG_1} ${LONG_2} ${LONG_3}`,
        'A second paragraph begins here and describes the experiment that followed, in which every well was measured.',
        '### 2.1 Method',
        'Each well was measured twice, in spring and in autumn.',
      ].join('\n\n'),
    );
    const elements = result.elements!;
    expect(elements.map((e) => [e.type, e.level])).toEqual([
      ['title', 1],
      ['heading', 2],
      ['paragraph', undefined],
      ['paragraph', undefined],
      ['heading', 3],
      ['paragraph', undefined],
    ]);
    // Offsets point at each block's rendering in content; text is the block's own, without Markdown.
    for (const e of elements) expect([...result.content].slice(e.char_start, e.char_end).join('')).toContain(e.text);
    expect(elements[1]!.text).toBe('Background');
    // Boxes are in PDF points from the top-left corner.
    const [x0, y0, x1, y1] = elements[0]!.bbox!;
    expect(x0).toBeCloseTo(72, 0);
    expect(y0).toBeGreaterThan(792 - 720 - 18);
    expect(y1).toBeLessThan(792 - 720 + 8);
    expect(x1).toBeGreaterThan(200);
    expect(result.metadata.page_sizes).toEqual([{ page: 1, width: 612, height: 792 }]);

    const text = await extract({ bytes, filename: 'report.pdf' });
    expect(text.content.split('\n\n')[2]).toBe(`${LONG_1} ${LONG_2} ${LONG_3}`);
  });

  it('takes a numbered line set a step larger in another typeface for a heading over its paragraph, not a list item the paragraph runs on in; numbered lines in the body\'s face and size stay items', async () => {
    // A report's "(1) ..." subheadings: half a point larger than the body and in a sans where the body is serif.
    const body = (y: number, texts: string[]) => texts.map((text, i) => ({ x: i === 0 ? 82 : 72, y: y - i * 14, text, size: 11, serif: true }));
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: '(1) Scope of the survey', size: 11.5 },
          ...body(702, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 640, text: '(2) Wells and pumps', size: 11.5 },
          ...body(622, [LONG_1, LONG_2, LONG_3]),
          ...body(570, ['The survey asked three questions of every household in the district:']),
          { x: 72, y: 552, text: '1) where its water came from, and at what cost;', size: 11, serif: true },
          { x: 72, y: 538, text: '2) how far it walked to fetch it in the dry season.', size: 11, serif: true },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'report.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text.slice(0, 30)])).toEqual([
      ['heading', '(1) Scope of the survey'],
      ['paragraph', LONG_1.slice(0, 30)],
      ['heading', '(2) Wells and pumps'],
      ['paragraph', LONG_1.slice(0, 30)],
      ['paragraph', 'The survey asked three questio'],
      ['list_item', 'where its water came from, and'],
      ['list_item', 'how far it walked to fetch it '],
    ]);
  });

  it('reads a chapter title that wraps under its first word, its label hanging before it, as one heading, and a bold "NOTE 2. POLICIES" as a heading: a stop after a number is a label\'s, not a sentence\'s end', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          // "Chapter 1." set small before the title; the title's second line starts under "Securing".
          { x: 72, y: 700, text: 'Chapter 1.', size: 12, bold: true },
          { x: 140, y: 700, text: 'Securing and protecting the', size: 26, bold: true },
          { x: 140, y: 670, text: 'district records', size: 26, bold: true },
          ...lines(140, 630, [LONG_1, LONG_2, LONG_3]),
          { x: 140, y: 580, text: 'NOTE 2. SIGNIFICANT ACCOUNTING POLICIES', bold: true },
          ...lines(140, 562, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'chapter.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text.slice(0, 50)])).toEqual([
      ['title', 'Chapter 1. Securing and protecting the district re'],
      ['paragraph', LONG_1.slice(0, 50)],
      ['heading', 'NOTE 2. SIGNIFICANT ACCOUNTING POLICIES'],
      ['paragraph', LONG_1.slice(0, 50)],
    ]);
  });

  it('reads the captions of two pictures side by side on one baseline as two captions, not one line', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, [LONG_1.slice(0, 40), LONG_2.slice(0, 40)]),
          ...lines(320, 716, [LONG_2.slice(0, 40), LONG_3.slice(0, 40)]),
          { x: 72, y: 500, text: 'Figure 7-26. Self-locking nuts.', size: 9 },
          { x: 320, y: 500, text: 'Figure 7-27. A stainless steel nut.', size: 9 },
        ],
        images: [
          { x: 72, y: 520, width: 200, height: 150 },
          { x: 320, y: 520, width: 200, height: 150 },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'figures.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'caption').map((e) => e.text)).toEqual(['Figure 7-26. Self-locking nuts.', 'Figure 7-27. A stainless steel nut.']);
  });

  it('reads a bold line of labels set columns apart (a table\'s header row left without its table) as a paragraph, not a heading; a number a tab before its title is still a heading', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Supplier', bold: true },
          { x: 200, y: 720, text: 'Concentration', bold: true },
          { x: 330, y: 720, text: 'Share', bold: true },
          { x: 450, y: 720, text: 'Price', bold: true },
          ...lines(72, 700, [LONG_1, LONG_2]),
          { x: 72, y: 660, text: '2.1', bold: true },
          { x: 110, y: 660, text: 'Wells and pumps', bold: true },
          ...lines(72, 640, [LONG_1, LONG_2]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'labels.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text.slice(0, 30)])).toEqual([
      ['paragraph', 'Supplier Concentration Share P'],
      ['paragraph', LONG_1.slice(0, 30)],
      ['heading', '2.1 Wells and pumps'],
      ['paragraph', LONG_1.slice(0, 30)],
    ]);
  });

  it('ranks a "(1)" heading one level under the numbered heading before it ("2 Wells" over "(1) Pumps")', async () => {
    const body = (y: number) => [LONG_1, LONG_2].map((text, i) => ({ x: 72, y: y - i * 14, text, size: 11, serif: true }));
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: '1 Background', size: 14, bold: true },
          ...body(700),
          { x: 72, y: 660, text: '2 Wells', size: 14, bold: true },
          { x: 72, y: 640, text: '(1) Pumps and their upkeep', size: 11.5 },
          ...body(622),
          // A style between the two: by rank alone "(1)" would be a level further down.
          { x: 72, y: 580, text: 'Notes on method', size: 12.5, bold: true },
          ...body(562),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'levels.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => [e.text, e.level])).toEqual([
      ['1 Background', 1],
      ['2 Wells', 1],
      ['(1) Pumps and their upkeep', 2],
      ['Notes on method', 2],
    ]);
  });

  it('keeps a plain line that hangs under a wrapped bold item\'s text in the item (a question and its "(Please select all that apply)"), but not the paragraph under a one-line bold item', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: '27.', bold: true },
          { x: 90, y: 720, text: 'If your country allows legal aid services through student law clinics, what', bold: true },
          { x: 90, y: 708, text: 'type of legal aid services is a student authorized to undertake?', bold: true },
          { x: 90, y: 696, text: '(Please select all that apply)' },
          { x: 72, y: 670, text: '28.', bold: true },
          { x: 90, y: 670, text: 'Scope of the survey', bold: true },
          ...lines(90, 658, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'questions.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['list_item', 'If your country allows legal aid services through student law clinics, what type of legal aid services is a student authorized to undertake? (Please select all that apply)'],
      ['heading', '28. Scope of the survey'],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
    ]);
  });

  it('runs a paragraph on over a line left short by a web address too long for the room after it, and joins the address again', async () => {
    const bytes = layoutPdf([
      {
        texts: lines(72, 720, [
          'The committee keeps the minutes of every meeting and',
          'publishes them a week later. You may examine them on',
          'the internet at https://',
          'www.committee-records.example.org/minutes, or in',
          "person at the clerk's office on weekdays.",
        ]),
      },
    ]);
    const result = await extract({ bytes, filename: 'minutes.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      [
        'paragraph',
        "The committee keeps the minutes of every meeting and publishes them a week later. You may examine them on the internet at https://www.committee-records.example.org/minutes, or in person at the clerk's office on weekdays.",
      ],
    ]);
  });

  it('opens a paragraph at a run-in bold lead after a sentence\'s end, and runs a line whose small bold lead ended inside it on into the plain lines under it', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, ['The agency proposes to replace the directive issued in', 'the spring with one that covers the newer models.']),
          { x: 72, y: 696, text: 'DATES:', bold: true, size: 8 },
          { x: 104, y: 696, text: 'Comments must reach the agency by the first of' },
          ...lines(72, 684, ['September, and late comments are read if time allows.']),
          { x: 72, y: 672, text: 'FOR FURTHER INFORMATION CONTACT:', bold: true, size: 8 },
          { x: 242, y: 672, text: 'Ian Won, Manager, the' },
          ...lines(72, 660, [
            'Seattle Branch, 2200 South 216th St., Des Moines, WA',
            '98198; phone: 206-231-3500; e-mail: 9-FAA-Inquiry@',
            'faa.gov; fax: 206-231-3501; docket number FAA-2020-',
            '0686, on weekdays.',
          ]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'notice.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', 'The agency proposes to replace the directive issued in the spring with one that covers the newer models.'],
      ['paragraph', 'DATES: Comments must reach the agency by the first of September, and late comments are read if time allows.'],
      [
        'paragraph',
        'FOR FURTHER INFORMATION CONTACT: Ian Won, Manager, the Seattle Branch, 2200 South 216th St., Des Moines, WA 98198; phone: 206-231-3500; e-mail: 9-FAA-Inquiry@faa.gov; fax: 206-231-3501; docket number FAA-2020-0686, on weekdays.',
      ],
    ]);
  });

  it('reads small print at a column\'s foot (a paper\'s permission notice) after the page\'s flow, so the paragraph over it runs on into the next column', async () => {
    const left = [
      'Dynamic languages such as JavaScript and Ruby are',
      'popular since they are expressive, accessible to',
      'people who are not experts, and make it as easy to',
      'deploy a program as to distribute a source file. It',
      'is the standard for the client-side web programming',
    ];
    const right = ['and is used for the logic of the applications that', 'run in a browser, where a virtual machine must start', 'quickly and run fast for the page to feel fluid.'];
    const notice = ['Permission to make digital or hard copies of all or part of this work for', 'personal or classroom use is granted without fee provided that copies are', 'not made for profit. Copyright 2009 ACM.'];
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 740, text: '1. Introduction', bold: true, size: 12 },
          ...lines(72, 720, left),
          ...notice.map((text, i) => ({ x: 72, y: 150 - i * 8.5, text, size: 7 })),
          ...lines(320, 740, right),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'paper.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['heading', '1. Introduction'],
      ['paragraph', `${left.join(' ')} ${right.join(' ')}`],
      ['paragraph', notice.join(' ')],
    ]);
  });

  it('keeps a reference list set small in its place: it starts under its heading (small capitals too), higher up than a page\'s foot', async () => {
    const refs = Array.from({ length: 20 }, (_, i) => [`Author, A. and Author, B. A paper on the topic of the`, `northern wells, ${2000 + i}.`]);
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 740, [LONG_1.slice(0, 50), LONG_2.slice(0, 50), 'and so it ends here.']),
          { x: 72, y: 690, text: 'REFERENCES', bold: true, size: 8 },
          ...refs.flatMap(([first, second], i) => [
            { x: 72, y: 670 - i * 24, text: first!, size: 7 },
            { x: 72, y: 661.5 - i * 24, text: second!, size: 7 },
          ]),
          // The right column's text, more of it than of the references, is the body.
          ...lines(320, 740, ['The appendix follows the references and holds the', ...Array.from({ length: 40 }, () => 'tables the paper refers to, one per experiment, and')]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'references.pdf', config: markdown });
    const texts = result.elements!.map((e) => e.text);
    expect(texts.indexOf(refs.at(-1)!.join(' '))).toBeLessThan(texts.findIndex((t) => t.startsWith('The appendix')));
    expect(texts.indexOf(refs.at(-1)!.join(' '))).toBeGreaterThan(0);
  });

  it('reads a dingbat font\'s glyph opening a line as a bullet, though its map gives it a letter ("y"), and drops the letter overprinted on it', async () => {
    const item = (y: number, text: string) =>
      `BT /F2 10 Tf 1 0 0 1 72 ${y} Tm (y) Tj ET\nBT /F1 10 Tf 1 0 0 1 77 ${y} Tm 0 Tz (y) Tj 100 Tz ET\n${textAt(90, y, text)}`;
    const content = [textAt(72, 720, 'The survey found three causes:'), item(700, 'Wells dug too shallow'), item(686, 'Pumps left unrepaired'), item(672, 'A falling water table')].join('\n');
    const result = await extract({ bytes: drawnPdf(content, undefined, { symbol: 'Wingdings' }), filename: 'causes.pdf', config: markdown });
    expect(result.content).toBe('The survey found three causes:\n\n- Wells dug too shallow\n- Pumps left unrepaired\n- A falling water table');
  });

  it('nests the items of the next column by their own indents, not under the last item of the column before', async () => {
    const list = (x: number, texts: string[]) => texts.map((text, i) => ({ x, y: 700 - i * 14, text: `- ${text}` }));
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, ['The left column, its list set in:']),
          ...list(90, ['Wells', 'Pumps', 'Canals', 'Dams', 'Weirs', 'Locks']),
          // The right column's list runs on from the left's, at its own margin.
          ...list(330, ['Roads', 'Bridges', 'Tunnels', 'Ferries', 'Fords', 'Quays']).map((t) => ({ ...t, y: t.y + 20 })),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'columns.pdf', config: markdown });
    const items = result.elements!.filter((e) => e.type === 'list_item');
    expect(items.map((e) => e.text)).toEqual(['Wells', 'Pumps', 'Canals', 'Dams', 'Weirs', 'Locks', 'Roads', 'Bridges', 'Tunnels', 'Ferries', 'Fords', 'Quays']);
    expect(items.every((e) => e.level === 0)).toBe(true);
  });

  it('keeps in its item a line that wraps back to the margin, left of the marker, after a full line that stopped mid-sentence, and nests the next item by its marker', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, ['Comments may be sent to the committee by any of the', 'methods listed here, until the first of September:']),
          { x: 81, y: 694, text: '* Mail: the Office of the Clerk, Department of' },
          ...lines(72, 682, ['Transportation, Docket Operations, Room 140, West', 'Building, Washington, DC 20590.']),
          { x: 81, y: 658, text: '* Fax: 202-493-2251.' },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'addresses.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text, e.level])).toEqual([
      ['paragraph', 'Comments may be sent to the committee by any of the methods listed here, until the first of September:', undefined],
      ['list_item', 'Mail: the Office of the Clerk, Department of Transportation, Docket Operations, Room 140, West Building, Washington, DC 20590.', 0],
      ['list_item', 'Fax: 202-493-2251.', 0],
    ]);
  });

  it('takes a bold lettered title wrapped onto a second line for one heading', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: '(g) Installation and Verification of the Flight Control Computer', bold: true },
          { x: 72, y: 708, text: 'Operational Program Software', bold: true },
          ...lines(72, 690, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'directive.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['heading', '(g) Installation and Verification of the Flight Control Computer Operational Program Software'],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
    ]);
  });

  it('takes no line of fixed-pitch text for a heading for its size alone (a statute printed from plain text, its few proportional lines smaller)', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 740, text: 'Public Law 107-56, printed from the plain-text edition', size: 7 },
          { x: 72, y: 700, text: 'SEC. 106. PRESIDENTIAL AUTHORITY.', mono: true },
          { x: 72, y: 676, text: 'Section 203 of the International Emergency Economic Powers', mono: true },
          { x: 72, y: 664, text: 'Act is amended in subsection (a)(1) by inserting the words.', mono: true },
          { x: 72, y: 640, text: 'SEC. 107. SCOPE OF SUBPOENAS.', mono: true },
          { x: 72, y: 616, text: 'Section 2703(c)(2) of title 18 is amended by striking the', mono: true },
          { x: 72, y: 604, text: 'words and inserting the following text in their place.', mono: true },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'statute.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'heading' || e.type === 'title')).toEqual([]);
    expect(result.content).toContain('SEC. 106. PRESIDENTIAL AUTHORITY.');
  });

  it('takes a paper\'s title set a third larger than its body (15 points over 11) for the title, its numbered sections under it', async () => {
    const body = (y: number) => [LONG_1, LONG_2, LONG_3].map((text, i) => ({ x: 72, y: y - i * 13, text, size: 11 }));
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 740, text: 'Dense Retrieval for Open Questions', size: 15, bold: true },
          { x: 72, y: 700, text: '1 Introduction', size: 12, bold: true },
          ...body(680),
          { x: 72, y: 620, text: '2 Background', size: 12, bold: true },
          ...body(600),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'paper.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type !== 'paragraph').map((e) => [e.type, e.level, e.text])).toEqual([
      ['title', 1, 'Dense Retrieval for Open Questions'],
      ['heading', 2, '1 Introduction'],
      ['heading', 2, '2 Background'],
    ]);
  });

  it('keeps running headers, footers and page numbers out of content as elements of their own, unless asked to keep them', async () => {
    const page = (n: number) => ({
      texts: [
        { x: 72, y: 760, text: 'Annual Report 2025', size: 8 },
        ...lines(72, 600, [`Page ${n} opens with this sentence about the year that has gone by,`, 'and closes it on the second line.']),
        { x: 300, y: 40, text: String(n), size: 8 },
      ],
    });
    const bytes = layoutPdf([page(1), page(2), page(3)]);
    const result = await extract({ bytes, filename: 'annual.pdf' });
    expect(result.content).toBe(
      [1, 2, 3].map((n) => `Page ${n} opens with this sentence about the year that has gone by, and closes it on the second line.`).join('\n\n'),
    );
    const furniture = result.elements!.filter((e) => e.type === 'page_header' || e.type === 'page_footer');
    expect(furniture.map((e) => [e.type, e.text, e.page])).toEqual([
      ['page_header', 'Annual Report 2025', 1],
      ['page_footer', '1', 1],
      ['page_header', 'Annual Report 2025', 2],
      ['page_footer', '2', 2],
      ['page_header', 'Annual Report 2025', 3],
      ['page_footer', '3', 3],
    ]);
    for (const e of furniture) expect(e.char_end).toBe(e.char_start);
    // Chunks by page never carry them either.
    expect(result.chunks.map((c) => c.text)).toEqual(result.content.split('\n\n'));

    const kept = await extract({ bytes, filename: 'annual.pdf', config: { ...DEFAULT_CONFIG, keep_page_furniture: true } });
    expect(kept.content.startsWith('Annual Report 2025\n\nPage 1 opens')).toBe(true);
    expect(kept.content).toContain('second line.\n\n1\n\nAnnual Report 2025');
    const header = kept.elements!.find((e) => e.type === 'page_header')!;
    expect([...kept.content].slice(header.char_start, header.char_end).join('')).toBe('Annual Report 2025');
  });

  it('reads bulleted and numbered list items with their nesting, a wrapped item as one', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, ['The plan has three parts:']),
          { x: 72, y: 700, text: '*' },
          { x: 84, y: 700, text: 'Survey every well in the district' },
          { x: 72, y: 688, text: '*' },
          { x: 84, y: 688, text: 'Repair the pumps that the survey finds broken, starting with' },
          { x: 84, y: 676, text: 'the ones that serve schools' },
          { x: 96, y: 664, text: '-' },
          { x: 108, y: 664, text: 'schools first' },
          { x: 72, y: 652, text: '*' },
          { x: 84, y: 652, text: 'Report back' },
          { x: 72, y: 620, text: '1.' },
          { x: 86, y: 620, text: 'Measure' },
          { x: 72, y: 608, text: '2.' },
          { x: 86, y: 608, text: 'Repair' },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'plan.pdf', config: markdown });
    expect(result.content).toBe(
      [
        'The plan has three parts:',
        [
          '- Survey every well in the district',
          '- Repair the pumps that the survey finds broken, starting with the ones that serve schools',
          '  - schools first',
          '- Report back',
          '1. Measure',
          '2. Repair',
        ].join('\n'),
      ].join('\n\n'),
    );
    const items = result.elements!.filter((e) => e.type === 'list_item');
    expect(items.map((e) => [e.level, e.ordered])).toEqual([
      [0, false],
      [0, false],
      [1, false],
      [0, false],
      [0, true],
      [0, true],
    ]);
  });

  it('takes a larger block that opens in lower case for the rest of a sentence, not a heading, unless it is a few words of display type', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'eastern mediterranean', size: 24 },
          ...lines(72, 680, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 630, text: 'and the review of the findings that followed', size: 12 },
          ...lines(72, 600, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'lower-case.pdf' });
    expect(result.elements!.map((e) => e.type)).toEqual(['title', 'paragraph', 'paragraph', 'paragraph']);
  });

  it('reads the bullets a browser prints as drawn dots, rings and squares as list items nested by their indent, but not a chart legend\'s key', async () => {
    // Printed by Chromium from chromium-print.html (test/fixtures/README.md): no bullet character in its text layer,
    // and tagged as Chrome's print is, each nested list inside its parent item's body.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-print.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'printed.pdf', config: markdown });
    expect(result.content).toContain(
      [
        '- New pumps for the wells of the northern district',
        '- Repairs to the bridge over the river',
        '  - The east side first',
        '    - Before the market opens',
        '    - After the school term ends',
        '- A report to the council',
      ].join('\n'),
    );
    expect(result.content).toContain('The council meets again in the spring.');
    // A small square drawn before a one-word label, and one before a heading in display type: no list.
    const square = (x: number, y: number) => `${x} ${y} 4 4 re f`;
    const content = [
      square(72, 702),
      'BT /F1 20 Tf 1 0 0 1 84 700 Tm (Results) Tj ET',
      ...lines(72, 670, [LONG_1, LONG_2, LONG_3]).map((t) => `BT /F1 10 Tf 1 0 0 1 ${t.x} ${t.y} Tm (${t.text}) Tj ET`),
      square(300, 602),
      'BT /F1 10 Tf 1 0 0 1 310 600 Tm (Wells) Tj ET',
    ].join('\n');
    const legend = drawnPdf(content);
    const plain = await extract({ bytes: legend, filename: 'legend.pdf', config: markdown });
    expect(plain.elements!.filter((e) => e.type === 'list_item')).toEqual([]);
    expect(plain.content).toContain('Wells');
  });

  it('measures a browser\'s print at the size it draws (14.66-pixel type scaled by 0.75): a table\'s header row with its cells an em apart is a row, not a heading', async () => {
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-print.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'printed.pdf', config: markdown });
    expect(result.content).toContain(['| District | Wells | Pumps needed |', '| --- | --- | --- |', '| North | 42 | 12 |', '| East | 17 | 5 |', '| South | 28 | 9 |'].join('\n'));
    expect(result.elements!.filter((e) => e.type === 'title').map((e) => e.text)).toEqual(['Field notes']);
  });

  it('takes a font named regular for regular, though PDFium works out a weight of 625 from its stem width (a browser\'s Noto Sans): a bold line in the body size stands out as a heading', async () => {
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-print.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'printed.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => e.text)).toEqual(['Wells and pumps by district']);
    expect(result.content).toContain('The council meets again in the spring.\n\n## Wells and pumps by district\n\n| District |');
  });

  it('reads a number set close against its item\'s first word ("10.Review", as Impress and a two-digit label print them) as the item\'s marker, but not a decimal or a stop inside a sentence', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 720, ['The next steps:']),
          { x: 72, y: 700, text: '9.' },
          { x: 86, y: 700, text: 'Measure the wells' },
          { x: 72, y: 688, text: '10.Review the pumps' },
          { x: 72, y: 676, text: '11.Report back' },
          ...lines(72, 650, ['Prices rose by 2.5 percent in 1.5 years.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'steps.pdf', config: markdown });
    expect(result.content).toBe(['The next steps:', '9. Measure the wells\n10. Review the pumps\n11. Report back', 'Prices rose by 2.5 percent in 1.5 years.'].join('\n\n'));
  });

  it('takes only a slide\'s title for a heading: its subtitle and the lead-in over its bullets are content, however large', async () => {
    const at = (x: number, y: number, size: number, text: string) => `BT /F1 ${size} Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`;
    const slide = [
      at(200, 460, 40, 'Water for the North'),
      at(60, 380, 28, 'What the survey asks for:'),
      ...['New pumps for the wells', 'A bridge over the river', 'A report to the council'].flatMap((item, i) => [at(60, 330 - i * 40, 24, '-'), at(90, 330 - i * 40, 24, item)]),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(slide, '0 0 720 540'), filename: 'deck.pdf', config: markdown });
    expect(result.content).toBe(['# Water for the North', 'What the survey asks for:', '- New pumps for the wells\n- A bridge over the river\n- A report to the council'].join('\n\n'));
  });

  it('runs an item set without a hanging indent on over the lines that wrap back under its marker, but not past a sentence\'s end, a line with room for the next word, a capital after a figure, or a line that hangs under its text or is set in after it', async () => {
    const item = (y: number, marker: string, text: string): PlacedText[] => [
      { x: 72, y, text: marker },
      { x: 86, y, text },
    ];
    const texts = [
      ...lines(72, 720, [LONG_1, LONG_2, LONG_3]),
      ...item(672, 'a.', 'complies with the rules of the code and with the guidelines of the'),
      ...lines(72, 660, ['committee that oversees the district; and']),
      ...item(636, 'b.', 'is approved by the committee to hold the deposits of the district.'),
      ...lines(72, 624, [LONG_2]),
      ...item(600, 'c.', 'reports back'),
      ...lines(72, 588, [LONG_2]),
      ...item(564, 'd.', 'keeps the ledgers of the district where the committee can read them,'),
      ...lines(86, 552, ['checked by the auditors of the northern region as the code wants']),
      ...lines(72, 540, [LONG_2]),
      // A capital after a line that stopped on a figure or a bracket opens a sentence of its own (after a word, it
      // carries a name on: "Department of | Transportation"); so does a line set in from an item that wrapped back under its marker.
      ...item(516, 'e.', 'keeps the ledgers of the district where the committee reads them (rule 4)'),
      ...lines(72, 504, ['The committee reads them once a year.']),
      ...item(480, 'f.', 'keeps the ledgers of the district where the committee can read them and'),
      ...lines(72, 468, ['reads them once a year.']),
      ...lines(86, 456, ['The committee meets in the spring, when the roads to the northern districts are open again.']),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'items.pdf' });
    const blocks = result.elements!.map((e) => [e.type, e.text]);
    expect(blocks).toEqual([
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
      ['list_item', 'complies with the rules of the code and with the guidelines of the committee that oversees the district; and'],
      ['list_item', 'is approved by the committee to hold the deposits of the district.'],
      ['paragraph', LONG_2],
      ['list_item', 'reports back'],
      ['paragraph', LONG_2],
      ['list_item', 'keeps the ledgers of the district where the committee can read them, checked by the auditors of the northern region as the code wants'],
      ['paragraph', LONG_2],
      ['list_item', 'keeps the ledgers of the district where the committee reads them (rule 4)'],
      ['paragraph', 'The committee reads them once a year.'],
      ['list_item', 'keeps the ledgers of the district where the committee can read them and reads them once a year.'],
      ['paragraph', 'The committee meets in the spring, when the roads to the northern districts are open again.'],
    ]);
  });

  it('ends a list at a paragraph whose first line is set in past the items\' text, after an item with room left; a capital under the item\'s text is the item\'s own line break', async () => {
    const texts = [
      { x: 72, y: 720, text: '1.' },
      { x: 90, y: 720, text: 'Survey every well in the district' },
      { x: 72, y: 706, text: '2.' },
      { x: 90, y: 706, text: 'Repair the pumps' },
      // A slide's bullet sets its heading and its sentence a line apart, under its text.
      { x: 90, y: 694, text: 'Broken pumps come first.' },
      { x: 72, y: 680, text: '3.' },
      { x: 90, y: 680, text: 'Report to the council' },
      // The paragraph after the list, its first line indented a little further than the items' text.
      { x: 96, y: 666, text: 'The committee met in the spring to hear what the survey found, and' },
      ...[LONG_2, LONG_3].map((text, i) => ({ x: 72, y: 652 - i * 14, text })),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'list-then-prose.pdf' });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['list_item', 'Survey every well in the district'],
      ['list_item', 'Repair the pumps Broken pumps come first.'],
      ['list_item', 'Report to the council'],
      ['paragraph', `The committee met in the spring to hear what the survey found, and ${LONG_2} ${LONG_3}`],
    ]);
  });

  it('reads a letter and stop that a sentence wraps onto the start of a line ("... not had / a. Recent ...") as the paragraph\'s words, not a list item', async () => {
    const wrapped = [LONG_1, 'wells dug before the war, and the committee found that the survey had not had', 'a. Recent look at the pumps, which is why it asks for money to repair them.'];
    const bytes = layoutPdf([{ texts: [...lines(72, 720, wrapped), ...lines(72, 670, ['The plan has two parts:']), { x: 72, y: 658, text: 'a.' }, { x: 86, y: 658, text: 'Survey the wells' }, { x: 72, y: 646, text: 'b.' }, { x: 86, y: 646, text: 'Repair the pumps' }] }]);
    const result = await extract({ bytes, filename: 'wrapped.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text)).toEqual([wrapped.join(' '), 'The plan has two parts:']);
    expect(result.elements!.filter((e) => e.type === 'list_item').map((e) => e.text)).toEqual(['Survey the wells', 'Repair the pumps']);
  });

  it("takes Word's second-level bullet, a letter o a tab away from its text, for a bullet, but not a word o a space away", async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: '*' },
          { x: 90, y: 700, text: 'A top level item' },
          { x: 108, y: 688, text: 'o' },
          { x: 126, y: 688, text: 'Next level' },
          { x: 108, y: 676, text: 'o' },
          { x: 126, y: 676, text: 'Same level' },
          ...lines(72, 640, ['Dime si quieres pan', 'o vino con la cena.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'word-bullets.pdf', config: markdown });
    expect(result.content).toBe('- A top level item\n  - Next level\n  - Same level\n\nDime si quieres pan o vino con la cena.');
  });

  it('reads a telephone number\'s area code in brackets as the number\'s, not a list item\'s mark', async () => {
    const texts = [
      ...lines(72, 700, ['Galaxy Gaming, Inc.']),
      { x: 72, y: 680, text: '(702)' },
      { x: 102, y: 680, text: '939-3254' },
      { x: 72, y: 660, text: '(1)' },
      { x: 90, y: 660, text: 'Survey every well in the district' },
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'phone.pdf' });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', 'Galaxy Gaming, Inc.'],
      ['paragraph', '(702) 939-3254'],
      ['list_item', 'Survey every well in the district'],
    ]);
  });

  it('numbers lettered and roman items in Markdown as its ordered lists, keeps their labels in text, and takes a middle dot for a bullet', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: '1.' },
          { x: 86, y: 700, text: 'Measure the wells' },
          { x: 86, y: 688, text: '(a)' },
          { x: 104, y: 688, text: 'in spring' },
          { x: 86, y: 676, text: '(b)' },
          { x: 104, y: 676, text: 'in autumn' },
          { x: 72, y: 664, text: '2.' },
          { x: 86, y: 664, text: 'Repair the pumps' },
          { x: 86, y: 652, text: 'ii.' },
          { x: 104, y: 652, text: 'the second pump' },
          { x: 72, y: 620, text: '\u00b7' },
          { x: 84, y: 620, text: 'Report back' },
        ],
      },
    ]);
    const md = await extract({ bytes, filename: 'plan.pdf', config: markdown });
    expect(md.content).toBe(['1. Measure the wells\n  1. in spring\n  2. in autumn\n2. Repair the pumps\n  2. the second pump', '- Report back'].join('\n'));
    const text = await extract({ bytes, filename: 'plan.pdf' });
    expect(text.content).toContain('(b) in autumn');
  });

  it('reads two columns one after the other, never joining lines across the gutter', async () => {
    const left = ['Left column opens the story and it runs', 'on for three lines of text before it', 'stops at the foot of the column here.'];
    const right = ['Right column carries on with the story', 'for three more lines of text until it', 'reaches the end of the page at last.'];
    const bytes = layoutPdf([{ texts: [...lines(72, 700, left), ...lines(320, 700, right)] }]);
    const result = await extract({ bytes, filename: 'columns.pdf' });
    expect(result.content).toBe(`${left.join(' ')}\n\n${right.join(' ')}`);
    const [a, b] = result.elements!;
    expect(a!.bbox![2]).toBeLessThan(b!.bbox![0]);
  });

  it('reads two columns set under a full-width paragraph at the same margin as paragraphs of their own width, not as lines cut short', async () => {
    const wide = [
      'This report sets out what the survey of the northern districts found in the spring of the year, and what the',
      'committee proposes to do about the wells, the pumps and the bridge before the rains come back in the autumn.',
    ];
    const left = ['The survey counted every well in the', 'district and found that most of them', 'were dug before the war and have not', 'been repaired since they were dug.'];
    const right = ['The committee asks the council for', 'money to repair the pumps that serve', 'the schools first and the markets', 'after them, in that order of need.'];
    const bytes = layoutPdf([{ texts: [...lines(72, 720, wide), ...lines(72, 680, left), ...lines(320, 680, right)] }]);
    const result = await extract({ bytes, filename: 'columns.pdf', config: markdown });
    expect(result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text)).toEqual([wide.join(' '), left.join(' '), right.join(' ')]);
  });

  it('measures a page whose box does not start at its space\'s origin from the box\'s corner, its text, tables and figures alike, and leaves out what the crop box cuts off', async () => {
    const rows = [
      ['District', 'Wells'],
      ['North', '42'],
      ['East side', '17'],
    ];
    // Rows filled grey in turn: the fills' edges are the table's only lines, so the drawing must be measured as the text is.
    const table = rows.flatMap((row, i) => [...(i % 2 === 0 ? [`0.85 g 72 ${681 - i * 20} 120 20 re f 192 ${681 - i * 20} 80 20 re f 0 g`] : []), textAt(76, 688 - i * 20, row[0]!), textAt(196, 688 - i * 20, row[1]!)]);
    // A picture beside the table: a figure.
    const picture = 'q 100 0 0 80 330 600 cm BI /W 2 /H 2 /CS /G /BPC 8 /F /AHx ID 00FFFF00> EI Q';
    const content = [textAt(72, 740, 'Wells by district'), ...table, picture, textAt(72, 560, LONG_1), textAt(72, 548, LONG_2)].join('\n');
    const read = async (bytes: Uint8Array) => {
      const result = await extract({ bytes, filename: 'boxed.pdf', config: markdown });
      return { content: result.content, tables: result.tables, elements: result.elements, sizes: result.metadata.page_sizes };
    };
    const atOrigin = await read(drawnPdf(content));
    expect(atOrigin.tables.map((t) => t.rows)).toEqual([rows]);
    expect(atOrigin.elements!.filter((e) => e.type === 'figure').map((e) => e.bbox)).toEqual([[330, 112, 430, 192]]);
    // The same page drawn 100 points up and right, in a media box that starts there, or cropped there out of a larger one
    // (with a word in the margin the crop cuts off).
    const moved = `1 0 0 1 100 100 cm\n${content}`;
    expect(await read(drawnPdf(moved, '100 100 712 892'))).toEqual(atOrigin);
    expect(await read(drawnPdf(`${textAt(20, 20, 'Trimmed')}\n${moved}`, '0 0 812 992', { crop: '100 100 712 892' }))).toEqual(atOrigin);
  });

  it('reads a page shown turned, its text set upright on the turned page (a landscape table), as the page it shows, and boxes its elements there', async () => {
    const rows = [
      ['District', 'Wells', 'Depth'],
      ['North', '42', '120 m'],
      ['East side', '17', '85 m'],
      ['South', '28', '64 m'],
    ];
    // Landscape content, 792 by 612 points.
    const landscape = [
      textAt(72, 540, 'Wells by district, surveyed in the spring of the year after the drought'),
      textAt(72, 526, 'when the committee asked every farmer of the province about his wells.'),
      ...rows.flatMap((row, i) => row.map((cell, j) => textAt(72 + j * 150, 480 - i * 16, cell))),
    ].join('\n');
    const read = async (bytes: Uint8Array) => {
      const result = await extract({ bytes, filename: 'landscape.pdf', config: markdown });
      return { content: result.content, tables: result.tables, elements: result.elements, sizes: result.metadata.page_sizes };
    };
    const upright = await read(drawnPdf(landscape, '0 0 792 612'));
    expect(upright.tables.map((t) => t.rows)).toEqual([rows]);
    // Drawn turned on a portrait page that is shown turned back (as LaTeX's pdflscape sets a wide table), or upside down on one shown upside down.
    const turned: Array<[number, string, string]> = [
      [90, '0 0 612 792', '0 1 -1 0 612 0 cm'],
      [180, '0 0 792 612', '-1 0 0 -1 792 612 cm'],
      [270, '0 0 612 792', '0 -1 1 0 0 792 cm'],
    ];
    for (const [rotate, box, cm] of turned) expect(await read(drawnPdf(`${cm}\n${landscape}`, box, { rotate }))).toEqual(upright);
  });

  it('keeps a chart\'s tick label apart from the axis title set on end beside it', async () => {
    // The title runs up the page at x 300 from y 250 to about 330; the tick label "70" stands level just right of it, inside its extent.
    const content = [textAt(72, 700, LONG_1), textAt(72, 688, LONG_2), 'BT /F1 14 Tf 0 1 -1 0 306 250 Tm (Top-k accuracy) Tj ET', textAt(307, 280, '70')].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'axis.pdf' });
    const texts = result.elements!.map((e) => e.text);
    expect(texts).toContain('Top-k accuracy');
    expect(texts).toContain('70');
  });

  it('keeps the lines of a page shown turned whose text is set level in its own space as they are set, and boxes them on the page as shown', async () => {
    const lines3 = ['Rotated page fixture', 'Second line of text here', 'Hello World Test Text'];
    const content = lines3.map((text, i) => textAt(85, 600 + i * 57, text)).join('\n');
    const result = await extract({ bytes: drawnPdf(content, '0 0 595 842', { rotate: 90 }), filename: 'on-end.pdf' });
    const { width, height } = result.metadata.page_sizes![0]!;
    expect([width, height]).toEqual([842, 595]);
    // Three lines apart, not one line run up the page.
    expect(result.elements!.map((e) => e.text).sort()).toEqual([...lines3].sort());
    for (const e of result.elements!) {
      const [x0, y0, x1, y1] = e.bbox!;
      // Shown a quarter turn clockwise, the page's left margin is the shown page's top: each line runs down from near it.
      expect(x0 >= 0 && x1 <= width && y0 >= 80 && y0 <= 90 && y1 <= height && y1 - y0 > x1 - x0).toBe(true);
    }
  });

  it('leaves out text set wholly off the page, as a spread cut into pages keeps its neighbour, but keeps a line or a paragraph that runs over the edge whole', async () => {
    const content = [
      textAt(72, 700, 'Wells of the north'),
      // The neighbouring page of the spread, beyond this one's right edge.
      textAt(700, 700, 'Wells of the south'),
      textAt(700, 688, 'were dug after the war.'),
      // A line that starts on the page and runs past its edge, word by word.
      textAt(400, 600, 'The survey'),
      textAt(455, 600, 'of the northern'),
      textAt(531, 600, 'districts went on'),
      textAt(615, 600, 'beyond'),
      textAt(652, 600, 'the edge.'),
      // A paragraph at the page's foot whose last line runs under it, as a slide's text box overflows.
      textAt(72, 20, 'The last paragraph of the page runs'),
      textAt(72, 8, 'on to its foot and'),
      textAt(72, -4, 'past it, and on'),
      textAt(72, -16, 'wholly under the edge.'),
      // A line under the page's foot on its own.
      textAt(72, -40, 'Under the foot of the page.'),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'spread.pdf' });
    expect(result.content).toContain('Wells of the north');
    expect(result.content).toContain('The survey of the northern districts went on beyond the edge.');
    expect(result.content).toContain('The last paragraph of the page runs on to its foot and past it, and on wholly under the edge.');
    expect(result.content).not.toMatch(/south|after the war|Under the foot/);
    // Boxed where they are seen: up to the page's edge.
    const { width, height } = result.metadata.page_sizes![0]!;
    for (const e of result.elements!) {
      const [x0, y0, x1, y1] = e.bbox!;
      expect(x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height && x0 <= x1 && y0 <= y1).toBe(true);
    }
    for (const chunk of result.chunks) for (const { bbox } of chunk.boxes ?? []) expect(bbox[2] <= width && bbox[3] <= height).toBe(true);
  });

  it('leaves out a bullet with nothing after it, an empty list item', async () => {
    // The bullet in the Symbol font, as a word processor writes an empty item's.
    const content = [textAt(72, 700, 'Wells of the north'), 'BT /F2 10 Tf 1 0 0 1 72 680 Tm (\\267) Tj ET', textAt(72, 660, 'Wells of the south')].join('\n');
    const result = await extract({ bytes: drawnPdf(content, undefined, { symbol: true }), filename: 'empty-item.pdf' });
    expect(result.elements!.map((e) => e.text)).toEqual(['Wells of the north', 'Wells of the south']);
  });

  it('reads a box a font maps to a control code (no character: U+0084, U+0002) as the bullet of the item it opens, a text font\'s C1 codes as Windows-1252\'s characters, and never writes a control code', async () => {
    // Fonts whose map gives the code 0x84 as U+0084 or U+0002 (and 0x80 as U+0080): the Symbol font's glyph, the first drawn twice, the second time with no width.
    const cmap = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Box def 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <84> <0084> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end';
    const toStx = cmap.replace('<84> <0084>', '<84> <0002>');
    const passThrough = cmap.replace('1 beginbfchar <84> <0084> endbfchar', '1 beginbfrange <20> <FF> <0020> endbfrange');
    const item = (y: number, text: string, font = 'F2') =>
      `BT /${font} 10 Tf 1 0 0 1 72 ${y} Tm (\\204) Tj${font === 'F2' ? ' 0 Tz (\\204) Tj 100 Tz' : ''} ET\n${textAt(86, y, text)}`;
    const price = 'BT /F3 10 Tf 1 0 0 1 72 640 Tm (A survey costs \\20015, paid \\204in advance\\223.) Tj ET';
    // An icon after a line's text (an envelope by an author's name) is no mark: it is left out.
    const icon = `${textAt(72, 580, 'Write to the survey office')}\nBT /F2 10 Tf 1 0 0 1 210 580 Tm (\\204) Tj ET`;
    const content = [textAt(72, 700, 'Which wells were surveyed?'), item(680, 'Wells of the north'), item(664, 'Wells of the south', 'F4'), price, icon].join('\n');
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 6 0 R /F3 8 0 R /F4 10 0 R >> >> /Contents 5 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol /ToUnicode 7 0 R >>',
      `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 9 0 R >>',
      `<< /Length ${passThrough.length} >>\nstream\n${passThrough}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Symbol /ToUnicode 11 0 R >>',
      `<< /Length ${toStx.length} >>\nstream\n${toStx}\nendstream`,
    ]);
    const result = await extract({ bytes, filename: 'boxes.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', 'Which wells were surveyed?'],
      ['list_item', 'Wells of the north'],
      ['list_item', 'Wells of the south'],
      ['paragraph', 'A survey costs €15, paid „in advance“.'],
      ['paragraph', 'Write to the survey office'],
    ]);
    expect(result.content).not.toMatch(/[\u0000-\u0008\u000e-\u001f\u0080-\u009f\uf000-\uf01f\uf080-\uf09f]/);
  });

  it('reads a letter that a control code follows at once at a line\'s start ("r" and U+0001: a box font\'s glyph drawn as two codes) as a bullet, but not a letter with a word after it', async () => {
    const cmap = '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Box def 1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <72> <0072> <01> <0001> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end';
    const item = (y: number, text: string) => `BT /F2 10 Tf 1 0 0 1 72 ${y} Tm (r\\001) Tj ET\n${textAt(86, y, text)}`;
    const content = [textAt(72, 700, 'The centre offers:'), item(684, 'Database performance and scalability'), item(670, 'Advanced SQL skills transfer'), textAt(72, 640, 'r and s are the rates measured that year.')].join('\n');
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents 5 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /ToUnicode 7 0 R >>',
      `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
    ]);
    const result = await extract({ bytes, filename: 'dingbats.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', 'The centre offers:'],
      ['list_item', 'Database performance and scalability'],
      ['list_item', 'Advanced SQL skills transfer'],
      ['paragraph', 'r and s are the rates measured that year.'],
    ]);
  });

  it('reads a table ruled only between its rows, and one whose rows are shaded in turn, with the columns no row\'s words cross', async () => {
    const rows = [
      ['District', 'Wells'],
      ['North', '42'],
      ['East side', '17'],
      ['South', '28'],
    ];
    // Rows 20 points apart: a rule under each (cell by cell, as a browser draws borders), one over the first.
    const ruled = [
      `0 0 0 rg 72 ${701} 120 0.75 re f 192 ${701} 80 0.75 re f`,
      ...rows.flatMap((row, i) => [textAt(76, 688 - i * 20, row[0]!), textAt(196, 688 - i * 20, row[1]!), `72 ${681 - i * 20} 120 0.75 re f 192 ${681 - i * 20} 80 0.75 re f`]),
    ].join('\n');
    // The header and every other row filled grey: the fills' edges are the only lines.
    const shaded = rows
      .flatMap((row, i) => [...(i % 2 === 0 ? [`0.85 g 72 ${681 - i * 20} 120 20 re f 192 ${681 - i * 20} 80 20 re f 0 g`] : []), textAt(76, 688 - i * 20, row[0]!), textAt(196, 688 - i * 20, row[1]!)])
      .join('\n');
    for (const content of [ruled, shaded]) {
      const result = await extract({ bytes: drawnPdf(`${textAt(72, 740, 'Wells by district:')}\n${content}`), filename: 'rows.pdf', config: markdown });
      expect(result.tables.map((t) => t.rows)).toEqual([rows]);
    }
    // The plain last row under a shaded one has no line under it: its cell's second line is the row's, the paragraph under the table is not.
    const wrapped = [shaded, textAt(76, 616, 'coast'), textAt(72, 596, LONG_1), textAt(72, 584, LONG_2)].join('\n');
    const result = await extract({ bytes: drawnPdf(wrapped), filename: 'rows.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[...rows.slice(0, 3), ['South coast', '28']]]);
    expect(result.content).toContain(`${LONG_1} ${LONG_2}`);
  });

  it('reads a ruled header cell that no rule parts from the row under it as one cell spanning both rows, beside a group label ruled off over its columns, but not a currency sign no rule parts from the rows under it', async () => {
    const lines = [
      '0 G 0.5 w 72 620 m 72 720 l S 200 620 m 200 720 l S 300 620 m 300 720 l S 400 620 m 400 720 l S',
      '72 720 m 400 720 l S 72 680 m 400 680 l S 72 650 m 400 650 l S 72 620 m 400 620 l S',
      // The rule under the group label runs under its two columns only.
      '200 700 m 400 700 l S',
    ].join('\n');
    const content = [
      lines,
      textAt(76, 708, 'Group'),
      textAt(76, 688, 'size'),
      textAt(204, 708, 'Wells'),
      textAt(204, 688, 'dug'),
      textAt(304, 688, 'dry'),
      textAt(76, 662, 'North'),
      textAt(204, 662, '12'),
      textAt(304, 662, '3'),
      textAt(76, 632, 'South'),
      textAt(204, 632, '8'),
      textAt(304, 632, '5'),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'header.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Group size', 'Wells', ''],
        ['Group size', 'dug', 'dry'],
        ['North', '12', '3'],
        ['South', '8', '5'],
      ],
    ]);
    // A statement whose rules run under its labels and figures but not its currency column: a sign a row, no span.
    const statement = [
      '0 G 0.5 w 72 560 m 72 680 l S 200 560 m 200 680 l S 260 560 m 260 680 l S 400 560 m 400 680 l S',
      '72 680 m 400 680 l S 72 650 m 400 650 l S 72 560 m 400 560 l S',
      '72 620 m 200 620 l S 260 620 m 400 620 l S 72 590 m 200 590 l S 260 590 m 400 590 l S',
      textAt(76, 662, 'Item'),
      textAt(264, 662, 'Cost'),
      textAt(76, 632, 'Rent'),
      textAt(204, 632, '$'),
      textAt(264, 632, '1,200'),
      textAt(76, 602, 'Food'),
      textAt(264, 602, '300'),
      textAt(76, 572, 'Fuel'),
      textAt(264, 572, '150'),
    ].join('\n');
    const figures = await extract({ bytes: drawnPdf(statement), filename: 'statement.pdf', config: markdown });
    expect(figures.tables.map((t) => t.rows)).toEqual([
      [
        ['Item', '', 'Cost'],
        ['Rent', '$', '1,200'],
        ['Food', '', '300'],
        ['Fuel', '', '150'],
      ],
    ]);
  });

  it('reads a ruled header cell wrapped onto a bracketed unit or after a lone "#" ("mAP" over "(0.75)", "#" over "layers") as one cell spanning its rows, but not a figure over a bracketed figure', async () => {
    const content = [
      '0 G 0.5 w 72 620 m 72 720 l S 160 620 m 160 720 l S 260 620 m 260 720 l S 360 620 m 360 720 l S',
      '72 720 m 360 720 l S 72 680 m 360 680 l S 72 650 m 360 650 l S 72 620 m 360 620 l S',
      // A rule under the last column's header only: the header is two grid rows.
      '260 700 m 360 700 l S',
      ...cellsAt(
        [76, 164, 264],
        [
          [708, '#', 'mAP', 'Cost'],
          [688, 'layers', '(0.75)', 'total'],
          [662, '6', '0.88', '12'],
          [632, '4', '0.85', '(3)'],
        ],
      ),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'units.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['# layers', 'mAP (0.75)', 'Cost'],
        ['# layers', 'mAP (0.75)', 'total'],
        ['6', '0.88', '12'],
        ['4', '0.85', '(3)'],
      ],
    ]);
  });

  it('repeats a ruled cell merged across columns (a column rule left out in its row) in each column, where its text is centred over them or reaches past its own; a figure beside an empty cell stays one cell', async () => {
    const content = [
      // The rule between the last two columns stops under the header row: "Wells" spans them.
      '0 G 0.5 w 72 590 m 72 720 l S 200 590 m 200 720 l S 300 590 m 300 700 l S 400 590 m 400 720 l S',
      '72 720 m 400 720 l S 72 700 m 400 700 l S 72 680 m 400 680 l S 72 650 m 400 650 l S 72 620 m 400 620 l S 72 590 m 400 590 l S',
      textAt(287, 706, 'Wells'),
      ...cellsAt(
        [76, 204, 304],
        [
          [706, 'District', '', ''],
          [686, '', 'dug', 'drilled'],
          [662, 'North', '12', '3'],
          [632, 'South', '8', '5'],
          [602, 'Total', '', '8'],
        ],
      ),
    ].join('\n');
    // The total row leaves out the rule too, but its figure stands in its own column.
    const merged = content.replace('300 590 m 300 700 l S', '300 620 m 300 700 l S');
    const result = await extract({ bytes: drawnPdf(merged), filename: 'merged.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['District', 'Wells', 'Wells'],
        ['', 'dug', 'drilled'],
        ['North', '12', '3'],
        ['South', '8', '5'],
        ['Total', '', '8'],
      ],
    ]);
    // Three columns under one header centred in the middle one: no rule crossed, the text centred over all three.
    const three = [
      '0 G 0.5 w 72 620 m 72 720 l S 160 620 m 160 720 l S 240 620 m 240 700 l S 320 620 m 320 700 l S 400 620 m 400 720 l S',
      '72 720 m 400 720 l S 72 700 m 400 700 l S 72 680 m 400 680 l S 72 650 m 400 650 l S 72 620 m 400 620 l S',
      textAt(266, 706, 'Survey'),
      ...cellsAt(
        [76, 164, 244, 324],
        [
          [706, 'Town', '', '', ''],
          [686, '', '2019', '2020', '2021'],
          [662, 'Ely', '4', '5', '6'],
          [632, 'Ware', '7', '8', '9'],
        ],
      ),
    ].join('\n');
    const survey = await extract({ bytes: drawnPdf(three), filename: 'survey.pdf', config: markdown });
    expect(survey.tables[0]?.rows[0]).toEqual(['Town', 'Survey', 'Survey', 'Survey']);
  });

  it('keeps a ruled cell whole where its paragraph is shaded only as far as its first line, and a row whole where a box to tick stands by its border', async () => {
    const grid = '0 G 0.5 w 72 600 360 120 re S 232 600 m 232 720 l S 72 680 m 432 680 l S 72 640 m 432 640 l S';
    const content = [
      grid,
      // Word shades a cell's paragraph in from the cell's borders and only as far down as its text goes.
      '0.85 g 76 703 152 16.5 re f 0 g',
      textAt(80, 706, 'Standard name'),
      textAt(236, 706, 'Steel bars cast in one'),
      textAt(236, 694, 'piece for structures'),
      textAt(80, 666, 'Grade'),
      textAt(236, 666, 'B500'),
      textAt(80, 626, 'Has the maker'),
      textAt(80, 614, 'obtained it?'),
      // A box to tick, drawn a point and a half over the row's bottom border.
      '236 601.5 10 10 re S',
      textAt(250, 604, 'Yes'),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'form.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Standard name', 'Steel bars cast in one piece for structures'],
        ['Grade', 'B500'],
        ['Has the maker obtained it?', 'Yes'],
      ],
    ]);
  });

  it('reads a shaded row whose cell is shaded a line at a time as one row: the seam between two fills of one colour is no line', async () => {
    const rows = [
      ['District', 'Wells'],
      ['North', '42'],
      ['South coast', '28'],
    ];
    const content = [
      '0.85 g 72 681 120 20 re f 192 681 80 20 re f 0 g',
      textAt(76, 688, 'District'),
      textAt(196, 688, 'Wells'),
      textAt(76, 668, 'North'),
      textAt(196, 668, '42'),
      // The last row two lines tall, its first cell shaded line by line, its second in one piece.
      '0.85 g 72 633 120 12 re f 72 621 120 12 re f 192 621 80 24 re f 0 g',
      textAt(76, 636, 'South'),
      textAt(76, 624, 'coast'),
      textAt(196, 636, '28'),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'shaded.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([rows]);
  });

  it('keeps a ruled table\'s wrapped row whole where rules part its rows, but reads figures stacked in one ruled row as rows of their own', async () => {
    // Columns at 72, 172, 272, 372; rules under each row. The second row's first and last cells wrap onto a second line.
    const grid = (rows: number[]) => [
      ...rows.map((y) => `72 ${y} 300 0.5 re f`),
      ...[72, 172, 272, 372].map((x) => `${x} ${rows.at(-1)} 0.5 ${rows[0]! - rows.at(-1)!} re f`),
    ];
    const wrapped = [
      ...grid([720, 700, 668, 648]),
      textAt(76, 706, 'Site'), textAt(176, 706, 'Count'), textAt(276, 706, 'Notes'),
      textAt(76, 686, 'Increase'), textAt(76, 674, 'patient'), textAt(176, 686, '77'), textAt(276, 686, 'review during'), textAt(276, 674, 'with care'),
      textAt(76, 654, 'Initial'), textAt(176, 654, '12'), textAt(276, 654, 'school'),
    ].join('\n');
    const one = await extract({ bytes: drawnPdf(wrapped), filename: 'wrapped.pdf', config: markdown });
    expect(one.tables.map((t) => t.rows)).toEqual([[['Site', 'Count', 'Notes'], ['Increase patient', '77', 'review during with care'], ['Initial', '12', 'school']]]);
    // A label spanning two lines of figures, one rule under the header and one under the group.
    const stacked = [
      ...grid([720, 700, 668, 648]),
      textAt(76, 706, 'Model'), textAt(176, 706, 'Top-20'), textAt(276, 706, 'Top-100'),
      textAt(76, 686, 'Single'), textAt(176, 686, '78.4'), textAt(176, 674, '76.6'), textAt(276, 686, '85.4'), textAt(276, 674, '83.8'),
      textAt(76, 654, 'Multi'), textAt(176, 654, '79.4'), textAt(276, 654, '86.0'),
    ].join('\n');
    const rows = await extract({ bytes: drawnPdf(stacked), filename: 'stacked.pdf', config: markdown });
    expect(rows.tables.map((t) => t.rows)).toEqual([[['Model', 'Top-20', 'Top-100'], ['Single', '78.4', '85.4'], ['', '76.6', '83.8'], ['Multi', '79.4', '86.0']]]);
  });

  it('takes no table from two boxes of one width, a header\'s and a footer\'s, with the page\'s text between them', async () => {
    const box = (y: number, left: string, right: string) => `72 ${y} 400 20 re S\n${textAt(80, y + 6, left)}\n${textAt(300, y + 6, right)}`;
    const content = [box(740, 'Annual report', 'Draft'), textAt(72, 700, 'Main document'), box(600, 'Acme Ltd', 'Page 1')].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'boxes.pdf', config: markdown });
    expect(result.tables).toEqual([]);
    expect(result.content).toContain('Main document');
  });

  it('reads the header a spreadsheet prints flush left over figures set flush right as the table\'s header row', async () => {
    const data = [
      ['North station', '8.47E+07', '58478'],
      ['East', '6.10E-05', '544687'],
      ['South station', '8.36E+05', '357245'],
    ];
    // Figures end at the column's right edge; each header starts at its column's left edge, over the space the figures leave.
    const right = (end: number, text: string) => end - text.length * 5.56;
    const texts = [
      { x: 72, y: 700, text: 'Station', bold: true },
      { x: 160, y: 700, text: 'Mass', bold: true },
      { x: 260, y: 700, text: 'Staff', bold: true },
      ...data.flatMap((row, i) => [
        { x: 72, y: 686 - i * 14, text: row[0]! },
        { x: right(250, row[1]!), y: 686 - i * 14, text: row[1]! },
        { x: right(350, row[2]!), y: 686 - i * 14, text: row[2]! },
      ]),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'sheet.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[['Station', 'Mass', 'Staff'], ...data]]);
  });

  it('reads a printed sheet\'s table whose figures, set flush right, stand closer to the next cell\'s text than a word space, and whose rows leave cells empty', async () => {
    const data = [
      ['North depot', '42', 'Early delivery', '12 kg'],
      ['East yard', '7', '', '3 kg'],
      ['South depot', '131', 'Checked twice', '40 kg'],
      ['West', '', 'Closed for works', ''],
      ['Harbour store', '18', 'Late', '9 kg'],
      ['Airport', '5', 'Damaged crate', '2 kg'],
      ['Rail yard', '64', 'Sealed', '6 kg'],
      ['Dock', '9', '', ''],
    ];
    // As Calc prints: labels and notes start at their cells' left edges, figures end at theirs, so a count
    // ends 2 pt before the note after it starts (Helvetica's word space is 2.8 pt). Each weight ends in its unit.
    const digits = (text: string) => text.length * 5.56;
    const texts = [
      { x: 72, y: 700, text: 'Depot' },
      { x: 180, y: 700, text: 'Crates' },
      { x: 232, y: 700, text: 'Notes' },
      { x: 372, y: 700, text: 'Weight' },
      ...data.flatMap(([depot, crates, notes, weight], i) => {
        const y = 686 - i * 14;
        const [count, unit] = weight!.split(' ');
        return [
          { x: 72, y, text: depot! },
          ...(crates ? [{ x: 230 - digits(crates), y, text: crates }] : []),
          ...(notes ? [{ x: 232, y, text: notes }] : []),
          ...(count ? [{ x: 400 - digits(count!), y, text: count! }, { x: 402.8, y, text: unit! }] : []),
        ];
      }),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'sheet.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[['Depot', 'Crates', 'Notes', 'Weight'], ...data]]);
  });

  it('reads a printed sheet whose widest column gap runs down the page as a table, not as two page columns, and keeps a time with its AM or PM', async () => {
    const owners = [
      ['Survey central', 'As internal market', '0.186'],
      ['Budget', 'Archive', '0.455'],
      ['Detailed', 'A to be central', '0.219'],
      ['Across or', 'Public technical so', '0.908'],
      ['Improve uneven', 'Initial member', '0.943'],
      ['Energy field', 'K-4761', '0.044'],
      ['Have', 'K-3730', '0.767'],
      ['Is be several', 'River measure', '0.826'],
      ['And publish', 'B-5610', '0.141'],
    ];
    const logged = [
      ['Growth', '3:07 PM', '7268.9'],
      ['Sensor', '9:58 AM', '1712.4'],
      ['Maintain', '8:48 PM', '9343.2'],
      ['Sample', '6:37 AM', '1437.7'],
      ['Engine', '2:03 PM', '5951.3'],
    ];
    const sheet = (header: string[], rows: string[][], xs: number[]) =>
      [header, ...rows].flatMap((row, i) => row.map((text, c) => ({ x: xs[c]!, y: 740 - i * 15, text })));
    const bytes = layoutPdf([{ texts: sheet(['Item', 'Owner', 'Rate'], owners, [55, 156, 327]) }, { texts: sheet(['Name', 'Logged', 'Balance'], logged, [55, 156, 257]) }]);
    const result = await extract({ bytes, filename: 'sheet.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [['Item', 'Owner', 'Rate'], ...owners],
      [['Name', 'Logged', 'Balance'], ...logged],
    ]);
  });

  it('reads two columns of figures as a table, the amounts in either, with the header a sheet prints flush left over them and the rows that leave a cell empty', async () => {
    // Helvetica's digits are 0.556 em wide, its stop 0.278: each figure set flush right against its column's edge.
    const width = (figure: string) => [...figure].reduce((w, ch) => w + (ch === '.' ? 2.78 : 5.56), 0);
    const rows = [['87', '5.72'], ['26', '58.66'], ['41', ''], ['32', '86.88'], ['', '3.10'], ['23', '17.83'], ['5', '90.06'], ['12', '']];
    const texts = [
      { x: 55, y: 740, text: 'Visitors' },
      { x: 156, y: 740, text: 'Balance' },
      ...rows.flatMap(([a, b], i) => [
        ...(a ? [{ x: 120 - width(a), y: 725 - i * 15, text: a }] : []),
        ...(b ? [{ x: 230 - width(b), y: 725 - i * 15, text: b }] : []),
      ]),
    ];
    // The amounts may stand in the first column, counts in the second.
    const counts = [['1,812,690', '48'], ['731,164', '79'], ['1,064,739', '2'], ['426,050', '55']];
    const second = [
      { x: 55, y: 740, text: 'Quantity' },
      { x: 156, y: 740, text: 'Staff' },
      ...counts.flatMap(([a, b], i) => [{ x: 140 - width(a!.replaceAll(',', '.')), y: 725 - i * 15, text: a! }, { x: 200 - width(b!), y: 725 - i * 15, text: b! }]),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }, { texts: second }]), filename: 'figures.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[['Visitors', 'Balance'], ...rows], [['Quantity', 'Staff'], ...counts]]);
    expect(result.elements!.map((e) => e.type)).toEqual(['table', 'table']);
  });

  it('reads a sheet\'s rows on past a row with a cell empty where a clipped label ends a hair into the next column', async () => {
    const width = (s: string) => [...s].reduce((n, ch) => n + (ch === '.' || ch === ',' ? 2.78 : 5.56), 0);
    const data = [['North', 'A', '1,794.61'], ['South', 'B', '7,995.85'], ['East', 'C', '6,209.45'], ['Mid', '', '5.00'], ['West', 'D', '4,791.37'], ['1234567890123456789', 'E', '7,612.58'], ['Coast', 'F', '2,783.83'], ['Hills', 'G', '8,682.08']];
    // The second row's code starts the column at 160; the long label, set flush right, ends 0.4 points past it.
    const texts = data.flatMap(([label, code, amount], i) => [
      { x: label!.length > 10 ? 160.4 - width(label!) : 55, y: 700 - i * 15, text: label! },
      ...(code ? [{ x: i === 1 ? 160 : 175, y: 700 - i * 15, text: code }] : []),
      { x: 250 - width(amount!), y: 700 - i * 15, text: amount! },
    ]);
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'touching.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([data]);
  });

  it('cuts no line where the same number follows the same words, nor a contents line at its page numbers', async () => {
    // Same-width form numbers after the same word end where the others end, as a column of figures would.
    const forms = ['Annual return', 'Farm workers', 'Small employers', 'Quarterly return'].flatMap((title, i) => [
      { x: 72, y: 700 - i * 14, text: `Form ${945 - i} ${title}` },
      { x: 300, y: 700 - i * 14, text: 'Filed' },
    ]);
    // A contents page set in three columns, dots leading from each entry to its page number, set flush right
    // 2 pt before the next entry (Helvetica's widths of the letters used, in thousandths of an em).
    const widths: Record<string, number> = { a: 556, d: 556, e: 556, i: 222, l: 222, n: 556, o: 556, r: 333, s: 500, t: 278, u: 556 };
    const width = (text: string) => [...text].reduce((sum, ch) => sum + (widths[ch] ?? 556), 0) / 100;
    const entry = (x: number, end: number, title: string, page: string, y: number) => {
      const figure = end - page.length * 5.56;
      const lead = x + width(title) + 2.78;
      return [
        { x, y, text: title },
        { x: lead, y, text: '.'.repeat(Math.floor((figure - 2 - lead) / 2.78)) },
        { x: figure, y, text: page },
      ];
    };
    const rows = [
      ['rain', '9', 'sand', '121', 'dune'],
      ['tides', '14', 'silt', '7', 'lead'],
      ['stones', '103', 'roads', '58', 'lanes'],
      ['dust', '2', 'trees', '96', 'seeds'],
    ];
    const contents = rows.flatMap(([a, pa, b, pb, c], i) => {
      const y = 700 - i * 14;
      return [...entry(72, 200, a!, pa!, y), ...entry(202, 330, b!, pb!, y), { x: 332, y, text: c! }];
    });
    const result = await extract({ bytes: layoutPdf([{ texts: forms }, { texts: contents }]), filename: 'forms.pdf', config: markdown });
    expect(result.tables).toEqual([]);
    expect(result.content).toContain('Form 944 Farm workers');
  });

  it('reads an unruled table whose description column wraps over lines as one row a code, each cell\'s lines joined, but not the title set larger under it', async () => {
    const row = (y: number, cells: string[]): PlacedText[] => cells.map((text, i) => ({ x: [72, 200, 230, 260][i]!, y, text }));
    const texts = [
      ...lines(72, 740, [LONG_1, LONG_2]),
      ...row(712, ['Definer', 'File', 'Tax', 'Result']),
      ...row(694, ['Adjustments', 'Y', 'Y', 'Adjustment transactions including the trans-']),
      ...lines(260, 682, ['action code and the posted date']),
      ...row(670, ['Retention', 'Y', 'N', 'Re-establishes the retention module and']),
      ...lines(260, 658, ['returns it to the active Master File.']),
      // The next word would not have fitted: a capital carries the line on too.
      ...row(646, ['Entity', 'N', 'N', 'Entity information including all the cross-ref']),
      ...lines(260, 634, ['TIN, freeze codes and indicators']),
      ...row(622, ['Status of the total', 'Y', 'N', 'Status histories']),
      { x: 72, y: 606, text: 'Annual Plan', size: 14, bold: true },
      ...lines(72, 574, [LONG_1, LONG_2, LONG_3]),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'codes.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Definer', 'File', 'Tax', 'Result'],
        ['Adjustments', 'Y', 'Y', 'Adjustment transactions including the transaction code and the posted date'],
        ['Retention', 'Y', 'N', 'Re-establishes the retention module and returns it to the active Master File.'],
        ['Entity', 'N', 'N', 'Entity information including all the cross-ref TIN, freeze codes and indicators'],
        ['Status of the total', 'Y', 'N', 'Status histories'],
      ],
    ]);
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'table', 'title', 'paragraph']);
  });

  it('reads labels with an amount beside each as a two-column table, but not a table of contents\'s page numbers', async () => {
    const pairs = [
      ['Revenue', '1,234.50'],
      ['Operating costs', '(456.00)'],
      ['Tax rate', '12.5%'],
      ['Net income', '778.50'],
    ];
    const contents = [
      ['Introduction', '3'],
      ['Methods', '7'],
      ['Results', '12'],
      ['Discussion', '18'],
    ];
    const rows = (top: number, entries: string[][]) => entries.flatMap(([label, figure], i) => [{ x: 72, y: top - i * 14, text: label! }, { x: 300, y: top - i * 14, text: figure! }]);
    const result = await extract({ bytes: layoutPdf([{ texts: [...rows(700, pairs), ...lines(72, 600, [LONG_1, LONG_2]), ...rows(540, contents)] }]), filename: 'statement.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([pairs]);
    expect(result.content).toContain('Introduction');
  });

  it('reads the lines of two cells a caption names as its table, under the caption or over it, but not a list beside a caption, nor the lines over a caption whose ruled table is under it', async () => {
    const row = (y: number, a: string, b: string) => [{ x: 90, y, text: a }, { x: 250, y, text: b }];
    const table = (y: number) => [...row(y, 'District', 'Main source'), ...row(y - 12, 'North', 'Deep wells'), ...row(y - 24, 'South', 'River water'), ...row(y - 36, 'East', 'Rain tanks')];
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 740, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 690, text: 'Table 1: Where each district draws its water' },
          ...table(672),
          ...lines(72, 610, [LONG_1, LONG_2, LONG_3]),
          ...table(560),
          { x: 72, y: 510, text: 'Tabelle 2: Wasserquellen' },
          ...lines(72, 480, [LONG_1, LONG_2, LONG_3]),
          ...['Deep wells', 'River water', 'Rain tanks'].flatMap((text, i) => [{ x: 90, y: 430 - i * 12, text: '*' }, { x: 110, y: 430 - i * 12, text }]),
          { x: 72, y: 384, text: 'Table 3: Sources, as a chart would show them' },
          ...lines(72, 360, [LONG_1]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'captioned.pdf', config: markdown });
    const rows = [['District', 'Main source'], ['North', 'Deep wells'], ['South', 'River water'], ['East', 'Rain tanks']];
    expect(result.tables.map((t) => t.rows)).toEqual([rows, rows]);
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'caption', 'table', 'paragraph', 'table', 'caption', 'paragraph', 'list_item', 'list_item', 'list_item', 'caption', 'paragraph']);
    // A caption over a table drawn with rules names that table, not the labelled values over the caption.
    const ruledRows = [['District', 'Wells'], ['North', '42'], ['South', '28']];
    const ruledTable = ruledRows.flatMap((r, i) => [textAt(76, 688 - i * 20, r[0]!), textAt(196, 688 - i * 20, r[1]!), `72 ${681 - i * 20} 200 0.75 re f`]);
    const labelled = [['Surveyor', 'J. Marsh'], ['Season', 'Spring'], ['Region', 'Coast']].flatMap(([a, b], i) => [textAt(72, 750 - i * 12, a!), textAt(200, 750 - i * 12, b!)]);
    const content = [...labelled, textAt(72, 712, 'Table 4: Wells by district'), '72 701 200 0.75 re f', ...ruledTable].join('\n');
    const ruled = await extract({ bytes: drawnPdf(content), filename: 'ruled-captioned.pdf', config: markdown });
    expect(ruled.tables.map((t) => t.rows)).toEqual([ruledRows]);
  });

  it('reads a table the content stream draws after the text under it where it stands: after its caption, before that text', async () => {
    const rows = [['District', 'Wells'], ['North', '42'], ['South', '28']];
    // The page's text first, top to bottom; the table's words and rules last, as some producers write tables.
    const text = [LONG_1, LONG_2, LONG_3].map((t, i) => textAt(72, 720 - i * 12, t));
    const after = [LONG_3, LONG_1].map((t, i) => textAt(72, 560 - i * 12, t));
    const cells = rows.flatMap((r, i) => [textAt(76, 632 - i * 20, r[0]!), textAt(196, 632 - i * 20, r[1]!)]);
    const rules = [
      ...[645, 625, 605, 585].map((y) => `72 ${y} 228 0.75 re f`),
      ...[72, 190, 300].map((x) => `${x} 585 0.75 60.75 re f`),
    ];
    const content = [...text, textAt(72, 660, 'Table 1: Wells by district'), ...after, ...cells, ...rules].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'table-drawn-last.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([rows]);
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'caption', 'table', 'paragraph']);
  });

  it('reads the words of a diagram the content stream draws after the text under it where they stand: between the text over it and its caption', async () => {
    // A pasted drawing's boxes and callouts, written after the page's paragraphs, as an office suite writes an embedded drawing.
    const text = [LONG_1, LONG_2].map((t, i) => textAt(72, 720 - i * 12, t));
    const after = [LONG_3, LONG_1].map((t, i) => textAt(72, 520 - i * 12, t));
    const diagram = [textAt(90, 650, 'Gateway'), textAt(300, 650, 'Checks the caller'), textAt(90, 600, 'Service'), textAt(300, 600, 'Answers the request')];
    const content = [...text, textAt(72, 550, 'Figure 1: How a request travels'), ...after, ...diagram].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'diagram-drawn-last.pdf', config: markdown });
    const at = (s: string) => result.content.indexOf(s);
    expect(at('Gateway')).toBeGreaterThan(at('the water table'));
    expect(at('Answers the request')).toBeLessThan(at('Figure 1'));
    expect(at('Figure 1')).toBeLessThan(at('main cause'));
  });

  it('keeps a right column that starts higher than the left one after it under a title spanning both', async () => {
    const A = ['The left column opens the argument of the', 'report and closes it on this line here.'];
    const B = ['The right column carries the conclusion of', 'the report, and the last line ends it.'];
    const title = { x: 72, y: 740, text: 'Water in the North: a Survey of Wells and Springs', size: 16, bold: true };
    const read = await extract({ bytes: layoutPdf([{ texts: [title, ...lines(72, 660, A), ...lines(300, 700, B)] }]), filename: 'columns-titled.pdf', config: markdown });
    expect(read.content).toBe([`# ${title.text}`, A.join(' '), B.join(' ')].join('\n\n'));
  });

  it('reads filled bars on one baseline with numbers up their axis as a bar chart: a figure, its tick and category labels out of the text\'s flow', async () => {
    const heights = [60, 95, 40, 120];
    const bars = heights.map((h, i) => `0.2 0.4 0.8 rg ${120 + i * 50} 560 24 ${h} re f 0 g`);
    // The axis runs past the tallest bar: its top label stands beyond the bars' reach, under the next label's.
    const ticks = [0, 50, 100, 150, 200].map((v, i) => textAt(96, 557 + i * 40, String(v)));
    const categories = ['North', 'South', 'East', 'West'].map((c, i) => textAt(120 + i * 50, 545, c));
    const body = [LONG_1, LONG_2].map((t, i) => textAt(72, 740 - i * 12, t));
    const after = [LONG_3, LONG_1].map((t, i) => textAt(72, 500 - i * 12, t));
    // Its legend beside it: a small square of each series' colour before its name.
    const legend = ['Wells', 'Springs'].flatMap((name, i) => [`0.2 0.4 0.8 rg 310 ${640 - i * 16} 6 6 re f 0 g`, textAt(320, 640 - i * 16, name)]);
    const content = [...body, ...bars, ...ticks, ...categories, ...legend, ...after].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'bar-chart.pdf', config: markdown });
    const flow = result.elements!.map((e) => (e.type === 'figure' ? 'figure' : e.text.slice(0, 12)));
    expect(flow.slice(0, 3)).toEqual(['The quick su', 'figure', 'last decade,']);
    expect(result.elements!.filter((e) => e.type === 'list_item')).toEqual([]);
    expect(result.content).toContain('\n\nSprings');
    // Without an axis, a caption under the bars names them: the list item just over them stays the page's own.
    const items = ['1. Field deliver engine require', '2. Compare report patient farmer'].map((t, i) => textAt(72, 700 - i * 16, t));
    const captioned = [...body, ...items, ...bars, textAt(120, 540, 'Figure 1: Wells by region'), ...after].join('\n');
    const named = await extract({ bytes: drawnPdf(captioned), filename: 'captioned-bars.pdf', config: markdown });
    expect(named.elements!.map((e) => e.type)).toEqual(['paragraph', 'list_item', 'list_item', 'figure', 'caption', 'paragraph']);
    // A table's shaded header cells share both edges: no chart, though numbers stand under them.
    const shaded = [0, 1, 2].map((i) => `0.8 g ${72 + i * 100} 600 96 20 re f 0 g`);
    const cells = ['Region', 'Wells', 'Springs'].map((t, i) => textAt(76 + i * 100, 606, t));
    const rows = [['North', '12', '3'], ['South', '40', '7'], ['East', '28', '5']].flatMap((r, j) => r.map((t, i) => textAt(76 + i * 100, 584 - j * 16, t)));
    const table = await extract({ bytes: drawnPdf([...body, ...shaded, ...cells, ...rows].join('\n')), filename: 'shaded.pdf', config: markdown });
    expect(table.elements!.map((e) => e.type)).not.toContain('figure');
  });

  it('reads the words inside a ruled frame of boxes and arrows that a figure caption names as that figure\'s labels, never headings', async () => {
    const big = (x: number, y: number, t: string) => `BT /F1 14 Tf 1 0 0 1 ${x} ${y} Tm (${t}) Tj ET`;
    // An arrow drawn as one stroked path: its shaft and the two strokes of its head, all slanted.
    const arrow = (x: number, y: number) => `${x} ${y} m ${x + 40} ${y + 12} l ${x + 31} ${y + 13} l ${x + 40} ${y + 12} m ${x + 35} ${y + 5} l S`;
    const frame = ['0.5 w 72 560 400 140 re S', arrow(180, 650), arrow(180, 590)];
    const labels = [big(90, 660, 'REQUEST'), textAt(230, 670, 'Sent by the client'), big(90, 600, 'RESPONSE'), textAt(230, 610, 'Sent by the service')];
    const body = [LONG_1, LONG_2].map((t, i) => textAt(72, 740 - i * 12, t));
    const after = [LONG_3, LONG_1].map((t, i) => textAt(72, 510 - i * 12, t));
    // The page's running footer drawn first, as some producers do: the figure still goes under the text over it.
    const footer = textAt(72, 40, 'Chapter 2. Requests and responses');
    const content = [footer, ...body, ...frame, ...labels, textAt(72, 540, 'Figure 2: A request and its response'), ...after].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'framed-diagram.pdf', config: markdown });
    const types = result.elements!.map((e) => e.type);
    expect(types).not.toContain('heading');
    const at = (pick: (e: { type: string; text: string }) => boolean) => result.elements!.findIndex(pick);
    const figure = at((e) => e.type === 'figure');
    expect(at((e) => e.text.startsWith('The quick survey'))).toBe(figure - 1);
    expect(at((e) => e.type === 'caption')).toBe(figure + 1);
    expect(result.content).toContain('REQUEST');
    // The same frame and words without a caption under them are the page's own: a boxed heading stays one.
    const plain = await extract({ bytes: drawnPdf([...body, ...frame, ...labels, ...after].join('\n')), filename: 'boxed.pdf', config: markdown });
    expect(plain.elements!.map((e) => e.type)).toContain('heading');
  });

  it('reads a table set in one page column whose first rows share baselines with the other column\'s short lines as that column\'s table, its wrapped header cell its header', async () => {
    const left = ['The survey asked each office how it works', 'with the courts and with the lawyers it', 'pays, and what it offers to children too.'];
    const right = ['Offices also named the groups they serve', 'and who pays for the help each of them', 'gets, the state or a civil society group.'];
    const options = ['Yes, nationally', 'Yes, regionally', 'Yes, locally', 'No'];
    const groups = ['Persons with disabilities', 'Children', 'Women', 'The elderly', 'Migrants'];
    const content = [
      ...left.map((t, i) => textAt(72, 720 - i * 12, t)),
      ...right.map((t, i) => textAt(330, 720 - i * 12, t)),
      textAt(72, 660, '25. Is there a unit for children?'),
      ...options.map((t, i) => textAt(84, 640 - i * 14, t)),
      textAt(440, 640, 'State funded'),
      textAt(520, 640, 'CSOs'),
      textAt(440, 626, 'legal aid'),
      ...groups.flatMap((g, i) => [textAt(330, 612 - i * 14, g), textAt(466, 612 - i * 14, '*'), textAt(531, 612 - i * 14, '*')]),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'two-columns-table.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[['', 'State funded legal aid', 'CSOs'], ...groups.map((g) => [g, '*', '*'])]]);
    for (const option of options) expect(result.elements!.some((e) => e.type !== 'table' && e.text.includes(option))).toBe(true);
  });

  it('reads a table drawn as shaded cells, one cell drawn across two columns, with that cell\'s text in both columns, its row kept', async () => {
    // Each cell a filled rectangle, no lines: the header's second cell one rectangle over the last two columns.
    const cell = (x: number, y: number, w: number, shade: number) => `${shade} g ${x} ${y} ${w} 20 re f 0 g`;
    const body = [['North', '12', '3'], ['South', '40', '7'], ['East', '28', '5']];
    const content = [
      ...[LONG_1, LONG_2].map((t, i) => textAt(72, 760 - i * 12, t)),
      cell(72, 700, 100, 0.7),
      cell(172, 700, 200, 0.7),
      textAt(76, 706, 'Region'),
      textAt(232, 706, 'Wells and springs'),
      ...body.flatMap((row, r) => row.flatMap((t, c) => [cell(72 + c * 100, 680 - r * 20, 100, r % 2 ? 0.85 : 0.95), textAt(76 + c * 100, 686 - r * 20, t)])),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'shaded-cells.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([[['Region', 'Wells and springs', 'Wells and springs'], ...body]]);
  });

  it('reads a ruled table\'s column headers turned to read up the page as its header row, a column no body cell fills kept by its header', async () => {
    // Narrow columns headed by text turned a quarter anticlockwise, over the body's X marks; the Editor column holds none.
    const turned = (x: number, text: string) => `BT /F1 9 Tf 0 1 -1 0 ${x} 580 Tm (${text}) Tj ET`;
    const columns = [190, 208, 226, 244];
    const header = [textAt(76, 610, 'Task'), ...['Administrator', 'Editor', 'Viewer', 'No access'].map((t, c) => turned(columns[c]! + 14, t))];
    const body = [
      ['Read files', 'X', '', 'X', ''],
      ['Write files', 'X', '', '', ''],
      ['Delete files', 'X', '', 'X', 'X'],
    ].flatMap((row, i) => row.flatMap((cell, c) => (cell ? [textAt(c === 0 ? 76 : columns[c - 1]! + 6, 560 - i * 20, cell)] : [])));
    const rules = [...[645, 575, 555, 535, 515].map((y) => `72 ${y} 190 0.75 re f`), ...[72, ...columns, 262].map((x) => `${x} 515 0.75 130.75 re f`)];
    const content = [...[LONG_1, LONG_2].map((t, i) => textAt(72, 720 - i * 12, t)), ...header, ...body, ...rules].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'permissions.pdf', config: markdown });
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Task', 'Administrator', 'Editor', 'Viewer', 'No access'],
        ['Read files', 'X', '', 'X', ''],
        ['Write files', 'X', '', '', ''],
        ['Delete files', 'X', '', 'X', 'X'],
      ],
    ]);
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'table']);
  });

  it('reads a table of contents\' bold chapter lines as entries, not headings, on its page and the page it goes on to, and the document\'s own headings after it', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 250, y: 660, text: 'Table of Contents', bold: true, size: 16 },
          chapter(630, 'CHAPTER 1 - INTRODUCTION'),
          entry(616, 'A. PURPOSE 1-1'),
          entry(602, 'B. ROLE OF THE TRUSTEE 1-2'),
          chapter(576, 'CHAPTER 2 - APPOINTMENT'),
          entry(562, 'A. ELIGIBILITY 2-1'),
          entry(548, 'B. RECRUITMENT AND SELECTION 2-3'),
        ],
      },
      {
        texts: [
          entry(660, 'C. COMPENSATION 2-4'),
          chapter(634, 'CHAPTER 3 - ADMINISTRATION'),
          entry(620, 'A. INITIAL REVIEW 3-1'),
          entry(606, 'B. MEETING OF CREDITORS 3-7'),
        ],
      },
      { texts: [chapter(640, 'CHAPTER 1 - INTRODUCTION'), ...lines(72, 616, [LONG_1, LONG_2, LONG_3])] },
    ]);
    const result = await extract({ bytes, filename: 'handbook.pdf' });
    expect(headingsOf(result)).toEqual([
      [1, 'Table of Contents'],
      [3, 'CHAPTER 1 - INTRODUCTION'],
    ]);
    expect(result.elements!.filter((e) => e.page === 2).map((e) => e.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph']);
  });

  it('reads a contents page without a title by its entries\' page numbers running up the page: its chapter lines are entries, the report\'s title over them is not one', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Water in the North', bold: true, size: 20 },
          chapter(680, '1 Introduction .......... 3'),
          entry(664, '1.1 Purpose .......... 3'),
          entry(650, '1.2 Scope .......... 4'),
          chapter(624, '2 The Survey .......... 7'),
          entry(608, '2.1 Wells .......... 8'),
          entry(594, '2.2 Springs .......... 12'),
        ],
      },
      { texts: [chapter(700, '1 Introduction'), ...lines(72, 676, [LONG_1, LONG_2, LONG_3])] },
    ]);
    const result = await extract({ bytes, filename: 'untitled-contents.pdf' });
    expect(headingsOf(result)).toEqual([
      [1, 'Water in the North'],
      [2, '1 Introduction'],
    ]);
    // Numbers that go up and down are a list's figures, not pages: its bold lines stay headings.
    const prices = layoutPdf([
      {
        texts: [
          chapter(680, 'Wells 40'),
          entry(664, 'Deep wells 12'),
          entry(650, 'Shallow wells 28'),
          chapter(624, 'Springs 9'),
          entry(608, 'Mountain springs 3'),
          entry(594, 'Valley springs 6'),
          ...lines(72, 560, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const counts = await extract({ bytes: prices, filename: 'counts.pdf' });
    expect(counts.elements!.filter((e) => e.type === 'heading').map((e) => e.text)).toEqual(['Wells 40', 'Springs 9']);
  });

  it('reads a list of figures\' entries as paragraphs, not captions, and the captions in the text after it as captions', async () => {
    const entries = ['Figure 1-1 Wells by district . . . . . . . . . . 4', 'Figure 1-2 Water table by decade . . . . . . . 7', 'Figure 2-1 Rainfall in the north . . . . . . . 12'];
    const bytes = layoutPdf([
      { texts: [{ x: 72, y: 660, text: 'List of Figures', bold: true, size: 16 }, ...entries.map((text, i) => ({ x: 72, y: 630 - i * 16, text }))] },
      { texts: [...lines(72, 660, [LONG_1, LONG_2, LONG_3]), { x: 72, y: 600, text: 'Figure 1-1 Wells by district' }, ...lines(72, 576, [LONG_1])] },
    ]);
    const result = await extract({ bytes, filename: 'report.pdf' });
    expect(result.elements!.filter((e) => e.page === 1).map((e) => e.type)).toEqual(['title', 'paragraph', 'paragraph', 'paragraph']);
    expect(result.elements!.filter((e) => e.type === 'caption').map((e) => [e.page, e.text])).toEqual([[2, 'Figure 1-1 Wells by district']]);
  });

  it('finds a figure from its image and the caption under it', async () => {
    const bytes = layoutPdf([
      {
        texts: [...lines(72, 720, ['Wells dug since the war, by decade:']), { x: 72, y: 480, text: 'Figure 1: Wells dug per decade.' }, ...lines(72, 450, ['The trend is plain.'])],
        images: [{ x: 72, y: 500, width: 300, height: 200 }],
      },
    ]);
    const result = await extract({ bytes, filename: 'figure.pdf', config: markdown });
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'figure', 'caption', 'paragraph']);
    const figure = result.elements![1]!;
    expect(figure.bbox).toEqual([72, 92, 372, 292]);
    expect(figure.char_end).toBe(figure.char_start);
    expect(result.content).toBe('Wells dug since the war, by decade:\n\nFigure 1: Wells dug per decade.\n\nThe trend is plain.');
  });

  it('takes a chart drawn with paths for a figure, with tick numbers beside it, and its axis title for a label, not a heading; an ornament with no numbers beside it is neither, and the title by it a title; a fitted line drawn in four pieces is a chart, a rounded box is not', async () => {
    // A line of ten slanted segments over 200 by 100 points, four tick numbers under it, an axis title in 14-point bold.
    const line = `1 w 100 500 m ${Array.from({ length: 10 }, (_, i) => `${120 + i * 20} ${i % 2 ? 520 + i * 8 : 510 + i * 9} l`).join(' ')} S`;
    const ticks = ['0', '10', '20', '30'].map((t, i) => textAt(100 + i * 60, 485, t));
    const chartTitle = 'BT /F1 14 Tf 1 0 0 1 140 465 Tm (Accuracy by year) Tj ET';
    const prose = [LONG_1, LONG_2, LONG_3].map((t, i) => textAt(72, 700 - i * 12, t));
    const after = [LONG_1, LONG_2].map((t, i) => textAt(72, 420 - i * 12, t));
    const content = [...prose, line, ...ticks, chartTitle, ...after].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'chart.pdf', config: markdown });
    const types = result.elements!.map((e) => e.type);
    expect(types).not.toContain('heading');
    const figure = result.elements!.find((e) => e.type === 'figure')!;
    // The drawing's box, grown over its tick labels under it.
    const tickRow = result.elements!.find((e) => e.text === '0 10 20 30')!;
    expect(figure.bbox).toEqual([100, 200, 300, tickRow.bbox![3]]);
    // The labels follow the page's flow.
    expect(result.content.split('\n\n')).toEqual([`${LONG_1} ${LONG_2} ${LONG_3}`, `${LONG_1} ${LONG_2}`, '0 10 20 30', 'Accuracy by year']);
    // The same curve with no numbers beside it is a designed page's ornament: the title by it stays a heading.
    const ornament = await extract({ bytes: drawnPdf([...prose, line, chartTitle, ...after].join('\n')), filename: 'ornament.pdf', config: markdown });
    expect(ornament.elements!.filter((e) => e.type !== 'paragraph').map((e) => [e.type, e.text])).toEqual([['title', 'Accuracy by year']]);
    // A fitted line drawn as four pieces is a chart too; a rounded box's four curved corners, numbers in it or not, are not.
    const pieces = Array.from({ length: 4 }, (_, i) => `1 w ${100 + i * 50} ${500 + i * 20} m ${150 + i * 50} ${520 + i * 20} l S`).join('\n');
    const fitted = await extract({ bytes: drawnPdf([...prose, pieces, ...ticks, chartTitle, ...after].join('\n')), filename: 'fitted.pdf', config: markdown });
    expect(fitted.elements!.filter((e) => e.type === 'figure').map((e) => e.bbox)).toEqual([[100, 212, 300, tickRow.bbox![3]]]);
    const box = '1 w 110 480 m 290 480 l 300 480 300 490 300 490 c 300 590 l 300 600 290 600 290 600 c 110 600 l 100 600 100 590 100 590 c 100 490 l 100 480 110 480 110 480 c S';
    const boxed = await extract({ bytes: drawnPdf([...prose, box, ...ticks, chartTitle, ...after].join('\n')), filename: 'boxed.pdf', config: markdown });
    expect(boxed.elements!.some((e) => e.type === 'figure')).toBe(false);
  });

  it('takes a drawing with no numbers for a figure where a figure\'s caption stands under it (a diagram), its words for its labels after the page\'s flow; a table\'s caption makes no figure of it', async () => {
    // Ten slanted segments over 200 by 100 points (a diagram's arrows), two words among them, a caption under them.
    const arrows = `1 w 100 500 m ${Array.from({ length: 10 }, (_, i) => `${120 + i * 20} ${i % 2 ? 520 + i * 8 : 510 + i * 9} l`).join(' ')} S`;
    const words = [textAt(120, 560, 'Interpret'), textAt(230, 540, 'Record')];
    const prose = [LONG_1, LONG_2, LONG_3].map((t, i) => textAt(72, 700 - i * 12, t));
    const after = [LONG_1, LONG_2].map((t, i) => textAt(72, 420 - i * 12, t));
    const read = (caption: string) => extract({ bytes: drawnPdf([...prose, arrows, ...words, textAt(100, 480, caption), ...after].join('\n')), filename: 'diagram.pdf', config: markdown });
    const diagram = await read('Figure 2. The states of the tracing machine.');
    expect(diagram.elements!.map((e) => e.type)).toEqual(['paragraph', 'figure', 'caption', 'paragraph', 'paragraph', 'paragraph']);
    expect(diagram.content.split('\n\n')).toEqual([`${LONG_1} ${LONG_2} ${LONG_3}`, 'Figure 2. The states of the tracing machine.', `${LONG_1} ${LONG_2}`, 'Interpret', 'Record']);
    const table = await read('Table 2. The states of the tracing machine.');
    expect(table.elements!.some((e) => e.type === 'figure')).toBe(false);
  });

  it('takes a bold "Tabla 2:" or "Abbildung 3." for a caption, not a heading, in the languages it knows', async () => {
    const captions = ['Tabla 2: Pozos por década', 'Abbildung 3. Brunnen je Jahrzehnt', 'Tableau 1 : Puits par décennie'];
    const bytes = layoutPdf([
      { texts: captions.flatMap((caption, i) => [{ x: 72, y: 700 - i * 80, text: caption, size: 12, bold: true }, ...lines(72, 680 - i * 80, ['The table above counts the wells.'])]) },
    ]);
    const result = await extract({ bytes, filename: 'captions.pdf' });
    expect(result.elements!.filter((e) => e.type === 'caption').map((e) => e.text)).toEqual(captions);
  });

  it('reads a sentence that opens with a table\'s or a figure\'s number ("Table 2-2 shows ...") as a paragraph, not a caption', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 700, ['Table 2-2 shows a comparison of the different function usage IDs and the', 'authorities they need.']),
          ...lines(72, 660, ['Table 2-2   Comparison of the function usage IDs']),
          ...lines(72, 620, ['Figure 3 illustrates the flow of a request through the service.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'references.pdf' });
    expect(result.elements!.map((e) => e.type)).toEqual(['paragraph', 'caption', 'paragraph']);
  });

  it('reads a title set letter-spaced as its words, but keeps a row of single letters apart', async () => {
    // Each letter placed on its own, 4 points apart, and 14 points between the words.
    const spaced = (y: number, words: string[]) => {
      let x = 72;
      return words.flatMap((word) =>
        [...word].map((letter, i) => {
          const placed = { x, y, text: letter, size: 16 };
          x += 12 + (i === word.length - 1 ? 14 : 4);
          return placed;
        }),
      );
    };
    const choices = ['A', 'B', 'C', 'D', 'E', 'F'].map((letter, i) => ({ x: 72 + i * 14, y: 600, text: letter }));
    const bytes = layoutPdf([{ texts: [...spaced(720, ['ANNUAL', 'REPORT']), ...lines(72, 680, [LONG_1]), ...choices] }]);
    const result = await extract({ bytes, filename: 'spaced.pdf' });
    expect(result.content.split('\n\n')).toEqual(['ANNUAL REPORT', LONG_1, 'A B C D E F']);
  });

  it('reads text set slightly letter-spaced as its words where PDFium keeps some letters together', async () => {
    // Apache Tika's testExtraSpaces.pdf (test/fixtures/README.md): each glyph drawn on its own, 1.7 points
    // apart and 6 between words; PDFium reads "H e re i s so me fo rma tte d te xt".
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/testExtraSpaces.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'spaces.pdf' });
    expect(result.content).toBe('Here is some formatted text');
  });

  it('keeps the spaces of a line of short words that has a wide gap in it', async () => {
    // Word spaces a quarter of the type's size, and one gap of 40 points: not letter spacing.
    const widths: Record<string, number> = { I: 278, a: 556, m: 833, b: 556, o: 556, x: 500, f: 278, k: 500, i: 222, n: 556, d: 556 };
    let x = 72;
    const placed = ['I', 'am', 'a', 'box', 'of', 'a', 'kind'].map((word, k) => {
      const at = x;
      x += [...word].reduce((w, c) => w + (widths[c]! * 10) / 1000, 0) + (k === 3 ? 40 : 2.5);
      return textAt(at, 700, word);
    });
    const result = await extract({ bytes: drawnPdf(placed.join('\n')), filename: 'short.pdf' });
    expect(result.content.replace(/\s+/g, ' ')).toBe('I am a box of a kind');
  });

  it('reads Chinese and Japanese without spaces between their characters, even set letter-spaced', async () => {
    // Made by LibreOffice from cjk-spacing.html (test/fixtures/README.md).
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/cjk-spacing.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'cjk.pdf' });
    expect(result.content.trim().split('\n\n')).toEqual(['本报告介绍了北方地区水井的调查结果。', '日本語の文章は単語の間に空白を入れない。']);
  });

  it('cuts section chunks at headings, each with its heading path and the boxes it covers', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Methods', size: 16, bold: true },
          ...lines(72, 696, ['We measured the wells.']),
          { x: 72, y: 670, text: 'Sampling', size: 12, bold: true },
          ...lines(72, 650, ['Every tenth well was sampled.']),
          { x: 72, y: 620, text: 'Results', size: 16, bold: true },
          ...lines(72, 596, ['Most wells were dry.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 's.pdf', config: { ...markdown, chunking: { strategy: 'section', max_chars: 4000, overlap: 0 } } });
    expect(result.chunks.map((c) => [c.text.trim(), c.headings])).toEqual([
      ['# Methods\n\nWe measured the wells.', ['Methods']],
      ['## Sampling\n\nEvery tenth well was sampled.', ['Methods', 'Sampling']],
      ['# Results\n\nMost wells were dry.', ['Results']],
    ]);
    expect(result.chunks[0]!.boxes).toHaveLength(2);
    expect(result.chunks[0]!.boxes![0]!.page).toBe(1);
  });

  it('keeps a paragraph that runs over a page break whole, on the page where it starts, and ends a block at a line far shorter than the next', async () => {
    const bytes = layoutPdf([
      { texts: [...lines(72, 700, ['Summary']), ...lines(72, 688, [LONG_1, LONG_2, 'last decade, which the committee took to be the main cause of the shortage and'])] },
      // The next paragraph stands a blank line below.
      { texts: [...lines(72, 700, ['the reason the survey was ordered in the first place.']), ...lines(72, 676, ['A new paragraph starts here.'])] },
    ]);
    const result = await extract({ bytes, filename: 'runs-on.pdf' });
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph');
    expect(paragraphs.map((e) => [e.page, e.text])).toEqual([
      [1, 'Summary'],
      [1, `${LONG_1} ${LONG_2} last decade, which the committee took to be the main cause of the shortage and the reason the survey was ordered in the first place.`],
      [2, 'A new paragraph starts here.'],
    ]);
  });

  it('runs a paragraph on over a page break before a capital, past the footnote under it, unless the next page opens with an indent', async () => {
    const unfinished = 'last decade, which the committee took to be the main cause of the shortage in';
    const footnote = { x: 72, y: 90, text: '1 The survey was published in 1998.', size: 8 };
    const page2 = (x: number) => [{ x, y: 700, text: 'Northern Province, where the survey had begun. It was the first survey there and' }, ...lines(72, 688, ['it found the same.'])];
    const pdf = (x: number) => layoutPdf([{ texts: [...lines(72, 700, [LONG_1, LONG_2, unfinished]), footnote] }, { texts: page2(x) }]);
    const joined = await extract({ bytes: pdf(72), filename: 'runs-on-capital.pdf' });
    expect(joined.elements!.filter((e) => e.type === 'paragraph').map((e) => [e.page, e.text])).toEqual([
      [1, `${LONG_1} ${LONG_2} ${unfinished} Northern Province, where the survey had begun. It was the first survey there and it found the same.`],
    ]);
    expect(joined.elements!.filter((e) => e.type === 'footnote').map((e) => e.text)).toEqual([footnote.text]);
    // An indented first line opens a paragraph of its own, as a book sets it.
    const apart = await extract({ bytes: pdf(87), filename: 'indented.pdf' });
    expect(apart.elements!.filter((e) => e.type === 'paragraph').map((e) => e.page)).toEqual([1, 2]);
  });

  it('reads a listing in a fixed-pitch face its font does not name as one (no flag, an unknown name) as code, from its words\' widths', async () => {
    const listing = ['SELECT function_id, user_name', 'FROM function_usage', 'WHERE usage = 1 AND user_type = 2', 'ORDER BY user_name;'];
    // A Type 3 face (its glyphs drawn in the file: PDFium infers no pitch for it, as for an embedded font) whose every
    // glyph advances 600 thousandths of an em, and whose descriptor says what a serif face's would: nonsymbolic (32).
    const glyphNames: Record<string, string> = { ' ': 'space', ',': 'comma', _: 'underscore', ';': 'semicolon', '=': 'equal', '1': 'one', '2': 'two' };
    const chars = [...new Set(listing.join(''))];
    const glyph = (c: string) => glyphNames[c] ?? c;
    const box = '600 0 0 0 500 700 d1 50 0 400 700 re f';
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 6 0 R >> >> /Contents 5 0 R >>',
      (() => {
        const prose = [LONG_1, LONG_2, LONG_3].map((t, i) => textAt(72, 700 - i * 12, t));
        const code = listing.map((t, i) => `BT /F2 10 Tf 1 0 0 1 72 ${640 - i * 12} Tm (${t}) Tj ET`);
        const content = [...prose, ...code].join('\n');
        return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
      })(),
      `<< /Type /Font /Subtype /Type3 /FontBBox [0 -200 600 800] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << ${chars.map((c) => `/${glyph(c)} 8 0 R`).join(' ')} >> ` +
        `/Encoding << /Type /Encoding /Differences [${chars.map((c) => `${c.charCodeAt(0)} /${glyph(c)}`).join(' ')}] >> /FirstChar 32 /LastChar 126 /Widths [${Array(95).fill(600).join(' ')}] /FontDescriptor 7 0 R >>`,
      '<< /Type /FontDescriptor /FontName /BookMasterGothic /Flags 32 /FontBBox [0 -200 600 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>',
      `<< /Length ${box.length} >>\nstream\n${box}\nendstream`,
    ]);
    const result = await extract({ bytes, filename: 'manual.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`], ['code', listing.join('\n')]]);
  });

  it('reads a fixed-pitch listing as code with its indentation and the spaces inside its lines, its dashes and numbers its own text, not list items', async () => {
    const listing = ['jobs:', '  test:', '    steps:', '      - uses: actions/checkout', '      - run: npm test   # twice', '1. build the image'];
    // Courier's characters are 0.6 em wide: each line starts, and each word after a run of spaces, where its column is.
    const texts = listing.flatMap((line, i) =>
      [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ x: 72 + 6 * m.index!, y: 660 - i * 12, text: m[0], mono: true })),
    );
    const result = await extract({ bytes: layoutPdf([{ texts: [...lines(72, 700, [LONG_1, LONG_2, LONG_3]), ...texts] }]), filename: 'listing.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`], ['code', listing.join('\n')]]);
    expect(result.content).toBe(`${LONG_1} ${LONG_2} ${LONG_3}\n\n\`\`\`\n${listing.join('\n')}\n\`\`\``);
  });

  it('runs a paragraph set large on over a page break into its tail, though the tail alone would pass for a heading, unless the tail is set in another weight', async () => {
    const large = ['The survey of the northern wells found', 'that most of the households relied on', 'water from wells dug before the war and'];
    const pdf = (bold: boolean) =>
      layoutPdf([
        { texts: [...lines(72, 700, [LONG_1, LONG_2, LONG_3]), ...large.map((text, i) => ({ x: 72, y: 640 - i * 22, text, size: 18 }))] },
        { texts: [{ x: 72, y: 700, text: 'by a third since then', size: 18, bold }, ...lines(72, 670, [LONG_1, LONG_2, LONG_3])] },
      ]);
    const joined = await extract({ bytes: pdf(false), filename: 'large.pdf' });
    expect(joined.elements!.map((e) => [e.type, e.page])).toEqual([['paragraph', 1], ['paragraph', 1], ['paragraph', 2]]);
    expect(joined.elements![1]!.text).toBe(`${large.join(' ')} by a third since then`);
    const heading = await extract({ bytes: pdf(true), filename: 'large-heading.pdf' });
    expect(heading.elements!.map((e) => e.type)).toEqual(['paragraph', 'paragraph', 'heading', 'paragraph']);
  });

  it('keeps entries apart, with or without space between paragraphs: an outline\'s next capital and stop, a capital and stop after a short line, rows parted by a tab; an address stays one paragraph', async () => {
    const paragraph = (y: number) => lines(72, y, [LONG_1, LONG_2, LONG_3]);
    const texts = [
      ...paragraph(720),
      ...paragraph(672),
      ...lines(72, 624, ['A. PURPOSE 1-1', 'B. ROLE OF THE TRUSTEE 1-1', 'C. STATUTORY DUTIES 1-2']),
      ...paragraph(576),
      // A word processor sets the tab as a gap inside the line.
      ...lines(72, 528, [`28 U.S.C. 586(b)${' '.repeat(12)}Appointment of the trustee`, `28 C.F.R. 58.3${' '.repeat(14)}Eligibility for appointment`]),
      ...paragraph(492),
      ...lines(72, 444, ['Office of the Trustee', '20 Main Street', 'Springfield']),
      ...paragraph(396),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'entries.pdf' });
    const body = `${LONG_1} ${LONG_2} ${LONG_3}`;
    expect(result.content.split('\n\n')).toEqual([
      body,
      body,
      'A. PURPOSE 1-1',
      'B. ROLE OF THE TRUSTEE 1-1',
      'C. STATUTORY DUTIES 1-2',
      body,
      '28 U.S.C. 586(b) Appointment of the trustee',
      '28 C.F.R. 58.3 Eligibility for appointment',
      body,
      'Office of the Trustee 20 Main Street Springfield',
      body,
    ]);
    // Set solid, with no space between paragraphs: the next letter of an outline's entries, each longer than the last, and tab-parted rows.
    const solid = [
      ...lines(72, 740, [LONG_1, LONG_2, LONG_3]),
      { x: 72, y: 700, text: 'Contents', bold: true },
      ...lines(72, 688, ['B. ROLE 1-1', 'C. STATUTORY DUTIES OF THE TRUSTEE 1-2', `28 U.S.C. 586(b)${' '.repeat(12)}Appointment of the trustee`, `28 C.F.R. 58.3${' '.repeat(14)}Eligibility for appointment`]),
      ...lines(72, 636, [LONG_1, LONG_2, LONG_3]),
    ];
    const unspaced = await extract({ bytes: layoutPdf([{ texts: solid }]), filename: 'entries-solid.pdf' });
    expect(unspaced.content.split('\n\n')).toEqual([
      body,
      'Contents',
      'B. ROLE 1-1',
      'C. STATUTORY DUTIES OF THE TRUSTEE 1-2',
      '28 U.S.C. 586(b) Appointment of the trustee',
      '28 C.F.R. 58.3 Eligibility for appointment',
      body,
    ]);
  });

  it('keeps a contents list\'s entries numbered by section ("2.3.59.1.4", "2.3.59-13") apart, at any indent, but runs a sentence on over a number', async () => {
    const entries = ['2.3.59.1 Program Scope and Objectives', '2.3.59.1.3 Responsibilities or Roles and Responsibilities', '2.3.59.1.4 Program Management and Review', '2.3.59.2 Command Code Overview', '2.3.59-13 Command Code Entity Display'];
    const texts = [
      ...entries.map((text, i) => ({ x: i === 1 || i === 2 ? 90 : 72, y: 720 - i * 12, text })),
      ...lines(72, 640, ['The survey of the northern districts found that the wells listed in section', '2.3.59.1 of the manual were dug before the war, and the water table had fallen.']),
    ];
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'contents.pdf' });
    expect(result.content.split('\n\n')).toEqual([...entries, 'The survey of the northern districts found that the wells listed in section 2.3.59.1 of the manual were dug before the war, and the water table had fallen.']);
  });

  it('keeps contents entries that end in leader dots and a page number apart, each line full to the margin, and runs on one wrapped over two lines', async () => {
    const leader = (title: string, page: string) => `${title} ${'. '.repeat(Math.floor((78 - title.length - page.length) / 2))}${page}`;
    const entries = [leader('Notices', 'vii'), leader('Preface', 'xi'), leader('Chapter 1. Securing and protecting the data', '1'), leader('1.1 Security fundamentals', '2')];
    const wrapped = ['2.1.7 Verifying function usage IDs for the access controls with the', leader('FUNCTION_USAGE view', '10')];
    const texts = [...entries, ...wrapped].map((text, i) => ({ x: 72, y: 720 - i * 12, text }));
    const result = await extract({ bytes: layoutPdf([{ texts }]), filename: 'contents.pdf' });
    expect(result.content.split('\n\n')).toEqual([...entries, wrapped.join(' ')]);
  });

  it('reads a line that opens with the middle dot its line above sets between terms as that line run on, not as a list item', async () => {
    const bytes = layoutPdf([
      {
        texts: lines(72, 700, [
          'Keywords: Document Image Analysis \u00b7 Deep Learning \u00b7 Layout Analysis',
          '\u00b7 Character Recognition \u00b7 Open Source Library \u00b7 Toolkit.',
          '\u00b7 A real item follows a blank line.',
        ]).map((t, i) => (i === 2 ? { ...t, y: t.y - 12 } : t)),
      },
    ]);
    const result = await extract({ bytes, filename: 'keywords.pdf' });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', 'Keywords: Document Image Analysis \u00b7 Deep Learning \u00b7 Layout Analysis \u00b7 Character Recognition \u00b7 Open Source Library \u00b7 Toolkit.'],
      ['list_item', 'A real item follows a blank line.'],
    ]);
  });

  it('keeps two bold headings side by side as headings when each heads its own column of prose', async () => {
    const prose = (x: number) => lines(x, 676, ['This column sets out the first module of the course and', 'what it covers, in three lines of plain running text that', 'end where the column ends at the foot of it.']);
    const bytes = layoutPdf([
      {
        texts: [{ x: 72, y: 700, text: 'Module One: Planning', bold: true }, ...prose(72), { x: 320, y: 700, text: 'Module Two: Design', bold: true }, ...prose(320)],
      },
    ]);
    const result = await extract({ bytes, filename: 'two-modules.pdf' });
    const headings = result.elements!.filter((e) => e.type === 'heading' || e.type === 'title').map((e) => e.text);
    expect(headings).toEqual(['Module One: Planning', 'Module Two: Design']);
  });

  it('opens a paragraph at an indented line after a line that ends a sentence a little short of the margin, as books set them', async () => {
    const second = ['Wells dug since then reach deeper water, and most of them held up through the dry', 'summers that followed.'];
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 700, [LONG_1, LONG_2, 'last decade, which the committee took to be the main cause of drought.']),
          // No space between the paragraphs: the indent alone says where the second begins.
          ...lines(87, 664, second.slice(0, 1)),
          ...lines(72, 652, second.slice(1)),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'book.pdf', config: markdown });
    expect(result.content.split('\n\n')).toEqual([`${LONG_1} ${LONG_2} last decade, which the committee took to be the main cause of drought.`, second.join(' ')]);
  });

  it('ends a paragraph at a line that ends a sentence with room left for the next word, however alike the lines, and keeps a centred title whole', async () => {
    // The title's lines centred on the page (612 points wide): their widths, as the reader measures them, first.
    const title = ['A Report on the Wells of the Northern', 'and Eastern Districts'];
    const measured = await extract({ bytes: layoutPdf(title.map((text) => ({ texts: [{ x: 72, y: 720, text, size: 14, bold: true }] }))), filename: 'widths.pdf' });
    const widths = measured.elements!.map((e) => e.bbox![2] - e.bbox![0]);
    // Paragraphs without space between them: the first two of about the same length; the third the
    // longest line and a short one; the fourth three quarters of the longest, with room left on it
    // for the first word of the fifth.
    const notes = [
      ['The first well was dug in the spring.'],
      ['The last well was dug in the spring.'],
      ['A third was planned for the following year, once the funds were in,', 'but none came.'],
      ['Work stopped when the money ran out in the winter.'],
      ['It is a field again.'],
    ];
    const bytes = layoutPdf([
      {
        texts: [
          ...title.map((text, i) => ({ x: 306 - widths[i]! / 2, y: 720 - i * 17, text, size: 14, bold: true })),
          ...lines(72, 670, notes.flat()),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'notes.pdf', config: markdown });
    expect(result.content.split('\n\n')).toEqual([`# ${title.join(' ')}`, ...notes.map((n) => n.join(' '))]);
  });

  it('takes TeX\'s Computer Modern bold (CMBX10), whose stems weigh under 600, for bold: a numbered line in it is a heading', async () => {
    const body = [LONG_1, LONG_2, LONG_3].map((text, i) => `BT /F1 10 Tf 1 0 0 1 72 ${676 - i * 12} Tm (${text}) Tj ET`);
    const content = [`BT /F2 10 Tf 1 0 0 1 72 700 Tm (3.1 Layout Detection Models) Tj ET`, ...body].join('\n');
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [5 0 R] /Count 1 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /CMBX10 /Encoding /WinAnsiEncoding >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents 6 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ]);
    const result = await extract({ bytes, filename: 'cm.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['heading', '3.1 Layout Detection Models'],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
    ]);
  });

  it('takes the body for the type of a document\'s tables where its text outside them is headings alone, but keeps short lines as the body where nothing smaller holds as much', async () => {
    // Two ruled tables, their middle lines at different places.
    const grid = (top: number, middle: number, left = 72) =>
      [`0 G 0.5 w ${left} ${top - 60} m ${left} ${top} l S ${middle} ${top - 60} m ${middle} ${top} l S 480 ${top - 60} m 480 ${top} l S`, ...[0, 20, 40, 60].map((d) => `${left} ${top - d} m 480 ${top - d} l S`)].join('\n');
    const cells = (top: number, middle: number, rows: string[][], left = 72) => rows.flatMap((row, i) => row.map((cell, c) => textAt(c === 0 ? left + 4 : middle + 4, top - 14 - i * 20, cell)));
    const heading = (y: number, text: string, x = 72) => `BT /F1 16 Tf 1 0 0 1 ${x} ${y} Tm (${text}) Tj ET`;
    const content = [
      heading(740, 'Table with rich cells'),
      grid(720, 250),
      ...cells(720, 250, [['Column A', 'Column B'], ['This is a list of wells', 'This is a formatted list'], ['First paragraph here', 'Second paragraph there']]),
      heading(600, 'Table with nested table'),
      grid(560, 320, 100),
      ...cells(560, 320, [['Column A', 'Column B'], ['Simple cell upper left', 'Simple cell with bold text'], ['Rich cell beside it', 'A nested table inside']], 100),
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'tables.pdf', config: markdown });
    expect(result.elements!.map((e) => e.type)).toEqual(['heading', 'table', 'heading', 'table']);
    // Short lines set apart in one size (a slide's, a poster's), a small footer under them: the lines are the body, no headings.
    const lines = ['North well, dug in 1931', 'South well, dug in 1954', 'East well, dug in 1962', 'West well, dug in 1977'];
    const list = [...lines.map((text, i) => heading(700 - i * 50, text, i % 2 ? 330 : 72)), 'BT /F1 8 Tf 1 0 0 1 72 40 Tm (Survey office) Tj ET'].join('\n');
    const listed = await extract({ bytes: drawnPdf(list), filename: 'wells.pdf', config: markdown });
    expect(listed.elements!.filter((e) => e.type === 'heading' || e.type === 'title')).toEqual([]);
  });

  it('takes a bold line in the body size for a heading, but not when it ends in a colon: that labels what follows', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: 'Field Notes', bold: true },
          ...lines(72, 680, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 636, text: 'Practice tips:', bold: true },
          ...lines(72, 620, ['1. Measure each well twice.', '2. Write the date on every sample.']),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'notes.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['heading', 'Field Notes'],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
      ['paragraph', 'Practice tips:'],
      ['list_item', 'Measure each well twice.'],
      ['list_item', 'Write the date on every sample.'],
    ]);
  });

  it('takes a short italic line on its own, nearer the text under it, for the lowest heading where the body is upright, but not an italic sentence, a numbered example\'s caption or a signature line', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 720, text: 'Self-Locking Nuts', bold: true },
          ...lines(72, 700, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 654, text: 'Boots Self-Locking Nut', italic: true },
          ...lines(72, 642, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 596, text: 'Tighten each nut by hand first.', italic: true },
          ...lines(72, 584, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 538, text: 'Example 3-10 Locking a nut', italic: true },
          ...lines(72, 526, [LONG_1, LONG_2, 'at all costs.']),
          // Set under the letter it signs a little apart from it, with a blank line under it.
          { x: 72, y: 486, text: 'Warden of the Northern Wells', italic: true },
          ...lines(72, 466, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'handbook.pdf', config: markdown });
    const paragraph = `${LONG_1} ${LONG_2} ${LONG_3}`;
    expect(result.elements!.map((e) => [e.type, e.text, e.level])).toEqual([
      ['heading', 'Self-Locking Nuts', 1],
      ['paragraph', paragraph, undefined],
      ['heading', 'Boots Self-Locking Nut', 2],
      ['paragraph', paragraph, undefined],
      ['paragraph', 'Tighten each nut by hand first.', undefined],
      ['paragraph', paragraph, undefined],
      ['caption', 'Example 3-10 Locking a nut', undefined],
      ['paragraph', `${LONG_1} ${LONG_2} at all costs.`, undefined],
      ['paragraph', 'Warden of the Northern Wells', undefined],
      ['paragraph', paragraph, undefined],
    ]);
  });

  it('keeps a paragraph that opens with a bold sentence whole, where the bold runs into plain text on its second line or ends with its first', async () => {
    const lead = ['Most of the wells in the northern districts will have run dry within a decade unless', 'the water table'];
    const rest = 'stops falling. The survey found that the oldest wells fail first.';
    const measured = await extract({ bytes: layoutPdf([{ texts: [{ x: 72, y: 720, text: lead[1]!, bold: true }] }]), filename: 'width.pdf' });
    const width = measured.elements![0]!.bbox![2] - measured.elements![0]!.bbox![0];
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: 'Outlook', size: 14, bold: true },
          { x: 72, y: 680, text: lead[0]!, bold: true },
          { x: 72, y: 668, text: lead[1]!, bold: true },
          { x: 72 + width + 3, y: 668, text: rest },
          ...lines(72, 656, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'outlook.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['title', 'Outlook'],
      ['paragraph', `${lead.join(' ')} ${rest}`],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
    ]);
    // The bold ends with its full line, and the plain line under it carries the sentence on in lower case.
    const plain = `${lead[1]} ${rest}`;
    const endsWithLine = layoutPdf([
      { texts: [{ x: 72, y: 700, text: 'Outlook', size: 14, bold: true }, { x: 72, y: 680, text: lead[0]!, bold: true }, { x: 72, y: 668, text: plain }, ...lines(72, 656, [LONG_1, LONG_2, LONG_3])] },
    ]);
    const ended = await extract({ bytes: endsWithLine, filename: 'outlook-line.pdf', config: markdown });
    expect(ended.elements!.map((e) => [e.type, e.text])).toEqual([
      ['title', 'Outlook'],
      ['paragraph', `${lead[0]} ${plain}`],
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
    ]);
  });

  it('keeps a paragraph whose bold lead sentence fills its line whole, where the plain text goes on at the line spacing, and one cut from it by a page break', async () => {
    const lead = 'Most of the wells in the northern districts will run dry within a decade or two.';
    const page = (gap: number, text = lead) => ({
      texts: [{ x: 72, y: 680, text, bold: true }, ...lines(72, 668 - gap, [LONG_1, LONG_2, LONG_3])],
    });
    const paragraphs = async (pages: ReturnType<typeof page>[]) =>
      (await extract({ bytes: layoutPdf(pages), filename: 'lead.pdf', config: markdown })).elements!.map((e) => [e.type, e.text]);
    expect(await paragraphs([page(0)])).toEqual([['paragraph', `${lead} ${LONG_1} ${LONG_2} ${LONG_3}`]]);
    // Set apart by more than the line spacing, or with room left on its line, the bold sentence is a block of its own.
    expect((await paragraphs([page(8)])).map(([, text]) => text)).toEqual([lead, `${LONG_1} ${LONG_2} ${LONG_3}`]);
    expect((await paragraphs([page(0, 'Most of the wells will run dry.')])).map(([, text]) => text)).toEqual(['Most of the wells will run dry.', `${LONG_1} ${LONG_2} ${LONG_3}`]);
    // A bold lead alone at a page's foot, unfinished, and the plain paragraph that carries it on at the next page's top.
    const cut = 'Most of the wells in the northern districts will run dry within a decade unless';
    const tail = ['"the rains" come back, which the committee of the province did not expect to', 'happen before the wells had failed.'];
    const overBreak = (text: string) => layoutPdf([{ texts: [...lines(72, 700, [LONG_1, LONG_2, LONG_3]), { x: 72, y: 600, text, bold: true }] }, { texts: lines(72, 700, tail) }]);
    const joined = await extract({ bytes: overBreak(cut), filename: 'lead-break.pdf', config: markdown });
    expect(joined.elements!.map((e) => [e.type, e.page, e.text])).toEqual([
      ['paragraph', 1, `${LONG_1} ${LONG_2} ${LONG_3}`],
      ['paragraph', 1, `${cut} ${tail.join(' ')}`],
    ]);
    // Short enough to pass for a heading on its page, it is still the lead of the paragraph it runs on into.
    const headingLike = 'Northern households accused the provincial water authorities of hiding';
    const lead2 = await extract({ bytes: overBreak(headingLike), filename: 'lead-heading.pdf', config: markdown });
    expect(lead2.elements!.map((e) => [e.type, e.page, e.text])).toEqual([
      ['paragraph', 1, `${LONG_1} ${LONG_2} ${LONG_3}`],
      ['paragraph', 1, `${headingLike} ${tail.join(' ')}`],
    ]);
    // A bold line with room left is a heading over the next page's text.
    const heading = await extract({ bytes: overBreak('Wells of the northern districts'), filename: 'heading-break.pdf', config: markdown });
    expect(heading.elements!.map((e) => [e.type, e.page])).toEqual([
      ['paragraph', 1],
      ['heading', 1],
      ['paragraph', 2],
    ]);
  });

  it('reads the pieces of a row set apart by a tab as one line, but keeps columns a producer wrote row by row apart', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: 'E.', size: 14, bold: true },
          { x: 108, y: 700, text: 'SURETY BONDS', size: 14, bold: true },
          ...lines(108, 670, ['The trustee keeps a bond in favour of the United States.']),
          { x: 108, y: 640, text: '11 U.S.C. § 322' },
          { x: 252, y: 640, text: 'Surety Bond' },
          { x: 108, y: 628, text: '11 U.S.C. § 1302' },
          { x: 252, y: 628, text: 'Bond Requirement' },
        ],
      },
      {
        // Two columns of running text, drawn a row of each at a time.
        texts: [0, 1, 2].flatMap((i) => [
          { x: 72, y: 700 - i * 12, text: `Left column line ${i + 1} runs on with more words` },
          { x: 285, y: 700 - i * 12, text: `Right column line ${i + 1} runs on with more words` },
        ]),
      },
    ]);
    const result = await extract({ bytes, filename: 'rows.pdf', config: markdown });
    const first = result.elements!.filter((e) => e.page === 1);
    expect(first.map((e) => [e.type, e.text])).toEqual([
      ['title', 'E. SURETY BONDS'],
      ['paragraph', 'The trustee keeps a bond in favour of the United States.'],
      // Each row one line, and the rows, parted by a tab alike, entries of their own.
      ['paragraph', '11 U.S.C. § 322 Surety Bond'],
      ['paragraph', '11 U.S.C. § 1302 Bond Requirement'],
    ]);
    const second = result.elements!.filter((e) => e.page === 2);
    for (const e of second) expect(e.text.includes('Left') && e.text.includes('Right')).toBe(false);
  });

  it('joins a paragraph over a page break when its ragged last line had no room for the next word, and cuts footers with the space before them', async () => {
    const footer = (n: number) => [
      { x: 72, y: 60, text: 'Handbook for Standing Trustees', size: 8 },
      { x: 72, y: 50, text: `Page ${n}`, size: 8 },
    ];
    const bytes = layoutPdf([
      // A ragged right edge: the last line stops two ems short of the longest, and "percentage" would not fit there.
      { texts: [...lines(72, 700, [LONG_1, 'wells dug before the war, and that the water table had fallen by', 'about a third in the last ten years, which the committee then took as the']), ...footer(1)] },
      { texts: [...lines(72, 700, ['percentage of the cause of the shortage.']), ...footer(2)] },
    ]);
    const result = await extract({ bytes, filename: 'ragged.pdf' });
    // Page 2 keeps its place in content (a page separator), though all its text joined page 1's paragraph.
    expect(result.content).toBe(`${LONG_1} wells dug before the war, and that the water table had fallen by about a third in the last ten years, which the committee then took as the percentage of the cause of the shortage.\n\n`);
  });

  it('runs a paragraph whose last line was ended short by hand on into a next page that opens in lower case at its margin, and an orphaned first line too, but not a short entry', async () => {
    const shortLast = [LONG_1, 'wells dug before the war, and the committee met on'];
    const tail = (x: number) => lines(x, 700, ['the first Monday of the month to hear the farmers of the district, as the', 'law of the province required of it.']);
    const paragraphs = async (pages: PlacedText[][]) =>
      (await extract({ bytes: layoutPdf(pages.map((texts) => ({ texts }))), filename: 'short-last.pdf' })).elements!.filter((e) => e.type === 'paragraph').map((e) => [e.page, e.text]);
    const joined = `${LONG_1} wells dug before the war, and the committee met on the first Monday of the month to hear the farmers of the district, as the law of the province required of it.`;
    expect(await paragraphs([lines(72, 700, shortLast), tail(72)])).toEqual([[1, joined]]);
    // Set at another margin, the next page's text is a block of its own.
    expect((await paragraphs([lines(72, 700, shortLast), tail(108)])).map(([page]) => page)).toEqual([1, 2]);
    // A first line alone at the foot of a page, as wide as the lines it runs on into.
    const orphan = [...lines(72, 700, [LONG_3]), ...lines(72, 400, ['The report of the committee to the council of the province said that the'])];
    expect(await paragraphs([orphan, tail(72)])).toEqual([
      [1, LONG_3],
      [1, 'The report of the committee to the council of the province said that the the first Monday of the month to hear the farmers of the district, as the law of the province required of it.'],
    ]);
    // A short entry of one line is not the start of the text after it.
    const entry = [...lines(72, 700, [LONG_3]), ...lines(72, 400, ['water supply'])];
    expect((await paragraphs([entry, tail(72)])).map(([page]) => page)).toEqual([1, 1, 2]);
  });

  it('cuts a footer read as the end of a page\'s last paragraph off it, knows a footer that names its chapter by its neighbouring pages, and joins the paragraph over the break', async () => {
    const chapters = ['Duties', 'Meetings', 'Plans', 'Claims', 'Payments'];
    const towns = ['Arden', 'Belmont', 'Carlow', 'Dunmore', 'Elgin', 'Fenwick', 'Galway', 'Hartley', 'Ilford', 'Jarrow', 'Kelso', 'Lanark', 'Moffat', 'Nairn', 'Oban'];
    // The last lines stand in the bottom band too, and the footer is set in the body's size, as close
    // under them as the lines are to each other: one block with them.
    const page = (c: number, k: number) => {
      const town = towns[c * 3 + k]!;
      // Its last line the longest: full, and the paragraph runs on over the page break.
      const body = [`the wells of ${town} were surveyed in the spring, and the committee`, `heard every farmer of ${town} and decided at the end of the day that`];
      return { texts: lines(72, 116, [...body, `Standing Trustees: ${chapters[c]}`, `Page ${c + 1}-${k + 1}`]) };
    };
    const pages = chapters.flatMap((_, c) => [0, 1, 2].map((k) => page(c, k)));
    // Each chapter's footer is on 3 of the 15 pages: a fifth of them, not the quarter a running footer needs.
    const result = await extract({ bytes: layoutPdf(pages), filename: 'handbook.pdf' });
    const footers = result.elements!.filter((e) => e.type === 'page_footer');
    expect(footers.map((e) => e.text)).toEqual(chapters.flatMap((name, c) => [1, 2, 3].flatMap((k) => [`Standing Trustees: ${name}`, `Page ${c + 1}-${k}`])));
    // The paragraph left unfinished on a page runs on into the next one's, as if the footer were not there.
    const paragraph = (town: string) => `the wells of ${town} were surveyed in the spring, and the committee heard every farmer of ${town} and decided at the end of the day that`;
    expect(result.content.split('\n\n')[0]).toBe(`${paragraph('Arden')} ${paragraph('Belmont')}`);
    expect(result.content).not.toMatch(/Standing Trustees|Page \d/);
  });

  it('takes a running foot numbered in roman figures, on the left of even pages and the right of odd ones, for a page footer', async () => {
    const feet = ['xii PREFACE', 'PREFACE xiii', 'xiv PREFACE', 'PREFACE xv'];
    const pages = feet.map((foot, i) => ({
      texts: [...lines(72, 600, [`Page ${i + 1} of the preface says why the book was written and for whom.`]), { x: i % 2 === 0 ? 72 : 450, y: 40, text: foot, size: 8 }],
    }));
    const result = await extract({ bytes: layoutPdf(pages), filename: 'book.pdf' });
    expect(result.elements!.filter((e) => e.type === 'page_footer').map((e) => e.text)).toEqual(feet);
    expect(result.content).not.toContain('PREFACE');
  });

  it('keeps a title repeated word for word over the pages of an exhibit, though the next exhibit\'s title differs only in its number', async () => {
    const page = (form: number, n: number) => ({
      texts: [
        { x: 72, y: 740, text: `Return Form ${form} Display`, size: 12, bold: true },
        ...lines(72, 600, [`Line ${n} of the screen shows the taxpayer's name and the period the`, 'return covers, as the examiner reads it.']),
        { x: 300, y: 40, text: String(n), size: 8 },
      ],
    });
    const pages = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => page(n <= 4 ? 941 : 1120, n));
    const result = await extract({ bytes: layoutPdf(pages), filename: 'exhibits.pdf' });
    const headings = result.elements!.filter((e) => e.type === 'heading' || e.type === 'title').map((e) => e.text);
    expect(headings).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `Return Form ${n <= 4 ? 941 : 1120} Display`));
    expect(result.elements!.filter((e) => e.type === 'page_footer')).toHaveLength(8);
  });

  it('keeps the first lines of a page printed twice as text, but takes a date over pages that differ below it for a running header', async () => {
    const letter = (body: string): PlacedText[] => [{ x: 72, y: 740, text: 'May 5, 2023' }, { x: 72, y: 716, text: 'To Whom it May Concern:' }, ...lines(72, 690, [body, LONG_2, LONG_3])];
    const twice = await extract({ bytes: layoutPdf([{ texts: letter(LONG_1) }, { texts: letter(LONG_1) }]), filename: 'twice.pdf' });
    expect(twice.elements!.map((e) => e.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph']);
    expect(twice.content.split('\n\n').slice(0, 2)).toEqual(['May 5, 2023', 'To Whom it May Concern:']);
    const differing = await extract({ bytes: layoutPdf([{ texts: letter(LONG_1) }, { texts: letter('The second page of the letter goes on with what the survey of the wells found') }]), filename: 'letter.pdf' });
    expect(differing.elements!.filter((e) => e.type === 'page_header').map((e) => e.text)).toEqual(['May 5, 2023', 'To Whom it May Concern:', 'May 5, 2023', 'To Whom it May Concern:']);
  });

  it('takes a footer stacked on the page number for furniture, and a footer alone on a blank page of a longer document', async () => {
    const footer = (n: number) => [
      { x: 240, y: 52, text: 'Annual Report 2025', size: 8 },
      { x: 300, y: 43, text: String(n), size: 8 },
    ];
    const body = (n: number) => lines(72, 600, [`Page ${n} opens with this sentence about the year that has gone by,`, 'and closes it on the second line.']);
    const pages = [1, 2, 3, 4, 5].map((n) => ({ texts: n === 3 ? footer(n) : [...body(n), ...footer(n)] }));
    const result = await extract({ bytes: layoutPdf(pages), filename: 'annual.pdf' });
    expect(result.content.split('\n\n')).toEqual([1, 2, '', 4, 5].map((n) => (n ? `Page ${n} opens with this sentence about the year that has gone by, and closes it on the second line.` : '')));
    // One page: the line stacked on the page number goes with it.
    const single = await extract({ bytes: layoutPdf([{ texts: [...body(1), ...footer(1)] }]), filename: 'one.pdf' });
    expect(single.elements!.filter((e) => e.type === 'page_footer').map((e) => e.text)).toEqual(['Annual Report 2025', '1']);
  });

  it('reads a page whose content stream draws its lines out of order by position: columns top to bottom, a title spanning them first', async () => {
    const A = ['The first paragraph of the left column opens', 'the argument and closes it on this line.'];
    const B = ['The second paragraph of the left column adds', 'evidence from the survey of the wells.'];
    const C = ['The right column carries the conclusion of', 'the report, and the last line ends it.'];
    const placed = [
      { x: 72, y: 740, text: 'Water in the North: a Survey of Wells', size: 16, bold: true },
      ...lines(72, 700, A),
      ...lines(72, 660, B),
      ...lines(290, 700, C),
      { x: 300, y: 40, text: '7', size: 8 },
    ];
    // Drawn bottom line first, the title last: the stream goes back up the page at almost every line.
    const bytes = layoutPdf([{ texts: [...placed].sort((a, b) => a.y - b.y) }]);
    const result = await extract({ bytes, filename: 'shuffled.pdf', config: markdown });
    expect(result.content).toBe(['# Water in the North: a Survey of Wells', A.join(' '), B.join(' '), C.join(' ')].join('\n\n'));
    expect(result.elements!.find((e) => e.type === 'page_footer')?.text).toBe('7');
  });

  it('reads a title block the stream draws after the two columns under it first, but keeps a right column that starts higher after the left one', async () => {
    const A = ['The left column opens the argument of the', 'report and closes it on this line here.'];
    const B = ['The right column carries the conclusion of', 'the report, and the last line ends it.'];
    const title = { x: 72, y: 740, text: 'Water in the North: a Survey of Wells', size: 16, bold: true };
    const byline = { x: 72, y: 716, text: 'Prepared by the survey office for the council' };
    // An office template's body drawn first and its banner after: only the banner is out of place.
    const banner = layoutPdf([{ texts: [...lines(72, 660, A), ...lines(300, 660, B), title, byline] }]);
    const read = await extract({ bytes: banner, filename: 'banner-last.pdf', config: markdown });
    expect(read.content).toBe(['# Water in the North: a Survey of Wells', byline.text, A.join(' '), B.join(' ')].join('\n\n'));
    // The right column starts above the left one's first line, but beside it, not over it: the stream's order stands.
    const columns = layoutPdf([{ texts: [...lines(72, 600, A), ...lines(300, 690, B)] }]);
    const kept = await extract({ bytes: columns, filename: 'columns.pdf', config: markdown });
    expect(kept.content).toBe([A.join(' '), B.join(' ')].join('\n\n'));
  });

  it('takes a page number set a tab apart from a running title, on the page\'s first line, for furniture even on a one-page document', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 760, text: '454', size: 8 },
          { x: 120, y: 760, text: 'O. Sanni, A.P.I. Popoola / Data in Brief 22 (2019) 451-457', size: 8 },
          ...lines(72, 700, [LONG_1, LONG_2, LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'article.pdf' });
    expect(result.content).toBe(`${LONG_1} ${LONG_2} ${LONG_3}`);
    expect(result.elements![0]).toMatchObject({ type: 'page_header', text: '454 O. Sanni, A.P.I. Popoola / Data in Brief 22 (2019) 451-457' });
  });

  it('joins a heading labelled by hand a tab before its text ("A.<tab>BANK ACCOUNTS ...") with its line hanging under that text', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          ...lines(72, 700, [LONG_1, LONG_2, LONG_3]),
          { x: 72, y: 640, text: 'A.', size: 14, bold: true },
          { x: 108, y: 640, text: 'BANK ACCOUNTS AND DEPOSIT, INVESTMENT AND', size: 14, bold: true },
          { x: 108, y: 624, text: 'DISBURSEMENT OF FUNDS', size: 14, bold: true },
          ...lines(108, 590, [LONG_1, LONG_2]),
          { x: 72, y: 540, text: 'B.', size: 14, bold: true },
          { x: 108, y: 540, text: 'SURETY BONDS', size: 14, bold: true },
          ...lines(108, 510, [LONG_3]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'manual.pdf' });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([
      ['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`],
      ['heading', 'A. BANK ACCOUNTS AND DEPOSIT, INVESTMENT AND DISBURSEMENT OF FUNDS'],
      ['paragraph', `${LONG_1} ${LONG_2}`],
      ['heading', 'B. SURETY BONDS'],
      ['paragraph', LONG_3],
    ]);
  });

  it('opens a block at a line that starts with a capital label a tab before its text ("A.<tab>PURPOSE"), under a short line in its type', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 72, y: 700, text: 'CHAPTER 1 - INTRODUCTION' },
          { x: 72, y: 688.5, text: 'A.' },
          { x: 108, y: 688.5, text: 'PURPOSE' },
          ...[LONG_1, LONG_2, LONG_3].map((text, i) => ({ x: 108, y: 666 - i * 13.6, text })),
        ],
      },
      {
        texts: [
          // A name's initial opening a line stands a word space from the name: the sentence runs on.
          { x: 72, y: 610, text: 'The report was read to the committee and signed by' },
          { x: 72, y: 596.4, text: 'A.' },
          { x: 84, y: 596.4, text: 'Smith, its secretary, on the last day of the session.' },
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'handbook.pdf' });
    expect(result.elements!.map((e) => e.text)).toEqual([
      'CHAPTER 1 - INTRODUCTION',
      'A. PURPOSE',
      `${LONG_1} ${LONG_2} ${LONG_3}`,
      'The report was read to the committee and signed by A. Smith, its secretary, on the last day of the session.',
    ]);
  });

  it('keeps a heading\'s capital label on its line on a page whose rows are written in pieces a gutter apart', async () => {
    // Rows written in two pieces each, as a word processor's run-in headings come out: the page's rows stay split.
    const pieces = (y: number, left: string, right: string): PlacedText[] => [
      { x: 108, y, text: left },
      { x: 108 + left.length * 5 + 20, y, text: right },
    ];
    const bytes = layoutPdf([
      {
        texts: [
          ...pieces(450, 'Equal opportunity in every workplace', 'the trustee must keep a workplace free'),
          ...pieces(420, 'Fair labor standards in every office', 'the trustee must comply with the law'),
          { x: 72, y: 712, text: 'F.', size: 14, bold: true, italic: true },
          { x: 108, y: 712, text: 'DUTY TO COMPLY WITH APPLICABLE EMPLOYMENT', size: 14, bold: true, italic: true },
          { x: 108, y: 696, text: 'RELATED LAWS', size: 14, bold: true, italic: true },
          ...lines(108, 660, [LONG_1, LONG_2, LONG_3]),
          { x: 108, y: 600, text: 'G.', size: 14, bold: true, italic: true },
          { x: 144, y: 600, text: 'RECORDS', size: 14, bold: true, italic: true },
          ...lines(108, 570, [LONG_1, LONG_2]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'manual.pdf' });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => e.text)).toEqual(['F. DUTY TO COMPLY WITH APPLICABLE EMPLOYMENT RELATED LAWS', 'G. RECORDS']);
  });

  it('keeps a year wrapped onto a line of its own under a title at the top of a one-page document as text, not as a page number', async () => {
    const bytes = layoutPdf([
      {
        texts: [
          { x: 57, y: 750, text: 'TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF', size: 11, bold: true },
          { x: 68, y: 737, text: '1934', size: 11, bold: true },
          ...lines(72, 600, [LONG_1, LONG_2]),
        ],
      },
    ]);
    const result = await extract({ bytes, filename: 'form.pdf' });
    expect(result.content).toContain('1934');
    expect(result.elements!.some((e) => e.type === 'page_header')).toBe(false);
  });

  it('leaves elements out when asked to', async () => {
    const bytes = layoutPdf([{ texts: lines(72, 700, ['Just one line.']) }]);
    const result = await extract({ bytes, filename: 'one.pdf', config: { ...DEFAULT_CONFIG, elements: false } });
    expect(result.elements).toBeUndefined();
    expect(result.content).toBe('Just one line.');
  });
});

describe('right-to-left PDFs', () => {
  it('reads a line a browser slants for a synthetic italic (a 14-degree shear, which PDFium reports as the glyphs\' angle) in its place in the paragraph, not as turned text', async () => {
    const content = [
      `BT /F1 10 Tf 1 0 0 1 72 700 Tm (${LONG_1}) Tj ET`,
      `BT /F1 10 Tf 1 0 0.25 1 72 688 Tm (${LONG_2}) Tj ET`,
      `BT /F1 10 Tf 1 0 0 1 72 676 Tm (${LONG_3}) Tj ET`,
    ].join('\n');
    const result = await extract({ bytes: drawnPdf(content), filename: 'slanted.pdf' });
    expect(result.elements!.map((e) => [e.type, e.text])).toEqual([['paragraph', `${LONG_1} ${LONG_2} ${LONG_3}`]]);
  });

  it('reads Hebrew and Arabic lines in logical order, with the numbers and Latin words inside them kept left to right', async () => {
    // Made by LibreOffice from rtl-hebrew-arabic.html (test/fixtures/README.md).
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/rtl-hebrew-arabic.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'rtl.pdf', config: markdown });
    // Full stops and commas drawn apart from their words still follow them without a space.
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text);
    expect(paragraphs).toEqual([
      'זהו משפט ראשון בעברית עם המספר 2024 ומילה באנגלית Docex בתוכו. המשפט ממשיך עוד קצת כדי להיות ארוך מספיק לשורה שנייה.',
      // A lam-alef ligature's letters in their order ("لا", not "ال").
      'هذه فقرة باللغة العربية تحتوي على الرقم 42 وكلمة English داخلها، وتستمر لتكون طويلة بما يكفي. لا شك في ذلك.',
      // Two numbers side by side read from the right; Latin words with a number or a hyphen written onto them stay whole.
      'בשנים 1996 2001 נבדקו רשתות Wi-Fi, קידוד UTF-8 ונגיף COVID-19 במחקר אחד.',
    ]);
    expect(result.content).toContain('# مقدمة');
  });

  it('keeps a right-to-left line whose first run, drawn first, is a number and a Latin word on the line', async () => {
    // Made by LibreOffice from rtl-number-first.html (test/fixtures/README.md).
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/rtl-number-first.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'rtl-number.pdf' });
    expect(result.elements!.filter((e) => e.type === 'paragraph')[0]!.text).toBe(
      '5.22 COVID-19 هو أيضا عملية، أول بحث منطقة. بين من أول تقرير وثيقة فصل ميزانية Wi-Fi. سوق أيضا مشروع هو، فصل بيانات هو التي نحن خدمة سوق.',
    );
  });

  it('reads Arabic and Hebrew words whose letters are boxed by their own ink (a browser\'s print) whole, a lam-alef in its order', async () => {
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-print.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'printed.pdf', config: markdown });
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text);
    expect(paragraphs).toContain('هذه فقرة باللغة العربية عن خدمة المياه ونتائج المسح في المدينة، وتستمر لتكون طويلة بما يكفي لسطرين على الأقل في هذه الصفحة.');
    expect(paragraphs).toContain('זהו משפט בעברית על תוצאות הבדיקה בעיר, והוא ממשיך עוד קצת כדי להיות ארוך מספיק לשורה שנייה בעמוד הזה.');
  });

  it('keeps each line of Arabic whose letters are boxed by their ink (low letters and tall) apart from the next, with the Latin words inside it in place', async () => {
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-arabic.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'arabic.pdf', config: markdown });
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text);
    expect(paragraphs.some((p) => p.includes('تقرير OECD لا version 2.4 سوق بعد عملية بحث بعد نظام بيت.'))).toBe(true);
  });

  it('joins a right-to-left paragraph that runs on from the right-hand column into the left-hand one', async () => {
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/chromium-rtl-columns.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'columns.pdf', config: markdown });
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph').map((e) => e.text);
    expect(paragraphs.some((p) => p.includes('לפני עבודה אזור אזור עם 3.25 דוח פרק'))).toBe(true);
  });

  it('puts marks and bold phrases a right-to-left line draws apart from it back on the line', async () => {
    // A page LibreOffice made from a Word document (test/fixtures/README.md): it draws some commas, full
    // stops, the "-8" of "UTF-8" and bold phrases after the rest of their lines.
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/rtl-docx-pages.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'rtl.pdf' });
    const paragraphs = result.elements!.filter((e) => e.type === 'paragraph' && e.page === 1).map((e) => e.text);
    // The page's running head, its seven paragraphs as the document has them (none a stray mark) and its footer.
    expect(paragraphs).toHaveLength(9);
    for (const p of paragraphs) expect(p).toMatch(/\p{L}/u);
    expect(paragraphs.filter((p) => p.includes('UTF-8 רק בית 6.21'))).toHaveLength(1);
    expect(paragraphs.filter((p) => p.includes('זמן איכות. מדיניות לקוח בין'))).toHaveLength(1);
  });

  it('ends a right-to-left paragraph set flush left at a sentence that left room on its line, reads signs a number carries on its left after it, nests items by their right edges and reads tables from the right', async () => {
    // The second page: Arabic, set flush left in two columns (test/fixtures/README.md).
    const bytes = new Uint8Array(fs.readFileSync(new URL('../../fixtures/rtl-docx-pages.pdf', import.meta.url)));
    const result = await extract({ bytes, filename: 'rtl.pdf' });
    const page = result.elements!.filter((e) => e.page === 2);
    const paragraphs = page.filter((e) => e.type === 'paragraph').map((e) => e.text);
    // "… version 2.4 كبير." ends one paragraph, on a short line; the next starts on the line below, with no space between them.
    expect(paragraphs.find((p) => p.startsWith('PDF كل فصل'))).toMatch(/version 2\.4 كبير\.$/);
    expect(paragraphs.find((p) => p.startsWith('فصل عميل عملية'))).toContain('جدول بحث 40.7%. OECD لا نتائج');
    expect(page.map((e) => e.text)).toContain('جدول 1: كبير مدينة جودة منطقة');
    // Its bulleted items start at one right edge, whatever their lengths: one level.
    expect(page.filter((e) => e.type === 'list_item').map((e) => e.level)).toEqual([0, 0, 0, 0]);
    // Its table reads from the right: the first column is the rightmost, a cell's words right to left.
    expect(result.tables.find((t) => t.page === 2)!.rows.slice(0, 2)).toEqual([
      ['لا نتائج', 'مع خدمة', 'ملخص بيت'],
      ['ميزانية بيانات معلومات', '8,570', '9,638'],
    ]);
  });
});

describe('tagged PDFs and outlines', () => {
  it('opens a list item at each bullet where the tags take items or their bullets in with other text, and keeps an item whose bullet is tagged apart whole', async () => {
    const items = (result: Awaited<ReturnType<typeof extract>>) => result.elements!.map((e) => [e.type, e.text]);
    // A producer's list tagged as one paragraph, bullets and all.
    const oneElement = taggedPdf([{ role: 'P', lines: ['·   Dig the new wells before the rains', '·   Repair the pumps of the northern districts'], x: 72, y: 700 }]);
    expect(items(await extract({ bytes: oneElement, filename: 'one-element.pdf' }))).toEqual([
      ['list_item', 'Dig the new wells before the rains'],
      ['list_item', 'Repair the pumps of the northern districts'],
    ]);
    // Each bullet tagged with the text before it, the second item's text (two lines) as a list item of its own.
    const apart = taggedPdf([
      { role: 'P', lines: ['Dig the new wells before the rains'], x: 90, y: 700 },
      { role: 'P', lines: ['·', '·'], x: 72, y: 700 },
      { role: 'LI', lines: ['Repair the pumps of the northern districts, which the committee', 'found broken in the spring'], x: 90, y: 688 },
    ]);
    expect(items(await extract({ bytes: apart, filename: 'bullets-apart.pdf' })).map(([, text]) => text)).toEqual([
      'Dig the new wells before the rains',
      'Repair the pumps of the northern districts, which the committee found broken in the spring',
    ]);
  });

  it('takes headings, paragraphs and list items from the structure tree, and untagged running text for an artifact', async () => {
    const bytes = taggedPdf([
      { role: null, lines: ['Internal memo, not for circulation'], x: 72, y: 760 },
      { role: 'H2', lines: ['Findings'], x: 72, y: 700 },
      // Far apart, and each line short: the layout alone would make two paragraphs of it.
      { role: 'P', lines: ['The wells are dry.', '', '', 'The pumps are broken.'], x: 72, y: 680 },
      { role: 'LI', lines: ['First repair the pumps'], x: 72, y: 600 },
      { role: 'LI', lines: ['Then dig new wells'], x: 72, y: 588 },
    ]);
    const result = await extract({ bytes, filename: 'tagged.pdf', config: markdown });
    expect(result.elements!.map((e) => [e.type, e.level ?? null, e.text])).toEqual([
      ['page_header', null, 'Internal memo, not for circulation'],
      ['heading', 2, 'Findings'],
      ['paragraph', null, 'The wells are dry. The pumps are broken.'],
      ['list_item', 0, 'First repair the pumps'],
      ['list_item', 0, 'Then dig new wells'],
    ]);
    expect(result.content).toBe('## Findings\n\nThe wells are dry. The pumps are broken.\n\n- First repair the pumps\n- Then dig new wells');
  });

  it('takes a line the outline lists on its page for a heading at the outline depth', async () => {
    const bytes = taggedPdf(
      [
        { role: 'P', lines: ['Methods'], x: 72, y: 700 },
        { role: 'P', lines: ['We measured every well twice.'], x: 72, y: 680 },
      ],
      [{ title: 'Methods' }],
    );
    const result = await extract({ bytes, filename: 'outline.pdf', config: markdown });
    expect(result.content).toBe('# Methods\n\nWe measured every well twice.');
  });

  it('gives a heading the outline leaves out the level of the outline\'s headings set in its style, not its numbering\'s', async () => {
    const text = (x: number, y: number, t: string, size = 10, bold = false) => `BT /${bold ? 'F2' : 'F1'} ${size} Tf 1 0 0 1 ${x} ${y} Tm ${pdfString(t)} Tj ET`;
    const content = [
      text(72, 740, 'Chapter One', 18, true),
      text(72, 715, LONG_1),
      text(72, 703, LONG_2),
      text(72, 670, 'Banks', 13, true),
      text(72, 650, LONG_1),
      text(72, 638, LONG_2),
      text(72, 600, '1. Deposits', 13, true),
      text(72, 580, LONG_1),
      text(72, 568, LONG_2),
      text(72, 530, 'Chapter Two', 18, true),
      text(72, 505, LONG_1),
    ].join('\n');
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 6 0 R >> >> /Contents 7 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Outlines /First 8 0 R /Last 10 0 R /Count 3 >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Title (Chapter One) /Parent 5 0 R /Next 10 0 R /First 9 0 R /Last 9 0 R /Count 1 /Dest [3 0 R /XYZ 0 792 0] >>',
      '<< /Title (Banks) /Parent 8 0 R /Dest [3 0 R /XYZ 0 700 0] >>',
      '<< /Title (Chapter Two) /Parent 5 0 R /Prev 8 0 R /Dest [3 0 R /XYZ 0 560 0] >>',
    ]);
    const result = await extract({ bytes, filename: 'manual.pdf' });
    expect(result.elements!.filter((e) => e.type === 'heading').map((e) => [e.level, e.text])).toEqual([
      [1, 'Chapter One'],
      [2, 'Banks'],
      [2, '1. Deposits'],
      [1, 'Chapter Two'],
    ]);
  });

  it('puts the outline\'s top entries under a title the outline leaves out', async () => {
    const bytes = taggedPdf(
      [
        { role: 'Title', lines: ['A Survey of Wells'], x: 72, y: 720 },
        { role: 'P', lines: ['Methods'], x: 72, y: 700 },
        { role: 'P', lines: ['We measured every well twice.'], x: 72, y: 680 },
      ],
      [{ title: 'Methods' }],
    );
    const result = await extract({ bytes, filename: 'outline.pdf', config: markdown });
    expect(result.content).toBe('# A Survey of Wells\n\n## Methods\n\nWe measured every well twice.');
  });
});

describe('PDF form fields and notes', () => {
  it('reads the values of filled-in form fields (on the widget or its parent field) and free-text notes, which the page content does not hold', async () => {
    const content = 'BT /F1 10 Tf 1 0 0 1 72 700 Tm (Name:) Tj ET\nBT /F1 10 Tf 1 0 0 1 72 660 Tm (City:) Tj ET';
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R] >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 8 0 R /Annots [5 0 R 7 0 R 9 0 R] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      // A field merged with its widget.
      '<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada Lovelace) /Rect [110 696 300 712] /P 3 0 R >>',
      // A field whose value its widget (a kid) inherits.
      '<< /FT /Tx /T (city) /V (London) /Kids [7 0 R] >>',
      '<< /Type /Annot /Subtype /Widget /Parent 6 0 R /Rect [110 656 300 672] /P 3 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Annot /Subtype /FreeText /Contents (Checked by QA) /Rect [72 600 250 616] /DA (/Helv 10 Tf 0 g) >>',
    ]);
    const result = await extract({ bytes, filename: 'form.pdf' });
    expect(result.content).toBe('Name: Ada Lovelace\n\nCity: London\n\nChecked by QA');
  });

  it("reads the text a stamp's, a watermark's, a signature's and a button's appearance shows, once, and not a hidden stamp's or a field's value twice", async () => {
    const content = 'BT /F1 10 Tf 1 0 0 1 72 700 Tm (Purchase order 4471) Tj ET\nBT /F1 10 Tf 1 0 0 1 72 660 Tm (Buyer:) Tj ET';
    // An appearance: a box and `text` in 12-point Helvetica (F1 of its own resources).
    const appearance = (text: string, width = 200) => {
      const ops = `q 0 0 1 RG 1 w 1 1 ${width - 2} 22 re S Q BT /F1 12 Tf 6 7 Td (${text}) Tj ET`;
      return `<< /Type /XObject /Subtype /Form /BBox [0 0 ${width} 24] /Resources << /Font << /F1 4 0 R >> >> /Length ${ops.length} >>\nstream\n${ops}\nendstream`;
    };
    const picture = '<< /Type /XObject /Subtype /Form /BBox [0 0 40 24] /Length 19 >>\nstream\n0 0 40 24 re f\nendstream';
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [6 0 R 7 0 R 8 0 R] /SigFlags 3 >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /Annots [9 0 R 6 0 R 7 0 R 8 0 R 10 0 R 11 0 R 12 0 R] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      // A text field whose appearance shows its value: read once, from the value.
      '<< /Type /Annot /Subtype /Widget /FT /Tx /T (buyer) /V (Ada Lovelace) /Rect [110 654 310 678] /AP << /N 13 0 R >> /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Widget /FT /Sig /T (approval) /Rect [72 560 372 584] /AP << /N 14 0 R >> /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Widget /FT /Btn /Ff 65536 /T (send) /Rect [72 500 152 524] /AP << /N 15 0 R >> /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Stamp /Rect [400 690 560 714] /AP << /N 16 0 R >> /F 4 >>',
      // Hidden (flag 2): a viewer does not show it.
      '<< /Type /Annot /Subtype /Stamp /Rect [400 640 560 664] /AP << /N 17 0 R >> /F 2 >>',
      '<< /Type /Annot /Subtype /Watermark /Rect [200 300 400 324] /AP << /N 18 0 R >> /F 4 >>',
      // A stamp that is a picture alone: nothing to read, and no copy of the page made for it.
      '<< /Type /Annot /Subtype /Stamp /Rect [500 500 540 524] /AP << /N 19 0 R >> /F 4 >>',
      appearance('Ada Lovelace'),
      appearance('Digitally signed by Grace Hopper', 300),
      appearance('Send', 80),
      appearance('APPROVED', 160),
      appearance('VOID', 160),
      appearance('DRAFT'),
      picture,
    ]);
    const result = await extract({ bytes, filename: 'signed.pdf' });
    expect(result.content).toBe('Purchase order 4471 APPROVED\n\nBuyer: Ada Lovelace\n\nDigitally signed by Grace Hopper\n\nSend\n\nDRAFT');
  });

  it('reads checkboxes and radio buttons as ☒ or ☐ beside their labels, and a choice field\'s choice', async () => {
    const content = 'BT /F1 10 Tf 1 0 0 1 72 700 Tm (Subscribe) Tj ET\nBT /F1 10 Tf 1 0 0 1 72 680 Tm (Terms read) Tj ET\nBT /F1 10 Tf 1 0 0 1 72 660 Tm (Country:) Tj ET';
    const bytes = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R] >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 8 0 R /Annots [5 0 R 6 0 R 7 0 R] >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Annot /Subtype /Widget /FT /Btn /T (subscribe) /V /Yes /AS /Yes /AP << /N << /Yes 9 0 R /Off 9 0 R >> >> /Rect [150 698 162 710] /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Widget /FT /Btn /T (terms) /V /Off /AS /Off /AP << /N << /Yes 9 0 R /Off 9 0 R >> >> /Rect [150 678 162 690] /P 3 0 R >>',
      '<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (country) /Opt [(France) (Peru)] /V (Peru) /Rect [150 656 300 672] /P 3 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /XObject /Subtype /Form /BBox [0 0 12 12] /Length 0 >>\nstream\n\nendstream',
    ]);
    const result = await extract({ bytes, filename: 'choices.pdf' });
    expect(result.content).toBe('Subscribe ☒\n\nTerms read ☐\n\nCountry: Peru');
  });
});
