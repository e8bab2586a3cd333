// The structure tree of a tagged PDF (PDF 32000-1, 14.7-14.8): what its
// author's tool said each piece of text is (H1-H6, P, LI, Caption, Code,
// Note...). Each marked-content id on a page is mapped to the block element
// that holds it, so layout analysis can keep blocks apart where the tags do and
// name them as the tags name them.

import { withBuffer, type Pdfium } from './pdfium.ts';

/** The block-level structure element a piece of text belongs to. */
export interface Tag {
  /** The standard role: "H1", "H", "P", "LI", "Caption", "Code", "Note", "Title", "Figure", "TD"... */
  role: string;
  /** Tells one element from another on the page (text of one element is one block). */
  element: number;
  /** List items: how many lists enclose it, 0 for a top-level list. */
  depth: number;
}

/** Roles that make a block of their own; inline roles (Span, Link, Em...) take their parent's. */
const BLOCK_ROLES = new Set([
  'P',
  'H',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'Title',
  'LI',
  'Caption',
  'Figure',
  'Formula',
  'Code',
  'Note',
  'BlockQuote',
  'TD',
  'TH',
  'TOCI',
  'Artifact',
]);

/** Elements nest at most this deep here; deeper trees are read down to it. */
const MAX_DEPTH = 64;

interface TreeExports {
  FPDF_StructTree_GetForPage(page: number): number;
  FPDF_StructTree_Close(tree: number): void;
  FPDF_StructTree_CountChildren(tree: number): number;
  FPDF_StructTree_GetChildAtIndex(tree: number, index: number): number;
  FPDF_StructElement_GetType(element: number, buffer: number, length: number): number;
  FPDF_StructElement_CountChildren(element: number): number;
  FPDF_StructElement_GetChildAtIndex(element: number, index: number): number;
  FPDF_StructElement_GetChildMarkedContentID(element: number, index: number): number;
  FPDF_StructElement_GetMarkedContentIdCount(element: number): number;
  FPDF_StructElement_GetMarkedContentIdAtIndex(element: number, index: number): number;
}

/** Marked-content id to its tag, for one page; null when the page has no structure tree. */
export function pageTags(m: Pdfium, page: number): Map<number, Tag> | null {
  const x = m.pdfium.wasmExports as unknown as TreeExports;
  const tree = x.FPDF_StructTree_GetForPage(page);
  if (!tree) return null;
  const tags = new Map<number, Tag>();
  let elements = 0;
  try {
    withBuffer(m, 128, (buf) => {
      const typeOf = (el: number): string => {
        const bytes = x.FPDF_StructElement_GetType(el, buf, 128);
        return bytes > 2 ? m.pdfium.UTF16ToString(buf) : '';
      };
      const walk = (el: number, block: Tag | null, lists: number, depth: number): void => {
        if (depth > MAX_DEPTH) return;
        const role = typeOf(el);
        let own = block;
        // A list item is one block with its label; what is inside it (LBody, P) stays in it, but for the
        // items of a list nested in it (a browser tags a nested list inside its parent item's body).
        if (!block || block.role !== 'LI' || role === 'LI') {
          if (BLOCK_ROLES.has(role)) own = { role, element: ++elements, depth: Math.max(0, lists - 1) };
        }
        const inList = role === 'L' ? lists + 1 : lists;
        const ids = x.FPDF_StructElement_GetMarkedContentIdCount(el);
        for (let i = 0; i < ids; i++) {
          const mcid = x.FPDF_StructElement_GetMarkedContentIdAtIndex(el, i);
          if (mcid >= 0 && own && !tags.has(mcid)) tags.set(mcid, own);
        }
        const children = x.FPDF_StructElement_CountChildren(el);
        for (let i = 0; i < children; i++) {
          const child = x.FPDF_StructElement_GetChildAtIndex(el, i);
          if (child) walk(child, own, inList, depth + 1);
          else {
            const mcid = x.FPDF_StructElement_GetChildMarkedContentID(el, i);
            if (mcid >= 0 && own && !tags.has(mcid)) tags.set(mcid, own);
          }
        }
      };
      const roots = x.FPDF_StructTree_CountChildren(tree);
      for (let i = 0; i < roots; i++) {
        const root = x.FPDF_StructTree_GetChildAtIndex(tree, i);
        if (root) walk(root, null, 0, 0);
      }
    });
  } finally {
    x.FPDF_StructTree_Close(tree);
  }
  return tags.size > 0 ? tags : null;
}
