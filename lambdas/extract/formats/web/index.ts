// Web documents: HTML, sniffed from its first markup (or hinted by its name),
// EPUB, a ZIP package of XHTML chapters, and XML, markup of any other
// vocabulary. All flow, so their pages are estimated from their text.

import type { FormatDescriptor } from '../../engine/format.ts';
import { DOCUMENT_ADVICE } from '../../engine/limits.ts';
import { markupTextLength, partsTextPages, textPages } from '../../engine/text-pages.ts';

export const epub: FormatDescriptor<'epub'> = {
  name: 'epub',
  family: 'web',
  mime_type: 'application/epub+zip',
  unit: 'text_page',
  signature: {
    zipMimetype: 'application/epub+zip',
    // Without its mimetype member: the container and a package document.
    zipMembers: (zip) => zip.has('META-INF/container.xml') && zip.names().some((n) => n.endsWith('.opf')),
  },
  countPages: (doc) => partsTextPages(doc, (names) => names.filter((n) => /\.x?html?$/i.test(n))),
  readLimit: { bytes: 110_000_000, advice: DOCUMENT_ADVICE },
};

export const html: FormatDescriptor<'html'> = {
  name: 'html',
  family: 'web',
  mime_type: 'text/html',
  unit: 'text_page',
  signature: {
    names: { extensions: ['html', 'htm', 'xhtml'], contentTypes: ['text/html'] },
    sniff: (head, hinted) => looksLikeHtml(head) || (hinted && /<[a-z!]/i.test(head)),
  },
  countPages: ({ text }) => textPages(markupTextLength(text())),
  // parse5's tree, as a browser builds it, takes about 35 MB of memory per MB of page (npm run bench:memory).
  readLimit: { bytes: 40_000_000, advice: DOCUMENT_ADVICE },
};

function looksLikeHtml(head: string): boolean {
  const start = head.replace(/^\uFEFF?\s*(<!--[\s\S]*?-->\s*)*/, '');
  return /^<!doctype\s+html|^<html[\s>]/i.test(start) || /<(html|head|body)[\s>]/i.test(head.slice(0, 1024));
}

export const xml: FormatDescriptor<'xml'> = {
  name: 'xml',
  family: 'web',
  mime_type: 'application/xml',
  unit: 'text_page',
  signature: {
    names: { extensions: ['xml'], contentTypes: ['application/xml', 'text/xml'] },
    // After HTML's and the flat ODT's sniffers: an XML declaration, or a document that opens with an element.
    sniff: (head, hinted) => looksLikeXml(head) || (hinted && /<[a-z_]/i.test(head)),
  },
  countPages: ({ text }) => textPages(markupTextLength(text())),
  // Our XML reader holds the document as a tree: about as much memory per MB as HTML's.
  readLimit: { bytes: 40_000_000, advice: DOCUMENT_ADVICE },
};

function looksLikeXml(head: string): boolean {
  const start = head.replace(/^\uFEFF?\s*/, '');
  return /^<\?xml[\s?]/.test(start) || /^(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?<[A-Za-z_][\w.:-]*[\s>\/]/.test(start);
}
