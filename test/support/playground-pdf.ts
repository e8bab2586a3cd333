import { layoutPdf, type PlacedText } from './pdf-fixture.ts';

/** Two US Letter pages: a large bold heading, a paragraph and a three-column table on the first; a heading and a paragraph on the second. */
export function playgroundPdf(): Uint8Array {
  const para = (y: number, lines: string[]): PlacedText[] => lines.map((text, i) => ({ x: 72, y: y - i * 14, text, size: 11 }));
  const table: PlacedText[] = [
    ['Fruit', 'Colour', 'Price'],
    ['Apple', 'Red', '1.20'],
    ['Banana', 'Yellow', '0.50'],
    ['Cherry', 'Dark red', '3.75'],
  ].flatMap((row, r) => row.map((text, c) => ({ x: 72 + c * 150, y: 520 - r * 20, text, size: 11, bold: r === 0 })));
  return layoutPdf([
    {
      texts: [
        { x: 72, y: 700, text: 'Quarterly Fruit Report', size: 24, bold: true },
        ...para(660, [
          'This report describes the fruit we sold in the last quarter, with the prices we',
          'asked for each kind. Apples sold best, as they do every autumn, and cherries were',
          'scarce after the late frost in the spring, which raised their price sharply.',
        ]),
        ...table,
      ],
    },
    {
      texts: [
        { x: 72, y: 700, text: 'Outlook', size: 24, bold: true },
        ...para(660, ['Next quarter we expect the banana supply to stay steady and the price of cherries', 'to fall back once the summer harvest comes in from the southern orchards.']),
      ],
    },
  ]);
}
