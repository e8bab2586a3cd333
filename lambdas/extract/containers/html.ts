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
import { BLOCK, collapse, hasDescendant, HEADINGS, hidden, isElement, LISTS, type Node, plainText, PREFORMATTED, shown, SKIP } from './html-dom.ts';
import { laysOutPage, tableGrid, tableRows } from './html-tables.ts';
import { decodeText, detectEncoding } from './text-decoding.ts';

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

type Kind = 'paragraph' | 'caption';

/** Elements an item's text does not run through: what is read as blocks of its own. */
const ITEM_BREAKS = new Set([...LISTS, ...HEADINGS, ...PREFORMATTED, 'dl', 'li', 'dt', 'dd', 'table', 'hr', 'iframe', 'textarea', 'select', 'figure', 'figcaption', 'caption']);
const breaksItem = (n: Node) => ITEM_BREAKS.has(n.name ?? '') || (n.name === 'math' && n.attribs?.display === 'block');

class Reader {
  /** Inline text gathered for the block being read. */
  private buf = '';
  /** How much of `buf` is text rather than image descriptions. */
  private bufText = 0;
  /** The lists open around the node being read, each with the level of its items. */
  private lists: Array<{ ordered: boolean; n: number; level: number }> = [];
  /** While an item's text is gathered, blocks in it are read as runs of its text. */
  private inItemText = false;

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
      case 'dl':
        this.flush(kind);
        this.descriptionList(n, depth);
        return;
      case 'li':
        // A list item outside any list: a bullet all the same.
        this.flush(kind);
        this.item(n, depth, null, this.lists.at(-1)?.level ?? 0);
        return;
      case 'pre':
      case 'listing':
      case 'xmp':
      case 'plaintext':
        this.flush(kind);
        this.out.code(codeText(preText(n)));
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
    if (BLOCK.has(name) && this.inItemText) {
      this.buf += ' ';
      for (const c of n.children ?? []) this.node(c, depth + 1, kind);
      this.buf += ' ';
    } else if (BLOCK.has(name)) {
      this.flush(kind);
      this.flow(n, depth, kind);
    } else for (const c of n.children ?? []) this.node(c, depth + 1, kind);
  }

  /** The level a list opened here gives its items: one deeper than the list around it. */
  private nextLevel(): number {
    return (this.lists.at(-1)?.level ?? -1) + 1;
  }

  private list(n: Node, depth: number, start: number | null): void {
    const list = { ordered: start !== null, n: (start ?? 1) - 1, level: this.nextLevel() };
    this.lists.push(list);
    for (const c of n.children ?? []) {
      if (c.type === 'text') {
        if ((c.data ?? '').trim()) this.out.paragraph(collapse(c.data!));
        continue;
      }
      if (!shown(c)) continue;
      if (c.name === 'li') {
        const value = Number(c.attribs?.value);
        if (list.ordered && Number.isFinite(value) && c.attribs?.value) list.n = value - 1;
        this.item(c, depth + 1, list.ordered ? ++list.n : null, list.level);
      } else this.node(c, depth + 1, 'paragraph');
    }
    this.lists.pop();
  }

  /**
   * A description list as a list: each term (`dt`) an item at the list's
   * level and each description (`dd`) an item one level under its term, so
   * a term's descriptions read as its sub-items, as a browser indents them. A
   * description before any term has no term to go under and stays at the
   * list's level; one that only holds another description list lends that
   * list its level (it shows no text of its own to nest under).
   */
  private descriptionList(dl: Node, depth: number): void {
    const level = this.nextLevel();
    let termSeen = false;
    const visit = (parent: Node, d: number) => {
      for (const c of parent.children ?? []) {
        if (c.type === 'text') {
          if ((c.data ?? '').trim()) this.out.paragraph(collapse(c.data!));
          continue;
        }
        if (!shown(c)) continue;
        if (c.name === 'dt') {
          termSeen = true;
          this.withList(level, () => this.item(c, d + 1, null, level));
        } else if (c.name === 'dd') {
          const own = termSeen ? level + 1 : level;
          // Lists in the description nest under it, or take its place where it has no text before them.
          this.withList(leadText(c) ? own : own - 1, () => this.item(c, d + 1, null, own));
        } else if (c.name === 'div' && d - depth < MAX_DEPTH) visit(c, d + 1);
        else this.withList(level, () => this.node(c, d + 1, 'paragraph'));
      }
    };
    visit(dl, depth);
  }

  /** Reads with a list open at `level`, so lists met inside go one deeper. */
  private withList(level: number, read: () => void): void {
    this.lists.push({ ordered: false, n: 0, level });
    read();
    this.lists.pop();
  }

  /**
   * A list item: its text, then its nested lists one level deeper, then any
   * other blocks it holds. Its text is what comes before the first block
   * that is not a run of text (a list, a table, code, a heading): the
   * paragraphs and divs it is written in run together, as a browser shows
   * them beside its bullet.
   */
  private item(li: Node, depth: number, ordinal: number | null, level: number): void {
    const saved = { buf: this.buf, bufText: this.bufText, inItemText: this.inItemText };
    this.buf = '';
    this.bufText = 0;
    let written = false;
    const writeItem = () => {
      if (written) return;
      written = true;
      this.inItemText = false;
      const text = collapse(this.buf.replace(/\u0000/g, ' '));
      this.buf = '';
      this.bufText = 0;
      if (text) this.out.listItem(text, level, ordinal);
    };
    for (const c of li.children ?? []) {
      if (!written && (!isElement(c) || !(breaksItem(c) || hasDescendant(c, breaksItem)))) {
        this.inItemText = true;
        this.node(c, depth + 1, 'paragraph');
      } else {
        writeItem();
        this.node(c, depth + 1, 'paragraph');
      }
    }
    writeItem();
    this.flush();
    this.buf = saved.buf;
    this.bufText = saved.bufText;
    this.inItemText = saved.inItemText;
  }

  private table(t: Node, depth: number): void {
    const rows = tableRows(t);
    if (laysOutPage(t, rows)) {
      for (const row of rows) for (const cell of row) this.flow(cell.node, depth + 1);
      return;
    }
    const caption = (t.children ?? []).find((c) => c.name === 'caption');
    if (caption) this.flow(caption, depth, 'caption');
    this.out.table(tableGrid(rows));
  }
}

/** Whether a description has text of its own before any list it holds. */
function leadText(n: Node): boolean {
  for (const c of n.children ?? []) {
    if (isElement(c) && (LISTS.has(c.name ?? '') || c.name === 'dl')) return false;
    if (c.type === 'text' ? (c.data ?? '').trim() !== '' : shown(c) && plainText(c).trim() !== '') return true;
  }
  return false;
}

/**
 * Code as its lines show it, without blank lines around it and, in a block of
 * several lines, without the indentation all of them share (the page's
 * markup indented the block, not the code; a single line's indentation may
 * be the code's own).
 */
function codeText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0]);
  let common = indents.length > 1 ? indents[0]! : '';
  for (const indent of indents) while (!indent.startsWith(common)) common = common.slice(0, -1);
  return lines.map((l) => l.slice(common.length).replace(/[ \t]+$/, '')).join('\n');
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
