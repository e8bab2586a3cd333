// Builds ZIP archives and the ZIP-based office formats (DOCX, XLSX, PPTX,
// ODT, ODS, EPUB) in code, so no test depends on a binary fixture.

import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipMember {
  name: string;
  data: string | Uint8Array;
  /** Stored (0) or deflated (8, the default). */
  method?: 0 | 8;
  /** Sets the "encrypted" flag without encrypting, as a password-protected archive's directory would. */
  encrypted?: boolean;
  /** Sizes and CRC after the data (flag bit 3, zeros in the local header), as a writer that cannot seek back (Java's ZipOutputStream) stores them. */
  descriptor?: boolean;
}

export function makeZip(members: ZipMember[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const raw = typeof m.data === 'string' ? Buffer.from(m.data, 'utf8') : Buffer.from(m.data);
    const method = m.method ?? 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const name = Buffer.from(m.name, 'utf8');
    const flags = 0x800 | (m.encrypted ? 1 : 0) | (m.descriptor ? 8 : 0);
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (!m.descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(raw.length, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const descriptor = Buffer.alloc(m.descriptor ? 16 : 0);
    if (m.descriptor) {
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(raw.length, 12);
    }
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(flags, 8);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(raw.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, body, descriptor);
    central.push(dir, name);
    offset += local.length + name.length + body.length + descriptor.length;
  }
  const dirSize = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(dirSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...central, end]));
}

export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
export const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export function rels(items: Array<{ id: string; type: string; target: string }>): string {
  return (
    XML +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    items.map((r) => `<Relationship Id="${r.id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${r.type}" Target="${r.target}"/>`).join('') +
    '</Relationships>'
  );
}

function coreXml(p: { title?: string; author?: string; created?: string }): string {
  return (
    XML +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    (p.title ? `<dc:title>${xmlEscape(p.title)}</dc:title>` : '') +
    (p.author ? `<dc:creator>${xmlEscape(p.author)}</dc:creator>` : '') +
    (p.created ? `<dcterms:created xsi:type="dcterms:W3CDTF">${p.created}</dcterms:created>` : '') +
    '</cp:coreProperties>'
  );
}

// ---- DOCX -----------------------------------------------------------------

export const w = {
  p: (text: string, style?: string) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`,
  li: (text: string, numId: number, level = 0) =>
    `<w:p><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${xmlEscape(text)}</w:t></w:r></w:p>`,
  table: (rows: string[][]) =>
    `<w:tbl>${rows.map((r) => `<w:tr>${r.map((c) => `<w:tc>${w.p(c)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`,
};

export interface DocxOptions {
  /** Body XML (use `w.p`, `w.li`, `w.table`). */
  body: string;
  header?: string;
  footer?: string;
  title?: string;
  author?: string;
  created?: string;
  /** Replaces word/document.xml whole (for hostile parts). */
  documentXml?: string;
  /** More w:style elements, and more w:abstractNum/w:num elements (abstract numbers before nums). */
  styles?: string;
  abstractNums?: string;
  nums?: string;
  /** More relationships of word/document.xml (targets relative to word/), and the parts they point to. */
  rels?: Array<{ id: string; type: string; target: string }>;
  parts?: PartOverrides;
}

export function makeDocx(o: DocxOptions): Uint8Array {
  const docRels = [
    { id: 'rStyles', type: 'styles', target: 'styles.xml' },
    { id: 'rNum', type: 'numbering', target: 'numbering.xml' },
    ...(o.header ? [{ id: 'rH', type: 'header', target: 'header1.xml' }] : []),
    ...(o.footer ? [{ id: 'rF', type: 'footer', target: 'footer1.xml' }] : []),
    ...(o.rels ?? []),
  ];
  const styles =
    XML +
    `<w:styles ${W}>` +
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>' +
    (o.styles ?? '') +
    '</w:styles>';
  const numbering =
    XML +
    `<w:numbering ${W}>` +
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>' +
    '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>' +
    (o.abstractNums ?? '') +
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>' +
    (o.nums ?? '') +
    '</w:numbering>';
  return makeZip(withOverrides([
    { name: '[Content_Types].xml', data: XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: '_rels/.rels', data: rels([{ id: 'rId1', type: 'officeDocument', target: 'word/document.xml' }]) },
    { name: 'docProps/core.xml', data: coreXml(o) },
    { name: 'word/_rels/document.xml.rels', data: rels(docRels) },
    { name: 'word/document.xml', data: o.documentXml ?? XML + `<w:document ${W}><w:body>${o.body}</w:body></w:document>` },
    { name: 'word/styles.xml', data: styles },
    { name: 'word/numbering.xml', data: numbering },
    ...(o.header ? [{ name: 'word/header1.xml', data: XML + `<w:hdr ${W}>${w.p(o.header)}</w:hdr>` }] : []),
    ...(o.footer ? [{ name: 'word/footer1.xml', data: XML + `<w:ftr ${W}>${w.p(o.footer)}</w:ftr>` }] : []),
  ], o.parts ?? {}));
}

// ---- XLSX -----------------------------------------------------------------

export type XlsxCell = string | number | boolean | { n: number; fmt: string } | null;

/** Replaces the data of members by name, or adds members (a damaged part, a padding image). */
export type PartOverrides = Record<string, string | Uint8Array>;

function withOverrides(members: ZipMember[], overrides: PartOverrides): ZipMember[] {
  const replaced = members.map((m) => (m.name in overrides ? { ...m, data: overrides[m.name]! } : m));
  const added = Object.entries(overrides)
    .filter(([name]) => !members.some((m) => m.name === name))
    .map(([name, data]): ZipMember => ({ name, data, method: typeof data === 'string' ? 8 : 0 }));
  return [...replaced, ...added];
}

/** Strings become shared strings; `{ n, fmt }` is a number shown with a format code. */
export function makeXlsx(sheets: Array<{ name: string; rows: XlsxCell[][] }>, overrides: PartOverrides = {}): Uint8Array {
  const strings: string[] = [];
  const formats: string[] = [];
  const sheetXml = sheets.map(({ rows }) => {
    const body = rows
      .map((row, r) => {
        const cells = row
          .map((cell, c) => {
            const ref = String.fromCharCode(65 + c) + (r + 1);
            if (cell === null) return '';
            if (typeof cell === 'string') {
              strings.push(cell);
              return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
            }
            if (typeof cell === 'boolean') return `<c r="${ref}" t="b"><v>${cell ? 1 : 0}</v></c>`;
            if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
            formats.push(cell.fmt);
            return `<c r="${ref}" s="${formats.length}"><v>${cell.n}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cells}</row>`;
      })
      .join('');
    return XML + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
  });
  const styles =
    XML +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<numFmts count="${formats.length}">${formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xmlEscape(f)}"/>`).join('')}</numFmts>` +
    `<cellXfs count="${formats.length + 1}"><xf numFmtId="0"/>${formats.map((_, i) => `<xf numFmtId="${164 + i}" applyNumberFormat="1"/>`).join('')}</cellXfs>` +
    '</styleSheet>';
  const sst =
    XML +
    `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join('')}</sst>`;
  return makeZip(withOverrides([
    { name: '[Content_Types].xml', data: XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: '_rels/.rels', data: rels([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]) },
    {
      name: 'xl/workbook.xml',
      data:
        XML +
        `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets
          .map((s, i) => `<sheet name="${xmlEscape(s.name)}" sheetId="${i + 1}" r:id="rS${i + 1}"/>`)
          .join('')}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels([
        ...sheets.map((_, i) => ({ id: `rS${i + 1}`, type: 'worksheet', target: `worksheets/sheet${i + 1}.xml` })),
        { id: 'rSST', type: 'sharedStrings', target: 'sharedStrings.xml' },
        { id: 'rStyles', type: 'styles', target: 'styles.xml' },
      ]),
    },
    ...sheetXml.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
    { name: 'xl/sharedStrings.xml', data: sst },
    { name: 'xl/styles.xml', data: styles },
  ], overrides));
}

// ---- PPTX -----------------------------------------------------------------

export interface SlideSpec {
  title: string;
  /** Paragraphs of the body placeholder; `lvl` and `bu` write their a:pPr (bullet none, a character, or numbered). */
  bullets?: Array<string | { text: string; lvl?: number; bu?: 'none' | 'char' | 'num' }>;
  table?: string[][];
  notes?: string;
  /** Raw shapes appended to the slide's shape tree (charts, text boxes, pictures). */
  shapes?: string;
  /** More relationships of the slide (charts, comments, diagrams, its layout); targets relative to ppt/slides/. */
  rels?: Array<{ id: string; type: string; target: string }>;
}

const P = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const para = (t: string | { text: string; lvl?: number; bu?: 'none' | 'char' | 'num' }) => {
  if (typeof t === 'string') return `<a:p><a:r><a:t>${xmlEscape(t)}</a:t></a:r></a:p>`;
  const bu = t.bu === 'none' ? '<a:buNone/>' : t.bu === 'char' ? '<a:buChar char="•"/>' : t.bu === 'num' ? '<a:buAutoNum type="arabicPeriod"/>' : '';
  return `<a:p><a:pPr lvl="${t.lvl ?? 0}">${bu}</a:pPr><a:r><a:t>${xmlEscape(t.text)}</a:t></a:r></a:p>`;
};

/**
 * Slides are stored under part names in reverse, so only the presentation's
 * list gives their order: slide i (from 0) of n is ppt/slides/slide{n - i}.xml.
 */
export function makePptx(slides: SlideSpec[], overrides: PartOverrides = {}): Uint8Array {
  const n = slides.length;
  const partOf = (i: number) => `slide${n - i}.xml`;
  const members: ZipMember[] = [
    { name: '[Content_Types].xml', data: XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: '_rels/.rels', data: rels([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]) },
    {
      name: 'ppt/presentation.xml',
      data: XML + `<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rSl${i}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    },
    { name: 'ppt/_rels/presentation.xml.rels', data: rels(slides.map((_, i) => ({ id: `rSl${i}`, type: 'slide', target: `slides/${partOf(i)}` }))) },
  ];
  slides.forEach((s, i) => {
    const title = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody>${para(s.title)}</p:txBody></p:sp>`;
    const body = s.bullets ? `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${s.bullets.map(para).join('')}</p:txBody></p:sp>` : '';
    const table = s.table
      ? `<p:graphicFrame><a:graphic><a:graphicData><a:tbl>${s.table.map((r) => `<a:tr>${r.map((c) => `<a:tc><a:txBody>${para(c)}</a:txBody></a:tc>`).join('')}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
      : '';
    members.push({ name: `ppt/slides/${partOf(i)}`, data: XML + `<p:sld ${P}><p:cSld><p:spTree>${title}${body}${table}${s.shapes ?? ''}</p:spTree></p:cSld></p:sld>` });
    const slideRels = [...(s.notes ? [{ id: 'rN', type: 'notesSlide', target: `../notesSlides/notes${i}.xml` }] : []), ...(s.rels ?? [])];
    if (slideRels.length > 0) members.push({ name: `ppt/slides/_rels/${partOf(i)}.rels`, data: rels(slideRels) });
    if (s.notes) {
      members.push({
        name: `ppt/notesSlides/notes${i}.xml`,
        data:
          XML +
          `<p:notes ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Image"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody>${para(s.notes)}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>`,
      });
    }
  });
  return makeZip(withOverrides(members, overrides));
}

// ---- OpenDocument and EPUB --------------------------------------------------

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';

export function makeOdf(kind: 'text' | 'spreadsheet' | 'presentation', bodyXml: string, title?: string, overrides: PartOverrides = {}): Uint8Array {
  return makeZip(withOverrides([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${kind}`, method: 0 },
    { name: 'content.xml', data: XML + `<office:document-content ${ODF_NS}><office:body><office:${kind}>${bodyXml}</office:${kind}></office:body></office:document-content>` },
    { name: 'meta.xml', data: XML + `<office:document-meta ${ODF_NS}><office:meta>${title ? `<dc:title>${xmlEscape(title)}</dc:title>` : ''}</office:meta></office:document-meta>` },
  ], overrides));
}

/** Chapters are listed in the manifest in reverse; the spine gives the reading order. */
export function makeEpub(chapters: Array<{ title: string; html: string }>, meta: { title: string; author: string; language?: string }): Uint8Array {
  const ids = chapters.map((_, i) => `ch${i + 1}`);
  const opf =
    XML +
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${xmlEscape(meta.title)}</dc:title><dc:creator>${xmlEscape(meta.author)}</dc:creator><dc:language>${meta.language ?? 'en'}</dc:language></metadata>` +
    `<manifest>${[...ids].reverse().map((id) => `<item id="${id}" href="text/${id}.xhtml" media-type="application/xhtml+xml"/>`).join('')}</manifest>` +
    `<spine>${ids.map((id) => `<itemref idref="${id}"/>`).join('')}</spine></package>`;
  return makeZip([
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    {
      name: 'META-INF/container.xml',
      data: XML + '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    { name: 'OEBPS/content.opf', data: opf },
    ...chapters.map((c, i) => ({
      name: `OEBPS/text/${ids[i]}.xhtml`,
      data: `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${xmlEscape(c.title)}</title></head><body><h1>${xmlEscape(c.title)}</h1>${c.html}</body></html>`,
    })),
  ]);
}
