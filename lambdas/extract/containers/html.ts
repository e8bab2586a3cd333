// HTML markup, wherever a format holds it (a web page, EPUB chapters, e-mail
// bodies), read into blocks: the visible text in reading order as headings, paragraphs, nested lists, tables
// (data tables; a table that lays out the page, holding other tables, is read
// as the flow it lays out), figures and captions, description lists,
// preformatted code, form options and iframe srcdoc documents; never scripts,
// styles, templates or hidden elements. A page is parsed as a browser parses
// it (parse5 follows the HTML standard's tree building: a stray end tag inside
// a table is dropped, as browsers drop it, where a lenient parser closes the
// table there and spills its rows into the page); XHTML (EPUB chapters) is
// parsed as the XML it is, with htmlparser2. Neither fetches or executes
// anything.

import { parseDocument } from 'htmlparser2';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import type { Blocks } from '../engine/blocks.ts';
import { decodeText, detectEncoding } from './text-decoding.ts';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'object', 'embed', 'canvas', 'datalist', 'area', 'map', 'input', 'meta', 'link', 'base']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'blockquote', 'address', 'figure', 'figcaption',
  'dl', 'dt', 'dd', 'form', 'fieldset', 'legend', 'details', 'summary', 'center', 'body', 'html', 'hr', 'caption', 'option', 'optgroup',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table', 'pre', 'select', 'iframe', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot',
  'menu', 'dir', 'hgroup', 'search', 'dialog', 'listing', 'xmp', 'plaintext', 'frameset', 'frame', 'noframes',
]);

/** Elements nest this deep before the rest of a branch is read as plain text (no recursion without bound). */
const MAX_DEPTH = 400;
/** srcdoc documents inside srcdoc documents are read this deep. */
const MAX_SRCDOC = 3;

export interface HtmlMeta {
  title: string | null;
  author: string | null;
  description: string | null;
  keywords: string | null;
  language: string | null;
}

/** A BOM or UTF-16 wins; else valid UTF-8; else the charset the page declares; else Windows-1252. */
export function decodeHtml(bytes: Uint8Array): { text: string; encoding: string } {
  const detected = detectEncoding(bytes);
  // A BOM, UTF-8 or UTF-16/32 is certain; a guessed legacy encoding gives way to the one the page declares.
  if (detected.bomLength > 0 || /^utf-/.test(detected.encoding)) return decodeText(bytes);
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w:.-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (declared && !/^(utf-?8|iso-8859-1|latin-?1|us-ascii|windows-1252|cp1252)$/.test(declared)) {
    try {
      return { text: new TextDecoder(declared).decode(bytes), encoding: declared };
    } catch {
      // An unknown label: fall through to the default guess.
    }
  }
  return decodeText(bytes);
}

/** The parts of the DOM (domhandler's, which both parsers build) read here. */
interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

const isElement = (n: Node): boolean => n.type === 'tag' || n.type === 'script' || n.type === 'style';

function hidden(n: Node): boolean {
  const a = n.attribs ?? {};
  return 'hidden' in a || /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a.style ?? '') || a['aria-hidden'] === 'true';
}

/** Writes the page's blocks into `out`; returns what the head says about the page. `xhtml`: markup that closes its own empty elements (`<a id="x"/>`). */
export function htmlInto(out: Blocks, html: string, { xhtml = false, srcdocDepth = 0 }: { xhtml?: boolean; srcdocDepth?: number } = {}): HtmlMeta {
  const doc = (
    xhtml
      ? parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true })
      : parse(html, { treeAdapter: adapter })
  ) as unknown as Node;
  const meta: HtmlMeta = { title: null, author: null, description: null, keywords: null, language: null };
  readMeta(doc, meta);
  new Reader(out, srcdocDepth).flow(doc, 0);
  return meta;
}

function readMeta(doc: Node, meta: HtmlMeta): void {
  const stack: Node[] = [doc];
  let seen = 0;
  while (stack.length > 0 && seen++ < 100_000) {
    const n = stack.pop()!;
    if (!isElement(n) && n.type !== 'root') continue;
    const a = n.attribs ?? {};
    if (n.name === 'html' && a.lang && meta.language === null) meta.language = a.lang.split('-')[0]!.toLowerCase() || null;
    else if (n.name === 'title' && meta.title === null) meta.title = collapse(plainText(n)) || null;
    else if (n.name === 'meta') {
      const key = (a.name ?? '').toLowerCase();
      if (key === 'author') meta.author = a.content?.trim() || null;
      else if (key === 'description') meta.description = a.content?.trim() || null;
      else if (key === 'keywords') meta.keywords = a.content?.trim() || null;
    }
    if (n.name === 'body') continue;
    for (let k = (n.children ?? []).length - 1; k >= 0; k--) stack.push(n.children![k]!);
  }
}

const collapse = (s: string) => s.replace(/[ \t\r\n\f]+/g, ' ').trim();

/** All text under `n`, iteratively (no recursion), skipping what is never shown. */
function plainText(n: Node): string {
  let s = '';
  const stack: Node[] = [n];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (c.type === 'text') s += c.data ?? '';
    else if (isElement(c) || c.type === 'root') {
      if (c !== n && (SKIP.has(c.name ?? '') || hidden(c))) continue;
      if (c.name === 'br') s += '\n';
      else if (BLOCK.has(c.name ?? '')) s += ' ';
      for (let k = (c.children ?? []).length - 1; k >= 0; k--) stack.push(c.children![k]!);
    }
  }
  return s;
}

type Kind = 'paragraph' | 'caption';

class Reader {
  /** Inline text gathered for the block being read. */
  private buf = '';
  /** How much of `buf` is text rather than image descriptions. */
  private bufText = 0;
  private lists: Array<{ ordered: boolean; n: number }> = [];

  constructor(
    private readonly out: Blocks,
    private readonly srcdocDepth: number,
  ) {}

  /** Reads the children of `n` as a flow of blocks; inline runs become paragraphs (or `kind`). */
  flow(n: Node, depth: number, kind: Kind = 'paragraph'): void {
    for (const c of n.children ?? []) this.node(c, depth + 1, kind);
    this.flush(kind);
  }

  private flush(kind: Kind = 'paragraph'): void {
    const onlyImages = this.bufText === 0;
    const raw = this.buf;
    this.buf = '';
    this.bufText = 0;
    // Two line breaks in a row separate paragraphs, as pages without <p> write them; one is a line break.
    for (const part of raw.split(/\u0000[ \t\r\n\f]*\u0000[\s\u0000]*/)) {
      const text = part
        .split('\u0000')
        .map(collapse)
        .filter(Boolean)
        .join('\n');
      if (!text) continue;
      if (onlyImages) this.out.figure(text);
      else if (kind === 'caption') this.out.caption(text);
      else this.out.paragraph(text);
    }
  }

  private inline(text: string): void {
    this.buf += text;
    if (text.trim()) this.bufText += text.length;
  }

  private node(n: Node, depth: number, kind: Kind): void {
    if (n.type === 'text') {
      this.inline(n.data ?? '');
      return;
    }
    if (!isElement(n)) return;
    const name = n.name ?? '';
    if (SKIP.has(name) || hidden(n) || name === 'title') return;
    if (depth > MAX_DEPTH) {
      this.inline(plainText(n));
      return;
    }
    const a = n.attribs ?? {};
    switch (name) {
      case 'br':
        this.buf += '\u0000';
        return;
      case 'img': {
        const alt = (a.alt ?? '').trim();
        if (alt) this.buf += ` ${alt} `;
        return;
      }
      case 'wbr':
        return;
      case 'hr':
        this.flush(kind);
        return;
      case 'math': {
        const text = collapse(a.alttext ?? plainText(n));
        if (a.display === 'block') {
          this.flush(kind);
          this.out.formula(text);
        } else this.inline(` ${text} `);
        return;
      }
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6':
        this.flush(kind);
        this.out.heading(Number(name[1]), collapse(plainText(n)));
        return;
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir':
        this.flush(kind);
        this.list(n, depth, name === 'ol' ? Number(a.start ?? 1) || 1 : null);
        return;
      case 'li':
        // A list item outside any list: a bullet all the same.
        this.flush(kind);
        this.item(n, depth, null);
        return;
      case 'pre':
      case 'listing':
      case 'xmp':
      case 'plaintext':
        this.flush(kind);
        this.out.code(preText(n).replace(/^\n/, ''));
        return;
      case 'table':
        this.flush(kind);
        this.table(n, depth);
        return;
      case 'figcaption':
      case 'caption':
        this.flush(kind);
        this.flow(n, depth, 'caption');
        return;
      case 'iframe':
        this.flush(kind);
        if (a.srcdoc && this.srcdocDepth < MAX_SRCDOC) htmlInto(this.out, a.srcdoc, { srcdocDepth: this.srcdocDepth + 1 });
        return;
      case 'textarea':
        this.flush(kind);
        this.out.paragraph(plainText(n));
        return;
      case 'select':
        this.flush(kind);
        for (const o of selectOptions(n)) this.out.paragraph(o);
        return;
      case 'button':
        this.inline(` ${plainText(n)} `);
        return;
    }
    if (BLOCK.has(name)) {
      this.flush(kind);
      this.flow(n, depth, kind);
    } else for (const c of n.children ?? []) this.node(c, depth + 1, kind);
  }

  private list(n: Node, depth: number, start: number | null): void {
    this.lists.push({ ordered: start !== null, n: (start ?? 1) - 1 });
    for (const c of n.children ?? []) {
      if (c.type === 'text') {
        if ((c.data ?? '').trim()) this.out.paragraph(collapse(c.data!));
        continue;
      }
      if (!isElement(c) || SKIP.has(c.name ?? '') || hidden(c)) continue;
      if (c.name === 'li') {
        const list = this.lists.at(-1)!;
        const value = Number(c.attribs?.value);
        if (list.ordered && Number.isFinite(value) && c.attribs?.value) list.n = value - 1;
        this.item(c, depth + 1, list.ordered ? ++list.n : null);
      } else this.node(c, depth + 1, 'paragraph');
    }
    this.lists.pop();
  }

  /** A list item: its own text, then its nested lists one level deeper, then any other blocks it holds. */
  private item(li: Node, depth: number, ordinal: number | null): void {
    const level = Math.max(0, this.lists.length - 1);
    const saved = { buf: this.buf, bufText: this.bufText };
    this.buf = '';
    this.bufText = 0;
    let written = false;
    const writeItem = () => {
      if (written) return;
      written = true;
      const text = collapse(this.buf.replace(/\u0000/g, ' '));
      this.buf = '';
      this.bufText = 0;
      if (text) this.out.listItem(text, level, ordinal);
    };
    for (const c of li.children ?? []) {
      const name = isElement(c) ? (c.name ?? '') : '';
      if (name === 'ul' || name === 'ol' || name === 'menu' || name === 'dir') {
        writeItem();
        this.list(c, depth + 1, name === 'ol' ? Number(c.attribs?.start ?? 1) || 1 : null);
      } else if (!written && !BLOCK.has(name)) {
        // The item's text: its inline content...
        this.node(c, depth + 1, 'paragraph');
      } else if (!written && (name === 'p' || name === 'div') && !hasBlockChild(c)) {
        // ... and the paragraph it is written in.
        this.buf += ' ';
        for (const g of c.children ?? []) this.node(g, depth + 2, 'paragraph');
      } else {
        writeItem();
        this.node(c, depth + 1, 'paragraph');
      }
    }
    writeItem();
    this.flush();
    this.buf = saved.buf;
    this.bufText = saved.bufText;
  }

  private table(t: Node, depth: number): void {
    const rows = tableRows(t);
    const cells = rows.reduce((n, r) => n + r.length, 0);
    const a = t.attribs ?? {};
    // A table that lays out the page (holding other tables, or a single cell,
    // or marked as presentation) is read as the blocks it lays out.
    const oneColumnOfBlocks = rows.every((r) => r.length <= 1) && rows.some((r) => r.some((c) => hasBlockChild(c.node)));
    if (a.role === 'presentation' || a.role === 'none' || hasDescendant(t, 'table') || cells <= 1 || oneColumnOfBlocks) {
      for (const row of rows) for (const cell of row) this.flow(cell.node, depth + 1);
      return;
    }
    const caption = (t.children ?? []).find((c) => c.name === 'caption');
    if (caption) this.flow(caption, depth, 'caption');
    const grid: string[][] = [];
    const carry: Array<{ left: number; text: string } | undefined> = [];
    for (const row of rows) {
      const out: string[] = [];
      let col = 0;
      const fill = () => {
        while (carry[col] && carry[col]!.left > 0) {
          out.push('');
          carry[col]!.left--;
          col++;
        }
      };
      for (const cell of row) {
        fill();
        const text = collapse(cellText(cell.node));
        const span = Math.min(64, Math.max(1, Number(cell.node.attribs?.colspan ?? 1) || 1));
        const rowspan = Math.min(1000, Math.max(1, Number(cell.node.attribs?.rowspan ?? 1) || 1));
        for (let k = 0; k < span; k++) {
          out.push(k === 0 ? text : '');
          if (rowspan > 1) carry[col] = { left: rowspan - 1, text: '' };
          col++;
        }
      }
      fill();
      grid.push(out);
    }
    this.out.table(grid);
  }
}

function hasDescendant(n: Node, name: string): boolean {
  const stack = [...(n.children ?? [])];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (c.name === name) return true;
    if (c.children) stack.push(...c.children);
  }
  return false;
}

function hasBlockChild(n: Node): boolean {
  return (n.children ?? []).some((c) => isElement(c) && BLOCK.has(c.name ?? ''));
}

/** The rows of a table (its own, not a nested table's), each a list of its td/th cells. */
function tableRows(t: Node): Array<Array<{ node: Node }>> {
  const rows: Array<Array<{ node: Node }>> = [];
  const visit = (n: Node) => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || SKIP.has(c.name ?? '') || hidden(c)) continue;
      if (c.name === 'tr') rows.push((c.children ?? []).filter((x) => (x.name === 'td' || x.name === 'th') && !hidden(x)).map((node) => ({ node })));
      else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot' || c.name === 'form') visit(c);
    }
  };
  visit(t);
  return rows;
}

/** A cell's text: everything in it, blocks and line breaks as spaces, image descriptions included. */
function cellText(cell: Node): string {
  let s = '';
  const stack: Node[] = [...(cell.children ?? [])].reverse();
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (c.type === 'text') s += c.data ?? '';
    else if (isElement(c)) {
      const name = c.name ?? '';
      if (SKIP.has(name) || hidden(c)) continue;
      if (name === 'img' && c.attribs?.alt) s += ` ${c.attribs.alt} `;
      else if (name === 'br' || BLOCK.has(name)) s += ' ';
      // A block ends with a space too: pushed before its children, it comes after them.
      if (BLOCK.has(name)) stack.push({ type: 'text', data: ' ' });
      for (let k = (c.children ?? []).length - 1; k >= 0; k--) stack.push(c.children![k]!);
    }
  }
  return s;
}

/** Preformatted text as it is, line breaks kept. */
function preText(n: Node): string {
  let s = '';
  const stack: Node[] = [...(n.children ?? [])].reverse();
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (c.type === 'text') s += c.data ?? '';
    else if (isElement(c)) {
      if (SKIP.has(c.name ?? '') || hidden(c)) continue;
      if (c.name === 'br') s += '\n';
      for (let k = (c.children ?? []).length - 1; k >= 0; k--) stack.push(c.children![k]!);
    }
  }
  return s;
}

function selectOptions(n: Node): string[] {
  const out: string[] = [];
  const stack: Node[] = [...(n.children ?? [])].reverse();
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (!isElement(c) || hidden(c)) continue;
    if (c.name === 'option') {
      const t = collapse(plainText(c) || c.attribs?.label || '');
      if (t) out.push(t);
    } else for (let k = (c.children ?? []).length - 1; k >= 0; k--) stack.push(c.children![k]!);
  }
  return out;
}

/** A plain-text body as blocks: paragraphs at blank lines, lines starting with a bullet or number as list items. */
export function textParagraphs(out: Blocks, text: string): void {
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n+/)) {
    const lines = para.split('\n');
    const items = lines.map((l) => /^\s*(?:([-*•])|(\d{1,3})[.)])\s+(\S.*)$/.exec(l));
    if (lines.length > 0 && items.every(Boolean)) {
      for (const m of items) out.listItem(m![3]!, 0, m![2] ? Number(m![2]) : null);
    } else out.paragraph(para);
  }
}
