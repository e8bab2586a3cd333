// Builds small, valid, uncompressed PDF 1.4 files for tests, so no test
// depends on a binary fixture or on the shared corpus.

import { assemblePdf, latin1Bytes, layoutPdf, pdfString, type PlacedText } from '../../lambdas/extract/containers/pdf-assembly.ts';

export interface PdfInfo {
  Title?: string;
  Author?: string;
  Subject?: string;
  Producer?: string;
  CreationDate?: string;
}

export interface MakePdfOptions {
  /** One page per string; "\n" starts a new line. */
  pages: string[];
  info?: PdfInfo;
  /** Bytes of an unreferenced stream object: a PDF that is large but as quick to parse as a small one. */
  padding?: number;
  /** 1-based pages whose page object is replaced by a non-page, so every reader fails on them. */
  brokenPages?: number[];
}

function pageContent(text: string): string {
  const lines = text.split('\n');
  const ops = ['BT', '/F1 12 Tf', '14 TL', '72 720 Td'];
  lines.forEach((line, i) => {
    if (i > 0) ops.push('T*');
    ops.push(`${pdfString(line)} Tj`);
  });
  ops.push('ET');
  return ops.join('\n') + '\n';
}

export { assemblePdf, latin1Bytes, layoutPdf, pdfString, type PlacedText };

export function makePdf(opts: MakePdfOptions): Uint8Array {
  const pages = opts.pages.length > 0 ? opts.pages : [''];
  // 1 Catalog, 2 Pages, 3 Font, 4 Info, then a (Page, Contents) pair per page.
  const pageIds = pages.map((_, i) => 5 + i * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< ${Object.entries(opts.info ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `/${k} ${pdfString(v as string)}`)
      .join(' ')} >>`,
  ];
  const broken = new Set(opts.brokenPages ?? []);
  pages.forEach((text, i) => {
    const content = pageContent(text);
    objects.push(
      broken.has(i + 1)
        ? '(not a page)'
        : `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    );
  });
  if (opts.padding) objects.push(`<< /Length ${opts.padding} >>\nstream\n${'%'.repeat(opts.padding)}\nendstream`);
  return assemblePdf(objects, '/Info 4 0 R ');
}

/** A block of a `taggedPdf`: its structure role, and lines of 10-point Helvetica placed from (x, y) down, 12 points apart. */
export interface TaggedBlock {
  /** "H1".."H6", "P", "LI" (consecutive items share a list), "Caption"...; null for an untagged artifact. */
  role: string | null;
  lines: string[];
  x: number;
  y: number;
}

/**
 * A one-page tagged PDF (PDF 32000-1, 14.7): each tagged block is marked
 * content with its own MCID and structure element, in a Document element,
 * with the parent tree PDFium reads. `outline` adds bookmarks to the page.
 */
export function taggedPdf(blocks: TaggedBlock[], outline: Array<{ title: string }> = []): Uint8Array {
  // 1 Catalog, 2 Pages, 3 Page, 4 Font, 5 StructTreeRoot, 6 Contents, 7 Document, 8 ParentTree, 9 Outlines, then elements and outline items.
  const objects: string[] = [];
  const ops: string[] = [];
  const kids: number[] = [];
  const byMcid: number[] = [];
  let next = 10;
  let list: { id: number; kids: number[] } | null = null;
  const elements: Array<{ id: number; body: string }> = [];
  blocks.forEach((b) => {
    const text = b.lines.map((line, i) => `BT /F1 10 Tf 1 0 0 1 ${b.x} ${b.y - i * 12} Tm ${pdfString(line)} Tj ET`).join('\n');
    if (b.role === null) {
      ops.push(`/Artifact BMC\n${text}\nEMC`);
      list = null;
      return;
    }
    const mcid = byMcid.length;
    ops.push(`/${b.role === 'LI' ? 'LBody' : b.role} <</MCID ${mcid}>> BDC\n${text}\nEMC`);
    const id = next++;
    byMcid.push(id);
    if (b.role === 'LI') {
      if (!list) {
        list = { id: next++, kids: [] };
        kids.push(list.id);
        elements.push({ id: list.id, body: '' });
      }
      list.kids.push(id);
      elements.push({ id, body: `<< /Type /StructElem /S /LI /P ${list.id} 0 R /Pg 3 0 R /K ${mcid} >>` });
    } else {
      list = null;
      kids.push(id);
      elements.push({ id, body: `<< /Type /StructElem /S /${b.role} /P 7 0 R /Pg 3 0 R /K ${mcid} >>` });
    }
  });
  for (const e of elements) {
    if (e.body === '') {
      const l = elements.find((x) => x.id === e.id)!;
      const items = elements.filter((x) => x.body.includes(`/P ${e.id} 0 R`)).map((x) => `${x.id} 0 R`);
      l.body = `<< /Type /StructElem /S /L /P 7 0 R /K [${items.join(' ')}] >>`;
    }
  }
  const outlineIds = outline.map(() => next++);
  const content = ops.join('\n');
  objects[0] = `<< /Type /Catalog /Pages 2 0 R /MarkInfo << /Marked true >> /StructTreeRoot 5 0 R${outline.length > 0 ? ' /Outlines 9 0 R' : ''} >>`;
  objects[1] = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
  objects[2] = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R /StructParents 0 >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /StructTreeRoot /K [7 0 R] /ParentTree 8 0 R >>';
  objects[5] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  objects[6] = `<< /Type /StructElem /S /Document /P 5 0 R /K [${kids.map((k) => `${k} 0 R`).join(' ')}] >>`;
  objects[7] = `<< /Nums [0 [${byMcid.map((id) => `${id} 0 R`).join(' ')}]] >>`;
  objects[8] =
    outline.length > 0 ? `<< /Type /Outlines /First ${outlineIds[0]} 0 R /Last ${outlineIds.at(-1)} 0 R /Count ${outline.length} >>` : '<< /Type /Outlines /Count 0 >>';
  for (const e of elements) objects[e.id - 1] = e.body;
  outline.forEach((o, i) => {
    const links = [i > 0 ? `/Prev ${outlineIds[i - 1]} 0 R` : '', i + 1 < outline.length ? `/Next ${outlineIds[i + 1]} 0 R` : ''].join(' ');
    objects[outlineIds[i]! - 1] = `<< /Title ${pdfString(o.title)} /Parent 9 0 R ${links} /Dest [3 0 R /XYZ 0 792 0] >>`;
  });
  return assemblePdf(objects);
}
