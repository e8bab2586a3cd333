// A PDF's outline (its bookmarks): the headings its author's tool listed,
// with their depth and the page each points at. Layout analysis takes a block
// that reads as an outline entry on that page for a heading at that level.

import { withBuffer, type Pdfium } from './pdfium.ts';

export interface OutlineEntry {
  /** Normalised for matching: lower case, single spaces. */
  key: string;
  /** 1 for the outline's top level. */
  level: number;
}

/** Outlines longer than this are read no further (a generated index, not headings). */
const MAX_ENTRIES = 5000;
const MAX_DEPTH = 6;

interface OutlineExports {
  FPDFBookmark_GetFirstChild(doc: number, bookmark: number): number;
  FPDFBookmark_GetNextSibling(doc: number, bookmark: number): number;
  FPDFBookmark_GetTitle(bookmark: number, buffer: number, length: number): number;
  FPDFBookmark_GetDest(doc: number, bookmark: number): number;
  FPDFDest_GetDestPageIndex(doc: number, dest: number): number;
}

/** Outline entries by 0-based page index; empty when the PDF has no outline. */
export function readOutline(m: Pdfium, doc: number): Map<number, OutlineEntry[]> {
  const x = m.pdfium.wasmExports as unknown as OutlineExports;
  const byPage = new Map<number, OutlineEntry[]>();
  let count = 0;
  withBuffer(m, 1024, (buf) => {
    // Iterative, with a visited set: a damaged outline can link back on itself.
    const seen = new Set<number>();
    const stack: Array<{ node: number; level: number }> = [];
    for (let child = x.FPDFBookmark_GetFirstChild(doc, 0); child; child = x.FPDFBookmark_GetNextSibling(doc, child)) {
      if (seen.has(child)) break;
      seen.add(child);
      stack.push({ node: child, level: 1 });
    }
    stack.reverse();
    while (stack.length > 0 && count < MAX_ENTRIES) {
      const { node, level } = stack.pop()!;
      count++;
      const bytes = x.FPDFBookmark_GetTitle(node, buf, 1024);
      const title = bytes > 2 ? m.pdfium.UTF16ToString(buf) : '';
      const dest = x.FPDFBookmark_GetDest(doc, node);
      const page = dest ? x.FPDFDest_GetDestPageIndex(doc, dest) : -1;
      const key = outlineKey(title);
      if (key && page >= 0) {
        const list = byPage.get(page) ?? [];
        list.push({ key, level });
        byPage.set(page, list);
      }
      if (level >= MAX_DEPTH) continue;
      const children: number[] = [];
      for (let child = x.FPDFBookmark_GetFirstChild(doc, node); child; child = x.FPDFBookmark_GetNextSibling(doc, child)) {
        if (seen.has(child)) break;
        seen.add(child);
        children.push(child);
      }
      for (const child of children.reverse()) stack.push({ node: child, level: level + 1 });
    }
  });
  return byPage;
}

/** Lower case, letters and digits only, single spaces: how a block's text and an entry are compared. */
export function outlineKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
