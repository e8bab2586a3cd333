// The dispatcher's one lazy import per format: a worker loads PDFium only
// for PDFs, and the HTML or e-mail parsers only for those. Kept apart from
// the descriptors (format.ts says why); the Record makes a registered format
// without a reader a type error.

import type { Format } from './registry.ts';
import type { FormatContext, FormatOutput } from './types.ts';

export type FormatReader = (bytes: Uint8Array, ctx: FormatContext) => FormatOutput | Promise<FormatOutput>;

const mode = (ctx: FormatContext) => ctx.config.output;

export const READERS: Record<Format, FormatReader> = {
  pdf: async (bytes, ctx) => (await import('../formats/pdf/extract.ts')).extractPdf(bytes, { pages: ctx.config.pages, ocr: ctx.config.ocr, output: mode(ctx) }),
  docx: async (bytes, ctx) => (await import('../formats/ooxml/docx.ts')).extractDocx(bytes, mode(ctx), ctx.budget, ctx.config.comments),
  xlsx: async (bytes, ctx) => (await import('../formats/ooxml/xlsx.ts')).extractXlsx(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  pptx: async (bytes, ctx) => (await import('../formats/ooxml/pptx.ts')).extractPptx(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  odt: async (bytes, ctx) => (await import('../formats/odf/odf.ts')).extractOdt(bytes, mode(ctx), ctx.budget, ctx.config.comments),
  ods: async (bytes, ctx) => (await import('../formats/odf/odf.ts')).extractOds(bytes, mode(ctx), ctx.budget, ctx.config.pages),
  epub: async (bytes, ctx) => (await import('../formats/web/epub.ts')).extractEpub(bytes, mode(ctx), ctx.budget),
  zip: async (bytes, ctx) => (await import('../formats/archive/archive.ts')).extractArchive(bytes, ctx),
  html: async (bytes, ctx) => (await import('../formats/web/html.ts')).extractHtml(bytes, mode(ctx)),
  csv: async (bytes, ctx) => (await import('../formats/text/csv.ts')).extractDelimited(bytes, ctx, 'csv'),
  tsv: async (bytes, ctx) => (await import('../formats/text/csv.ts')).extractDelimited(bytes, ctx, 'tsv'),
  eml: async (bytes, ctx) => (await import('../formats/mail/eml.ts')).extractEml(bytes, ctx),
  msg: async (bytes, ctx) => (await import('../formats/mail/msg.ts')).extractMsg(bytes, ctx),
  doc: async (bytes, ctx) => (await import('../formats/legacy-office/doc.ts')).extractDoc(bytes, mode(ctx)),
  xls: async (bytes, ctx) => (await import('../formats/legacy-office/xls.ts')).extractXls(bytes, mode(ctx), ctx.config.pages),
  ppt: async (bytes, ctx) => (await import('../formats/legacy-office/ppt.ts')).extractPpt(bytes, mode(ctx), ctx.config.pages),
  rtf: async (bytes, ctx) => (await import('../formats/text/rtf.ts')).extractRtf(bytes, mode(ctx)),
  text: async (bytes, ctx) => (await import('../formats/text/plain.ts')).extractText(bytes, ctx, 'text'),
  markdown: async (bytes, ctx) => (await import('../formats/text/plain.ts')).extractText(bytes, ctx, 'markdown'),
  png: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
  jpeg: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
  tiff: async (bytes, ctx) => (await import('../formats/image/image.ts')).extractImage(bytes, ctx.config),
};
