// A small PDF a pool worker reads once when it starts, before any job: V8
// compiles the engine's WebAssembly functions and our layout code as they are
// first called, and a fresh worker read its first real document at a third of
// its later speed (a 13-page PDF: 460 ms, then 140-200 ms). Read at start, the
// compiles are paid while the server waits for work, and the WebAssembly ones
// once for every worker (the pool shares the module, pdfium-module.ts).

import { assemblePdf } from './pdf-assembly.ts';

/** Two pages with what the layout analysis looks at: a heading, paragraphs, a list, a running header and page numbers. */
export function warmUpPdf(): Uint8Array {
  const page = (n: number) =>
    [
      text('F2', 9, 72, 760, 'Warm-up document'),
      text('F2', 18, 72, 720, n === 1 ? '1. Why a worker reads this first' : '2. What it leaves compiled'),
      ...lines('F1', 11, 72, 690, [
        'A paragraph of body text that runs over more than one line, so that',
        'lines are joined into a block, with a hyphen-',
        'ated word at the end of a line and a number 42.',
      ]),
      ...lines('F1', 11, 90, 630, ['\u2022 A first item of a list', '\u2022 A second item of a list']),
      text('F1', 9, 300, 40, String(n)),
    ].join('\n');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [5 0 R 7 0 R] /Count 2 >>'];
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  for (const n of [1, 2]) {
    const content = page(n);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${objects.length + 2} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  return assemblePdf(objects);
}

const literal = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/\u2022/g, '\\225')})`;
const text = (font: string, size: number, x: number, y: number, s: string) => `BT /${font} ${size} Tf ${x} ${y} Td ${literal(s)} Tj ET`;
const lines = (font: string, size: number, x: number, y: number, all: string[]) => all.map((s, i) => text(font, size, x, y - i * size * 1.3, s));
