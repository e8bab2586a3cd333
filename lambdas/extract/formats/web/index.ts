// Web documents: HTML, sniffed from its first markup (or hinted by its name),
// and EPUB, a ZIP package of XHTML chapters. Both flow, so their pages are
// estimated from their text.

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
