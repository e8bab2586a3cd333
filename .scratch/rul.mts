import fs from 'node:fs';
import { loadPdfium } from '../lambdas/extract/formats/pdf/pdfium.ts';
import { withDocument } from '../lambdas/extract/formats/pdf/extract.ts';
import { pageRulings } from '../lambdas/extract/formats/pdf/rulings.ts';
const m = await loadPdfium();
await withDocument(m, new Uint8Array(fs.readFileSync(process.argv[2]!)), async (doc) => {
  const page = m.FPDF_LoadPage(doc, Number(process.argv[3] ?? 0));
  const r = pageRulings(m, page);
  console.log(r?.length);
  for (const x of r ?? []) console.log(x.dir, x.at.toFixed(1), x.from.toFixed(1), x.to.toFixed(1));
});
