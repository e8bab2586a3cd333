// A PDF file from its objects written out as text, and a page of text placed
// in the standard fonts: the warm-up document a pool worker reads at start
// (formats/pdf/warm-up.ts), a picture wrapped as a page for OCR
// (formats/image/as-page.ts), and the tests' fixtures.

/** Serialises numbered objects (1-based, in order) with a correct xref table. */
export function assemblePdf(objects: string[], trailerExtra = ''): Uint8Array {
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xrefAt = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return latin1Bytes(body);
}

/** Every char of `s` must be below 0x100; each becomes one byte. */
export function latin1Bytes(s: string): Uint8Array {
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i) & 0xff;
  return bytes;
}

/** A PDF literal string. Non-Latin-1 characters become "?" (Helvetica with WinAnsiEncoding). */
export function pdfString(s: string): string {
  let out = '(';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '(' || ch === ')' || ch === '\\') out += '\\' + ch;
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp >= 0xa0 && cp <= 0xff) out += '\\' + cp.toString(8).padStart(3, '0');
    else out += '?';
  }
  return out + ')';
}

/** A run of text placed on a page of `layoutPdf`, in points from the bottom-left corner. */
export interface PlacedText {
  x: number;
  y: number;
  text: string;
  /** Font size in points; 10 unless set. */
  size?: number;
  bold?: boolean;
  /** Courier instead of Helvetica. */
  mono?: boolean;
  /** Helvetica Oblique. */
  italic?: boolean;
  /** Times Roman: a serif face beside the sans. */
  serif?: boolean;
}

/**
 * A US Letter PDF with text placed where a layout says (Helvetica, Helvetica
 * Bold, Helvetica Oblique, Courier and Times Roman) and, optionally, gray images: what layout analysis reads.
 */
export function layoutPdf(pages: Array<{ texts: PlacedText[]; images?: Array<{ x: number; y: number; width: number; height: number }> }>): Uint8Array {
  // 1 Catalog, 2 Pages, 3-6 fonts, 7 an image, 8 a font, then (Page, Contents) per page.
  const pageIds = pages.map((_, i) => 9 + i * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>',
    '<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n\x80\x40\x40\x80\nendstream',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>',
  ];
  for (const page of pages) {
    const images = (page.images ?? []).map((im) => `q ${im.width} 0 0 ${im.height} ${im.x} ${im.y} cm /Im1 Do Q`);
    const texts = page.texts.map((t) => `BT /${t.mono ? 'F3' : t.bold ? 'F2' : t.italic ? 'F4' : t.serif ? 'F5' : 'F1'} ${t.size ?? 10} Tf 1 0 0 1 ${t.x} ${t.y} Tm ${pdfString(t.text)} Tj ET`);
    const ops = [...images, ...texts].join('\n');
    const id = objects.length + 1;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R /F4 6 0 R /F5 8 0 R >> /XObject << /Im1 7 0 R >> >> /Contents ${id + 1} 0 R >>`,
      `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`,
    );
  }
  return assemblePdf(objects);
}
