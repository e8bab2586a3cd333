// Writes examples/report.pdf, the curl tour's sample: three pages with a
// title, headings, paragraphs, a list and a running footer, drawn with the
// PDF writer the tests use. Run: npx tsx examples/make-report.ts
import fs from 'node:fs';
import { layoutPdf, type PlacedText } from '../test/support/pdf-fixture.ts';

const body = (y: number, lines: string[]): PlacedText[] => lines.map((text, i) => ({ x: 72, y: y - i * 14, text, size: 11 }));
const footer = (n: number): PlacedText => ({ x: 250, y: 40, text: `Quarterly report - page ${n} of 3`, size: 8 });

const pdf = layoutPdf([
  {
    texts: [
      { x: 72, y: 720, text: 'Quarterly report', size: 22, bold: true },
      { x: 72, y: 680, text: 'Revenue', size: 15, bold: true },
      ...body(656, ['Revenue grew 12% over the quarter.']),
      footer(1),
    ],
  },
  {
    texts: [
      { x: 72, y: 720, text: 'Costs', size: 15, bold: true },
      ...body(696, ['Costs were flat. Three items moved:']),
      { x: 72, y: 670, text: '-', size: 11 },
      { x: 86, y: 670, text: 'freight rose with fuel prices', size: 11 },
      { x: 72, y: 656, text: '-', size: 11 },
      { x: 86, y: 656, text: 'rent fell after the move', size: 11 },
      footer(2),
    ],
  },
  {
    texts: [{ x: 72, y: 720, text: 'Outlook', size: 15, bold: true }, ...body(696, ['We expect steady growth.']), footer(3)],
  },
]);
fs.writeFileSync(new URL('./report.pdf', import.meta.url), pdf);
