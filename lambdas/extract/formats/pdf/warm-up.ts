// A small PDF a pool worker reads once when it starts, before any job: V8
// compiles the engine's WebAssembly functions and our layout code as they are
// first called, and a fresh worker read its first real document at a third of
// its later speed (a 13-page PDF: 460 ms, then 140-200 ms). Read at start, the
// compiles are paid while the server waits for work, and the WebAssembly ones
// once for every worker (the pool shares the module, pdfium-module.ts).

import { layoutPdf, type PlacedText } from '../../containers/pdf-assembly.ts';

/** Two pages with what the layout analysis looks at: a heading, paragraphs, a list, a running header and page numbers. */
export function warmUpPdf(): Uint8Array {
  const page = (n: number): PlacedText[] => [
    { x: 72, y: 760, text: 'Warm-up document', size: 9, bold: true },
    { x: 72, y: 720, text: n === 1 ? '1. Why a worker reads this first' : '2. What it leaves compiled', size: 18, bold: true },
    ...lines(72, 690, 11, [
      'A paragraph of body text that runs over more than one line, so that',
      'lines are joined into a block, with a hyphen-',
      'ated word at the end of a line and a number 42.',
    ]),
    ...lines(90, 630, 11, ['* A first item of a list', '* A second item of a list']),
    { x: 300, y: 40, text: String(n), size: 9 },
  ];
  return layoutPdf([{ texts: page(1) }, { texts: page(2) }]);
}

const lines = (x: number, y: number, size: number, texts: string[]): PlacedText[] => texts.map((text, i) => ({ x, y: y - i * size * 1.3, text, size }));
