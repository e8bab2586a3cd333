// The parts of an HTML page's DOM the readers walk (domhandler's nodes, which
// both parse5 and htmlparser2 build here), and what the HTML standard says
// about its elements that reading needs: which are never shown, which start a
// block, and the visible text under a node. Every walk is iterative: a page
// may nest elements far deeper than the call stack reaches.

export interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

/** Elements whose content is never shown as text. */
export const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'object', 'embed', 'canvas', 'datalist', 'area', 'map', 'input', 'meta', 'link', 'base']);

/** Elements that start a block of their own (a line of their own in a browser). */
export const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'blockquote', 'address', 'figure', 'figcaption',
  'dl', 'dt', 'dd', 'form', 'fieldset', 'legend', 'details', 'summary', 'center', 'body', 'html', 'hr', 'caption', 'option', 'optgroup',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table', 'pre', 'select', 'iframe', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot',
  'menu', 'dir', 'hgroup', 'search', 'dialog', 'listing', 'xmp', 'plaintext', 'frameset', 'frame', 'noframes',
]);

export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Lists of items (`li`); a description list (`dl`) is read apart. */
export const LISTS = new Set(['ul', 'ol', 'menu', 'dir']);
export const PREFORMATTED = new Set(['pre', 'listing', 'xmp', 'plaintext']);

export const isElement = (n: Node): boolean => n.type === 'tag' || n.type === 'script' || n.type === 'style';

export function hidden(n: Node): boolean {
  const a = n.attribs ?? {};
  return 'hidden' in a || /display\s*:\s*none|visibility\s*:\s*hidden/i.test(a.style ?? '') || a['aria-hidden'] === 'true';
}

/** An element that is read (not skipped, not hidden). */
export const shown = (n: Node): boolean => isElement(n) && !SKIP.has(n.name ?? '') && !hidden(n);

export const collapse = (s: string) => s.replace(/[ \t\r\n\f]+/g, ' ').trim();

/** All text under `n`, skipping what is never shown. */
export function plainText(n: Node): string {
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

/** Whether a shown element under `n` (not `n` itself) passes `test`. */
export function hasDescendant(n: Node, test: (c: Node) => boolean): boolean {
  const stack = [...(n.children ?? [])];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (!shown(c)) continue;
    if (test(c)) return true;
    if (c.children) stack.push(...c.children);
  }
  return false;
}

export function hasBlockChild(n: Node): boolean {
  return (n.children ?? []).some((c) => isElement(c) && BLOCK.has(c.name ?? ''));
}
