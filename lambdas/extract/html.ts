// HTML (and the XHTML of EPUB chapters): the visible text in reading order,
// headings, lists, tables and preformatted blocks; never scripts, styles,
// templates or hidden elements. htmlparser2's tokenizer is forgiving of the
// broken markup real pages have, and does not fetch or execute anything.

import { Parser } from 'htmlparser2';
import { Blocks, type OutputMode } from './blocks.ts';
import { decodeText, detectEncoding } from './text.ts';
import type { FormatOutput } from './types.ts';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'select', 'button']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'blockquote', 'address', 'figure', 'figcaption',
  'dl', 'dt', 'dd', 'form', 'fieldset', 'legend', 'details', 'summary', 'center', 'body', 'html', 'hr', 'caption', 'option', 'label',
]);

export interface HtmlMeta {
  title: string | null;
  author: string | null;
  description: string | null;
  keywords: string | null;
  language: string | null;
}

export function extractHtml(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const { text, encoding } = decodeHtml(bytes);
  const out = new Blocks(mode);
  const meta = htmlInto(out, text);
  return out.output({
    title: meta.title,
    author: meta.author,
    subject: meta.description,
    keywords: meta.keywords,
    encoding,
    ...(meta.language ? { language: meta.language } : {}),
  });
}

/** A BOM or UTF-16 wins; else valid UTF-8; else the charset the page declares; else Windows-1252. */
export function decodeHtml(bytes: Uint8Array): { text: string; encoding: string } {
  const detected = detectEncoding(bytes);
  if (detected.bomLength > 0 || detected.encoding !== 'windows-1252') return decodeText(bytes);
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

interface TableState {
  rows: string[][];
  row: string[] | null;
  cell: string | null;
}

/** Writes the page's blocks into `out`; returns what the head says about the page. */
export function htmlInto(out: Blocks, html: string): HtmlMeta {
  const meta: HtmlMeta = { title: null, author: null, description: null, keywords: null, language: null };
  const stack: string[] = [];
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  let buf = '';
  let pre = 0;
  const lists: Array<{ ordered: boolean; n: number }> = [];
  let item: { level: number; ordinal: number | null } | null = null;
  let heading = 0;
  const tables: TableState[] = [];

  const flush = () => {
    const table = tables.at(-1);
    if (table && table.cell !== null) return;
    const text = pre > 0 ? buf : buf.replace(/[ \t\r\n\f]+/g, ' ').trim();
    buf = '';
    if (!text.trim()) return;
    if (pre > 0) out.code(text);
    else if (heading) out.heading(heading, text);
    else if (item) out.listItem(text, item.level, item.ordinal);
    else out.paragraph(text);
  };

  const closeCell = (t: TableState) => {
    if (t.cell !== null) {
      (t.row ??= []).push(t.cell);
      t.cell = null;
    }
  };
  const closeRow = (t: TableState) => {
    closeCell(t);
    if (t.row) t.rows.push(t.row);
    t.row = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'html' && attrs.lang) meta.language = attrs.lang.split('-')[0]!.toLowerCase() || null;
        if (name === 'meta') {
          const key = (attrs.name ?? '').toLowerCase();
          if (key === 'author') meta.author = attrs.content?.trim() || null;
          else if (key === 'description') meta.description = attrs.content?.trim() || null;
          else if (key === 'keywords') meta.keywords = attrs.content?.trim() || null;
        }
        if (name === 'title') inTitle = true;
        if (VOID.has(name)) {
          if (skipDepth === 0) {
            if (name === 'br') buf += '\n';
            else if (name === 'img' && attrs.alt && tables.length > 0) buf += ` ${attrs.alt} `;
            else if (name === 'hr') flush();
          }
          return;
        }
        stack.push(name);
        const hidden = 'hidden' in attrs || /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attrs.style ?? '') || attrs['aria-hidden'] === 'true';
        if (skipDepth > 0 || SKIP.has(name) || hidden) {
          skipDepth++;
          return;
        }
        const table = tables.at(-1);
        if (name === 'table') {
          if (table && table.cell !== null) return; // a nested table's text stays in its cell
          flush();
          tables.push({ rows: [], row: null, cell: null });
        } else if (table && table.cell === null && (name === 'tr' || name === 'td' || name === 'th')) {
          if (name === 'tr') closeRow(table);
          else {
            table.row ??= [];
            table.cell = '';
          }
        } else if (table && table.cell !== null) {
          if (BLOCK.has(name) || name === 'li' || name === 'p' || /^h[1-6]$/.test(name)) table.cell += ' ';
        } else if (/^h[1-6]$/.test(name)) {
          flush();
          heading = Number(name[1]);
        } else if (name === 'ul' || name === 'ol') {
          flush();
          lists.push({ ordered: name === 'ol', n: Number(attrs.start ?? 1) - 1 || 0 });
        } else if (name === 'li') {
          flush();
          const list = lists.at(-1);
          const ordinal = list?.ordered ? ++list.n : null;
          item = { level: Math.max(0, lists.length - 1), ordinal };
        } else if (name === 'pre') {
          flush();
          pre++;
        } else if (BLOCK.has(name) || name === 'tr') flush();
      },
      ontext(text) {
        if (inTitle) {
          title += text;
          return;
        }
        if (skipDepth > 0) return;
        const table = tables.at(-1);
        if (table && table.cell !== null) table.cell += text;
        else buf += text;
      },
      onclosetag(name, implied) {
        if (name === 'title') {
          inTitle = false;
          meta.title = title.replace(/\s+/g, ' ').trim() || null;
        }
        if (VOID.has(name)) return;
        const at = stack.lastIndexOf(name);
        if (at < 0) return;
        stack.length = at;
        void implied;
        if (skipDepth > 0) {
          skipDepth--;
          return;
        }
        const table = tables.at(-1);
        if (table && table.cell !== null && name !== 'td' && name !== 'th' && name !== 'tr' && name !== 'table') {
          if (BLOCK.has(name) || name === 'p' || name === 'li') table.cell += ' ';
          return;
        }
        if (table && (name === 'td' || name === 'th')) closeCell(table);
        else if (table && name === 'tr') closeRow(table);
        else if (table && name === 'table') {
          closeRow(table);
          tables.pop();
          out.table(table.rows);
        } else if (/^h[1-6]$/.test(name)) {
          flush();
          heading = 0;
        } else if (name === 'li') {
          flush();
          item = null;
        } else if (name === 'ul' || name === 'ol') {
          flush();
          lists.pop();
        } else if (name === 'pre') {
          flush();
          pre = Math.max(0, pre - 1);
        } else if (BLOCK.has(name)) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  while (tables.length > 0) {
    const t = tables.pop()!;
    closeRow(t);
    out.table(t.rows);
  }
  flush();
  return meta;
}
