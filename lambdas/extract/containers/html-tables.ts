// HTML tables: telling a table that holds data from one that lays out the page,
// and a data table's grid, its spanning cells spread over the columns and rows
// they cover.

import { BLOCK, collapse, hasBlockChild, HEADINGS, hidden, isElement, LISTS, type Node, plainText, PREFORMATTED, shown, SKIP } from './html-dom.ts';

export interface Cell {
  node: Node;
}

/** The rows of a table (its own, not a nested table's), each a list of its td/th cells. */
export function tableRows(t: Node): Cell[][] {
  const rows: Cell[][] = [];
  const visit = (n: Node) => {
    for (const c of n.children ?? []) {
      if (!shown(c)) continue;
      if (c.name === 'tr') rows.push((c.children ?? []).filter((x) => (x.name === 'td' || x.name === 'th') && !hidden(x)).map((node) => ({ node })));
      else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot' || c.name === 'form') visit(c);
    }
  };
  visit(t);
  return rows;
}

/** A cell's text: everything in it, blocks, line breaks and a nested table's cells as spaces, image descriptions included. */
export function cellText(cell: Node): string {
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

/**
 * Elements that structure a page, which a cell holding a value never holds
 * (a heading may: a price table's plans are often headings, so it only counts
 * as a block of text; a form may be one button in a row of data).
 */
const PAGE_STRUCTURE = new Set(['fieldset', 'nav', 'header', 'footer', 'aside', 'article', 'section', 'main', 'search', 'dialog']);
/** Blocks a passage of text is made of. */
const PARAGRAPHS = new Set(['p', 'blockquote', 'address', 'figure', 'dl', ...HEADINGS, ...LISTS, ...PREFORMATTED]);
const FIELDS = new Set(['input', 'select', 'textarea']);
/** A list to choose from's entries, which are no paragraphs. */
const CHOICES = new Set(['option', 'optgroup']);

interface CellTraits {
  /** Navigation, a section of a page, or a form of several fields. */
  pageStructure: boolean;
  /** Paragraph-like pieces: paragraphs, lists, quotes, code, other blocks holding no blocks, and text outside them. */
  pieces: number;
  heading: boolean;
  /** Pieces that are blocks (not loose text). */
  blocks: number;
  words: number;
  /** Tables nested in the cell (not looked into). */
  tables: Node[];
  /** Whether the cell shows anything besides its nested tables: text, or a described image. */
  other: boolean;
}

function traitsOf(cell: Node): CellTraits {
  const t: CellTraits = { pageStructure: false, heading: false, pieces: 0, blocks: 0, words: 0, tables: [], other: false };
  let loose = false;
  const stack: Array<[Node, boolean]> = (cell.children ?? []).map((c) => [c, false]);
  while (stack.length > 0) {
    const [c, inBlock] = stack.pop()!;
    if (c.type === 'text') {
      const words = (c.data ?? '').match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
      if (words > 0) {
        t.words += words;
        t.other = true;
        if (!inBlock) loose = true;
      }
      continue;
    }
    if (!shown(c)) continue;
    const name = c.name ?? '';
    if (name === 'table') {
      t.tables.push(c);
      continue;
    }
    if (name === 'img' && c.attribs?.alt?.trim()) t.other = true;
    if (PAGE_STRUCTURE.has(name) || (name === 'form' && fieldCount(c) > 1)) t.pageStructure = true;
    if (HEADINGS.has(name)) t.heading = true;
    // Any other block with text and no blocks in it (a div, a centred line) is a paragraph as the page shows it.
    const leaf = BLOCK.has(name) && !CHOICES.has(name) && !hasBlockChild(c) && plainText(c).trim() !== '';
    const block = !inBlock && (PARAGRAPHS.has(name) || leaf);
    if (block) t.blocks++;
    for (const x of c.children ?? []) stack.push([x, inBlock || block]);
  }
  t.pieces = t.blocks + (loose ? 1 : 0);
  return t;
}

/** A form's fields a user fills in (inputs other than hidden ones, lists to choose from, text areas). */
function fieldCount(form: Node): number {
  let n = 0;
  const stack = [...(form.children ?? [])];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (!isElement(c) || hidden(c)) continue;
    if (FIELDS.has(c.name ?? '') && c.attribs?.type !== 'hidden') n++;
    else if (c.children) stack.push(...c.children);
  }
  return n;
}

/** Tables nested in tables are classified this deep; deeper ones are taken for layout. */
const MAX_NESTING = 8;
/** A table nested in a cell is read as that cell's value up to this many cells; a larger one is content of its own. */
const CELL_VALUE_CELLS = 20;
/** Words from which a cell of several blocks is a passage of the page, not a value. */
const PASSAGE_WORDS = 30;

/**
 * Whether a table lays out the page (its cells read as the blocks they hold)
 * rather than holding data (read as a grid). Browsers show both alike; what
 * tells them apart is what the cells hold. A data table holds short values:
 * a word or a sentence, a short list, a label set as a heading, line
 * breaks, and now and then a small table that is the whole of its cell (a
 * breakdown of one value), read as that cell's text. A layout table:
 * - is marked as presentation, or has a single cell;
 * - is one column of blocks (the page's bands stacked), or one row of cells
 *   holding more than a value (a heading, paragraphs, a table: the page's
 *   columns side by side);
 * - has a cell holding what only a page holds: navigation, a section, a
 *   form to fill in;
 * - nests a table beside other content in its cell, or in a row of its own
 *   (a band across the page, as e-mails lay out theirs), or one that itself
 *   lays out, is too large to be a value, or is half blank (spacers around a
 *   button), or nests tables in more than a third of its cells (a grid of
 *   panels);
 * - has passages of text (cells of several paragraphs or lists and some 30
 *   words) in a quarter of its cells or more.
 */
export function laysOutPage(t: Node, rows: Cell[][], nesting = 0): boolean {
  const role = t.attribs?.role;
  if (role === 'presentation' || role === 'none') return true;
  const cells = rows.flat();
  if (cells.length <= 1) return true;
  if (nesting >= MAX_NESTING) return true;
  const traits = cells.map((c) => traitsOf(c.node));
  const rowOf = new Map(rows.flatMap((r) => r.map((c) => [c, r] as const)));
  const filled = traits.filter((c) => c.other || c.tables.length > 0);
  // A column of blocks, each band of the page a row; a row of columns each holding more than a value.
  if (rows.every((r) => r.length <= 1) && traits.some((c) => c.blocks > 0 || c.tables.length > 0)) return true;
  if (rows.length === 1 && traits.some((c) => c.pieces > 1 || c.heading || c.tables.length > 0)) return true;
  if (traits.some((c) => c.pageStructure)) return true;
  const holdingTables = traits.filter((c) => c.tables.length > 0);
  for (const [k, c] of traits.entries()) {
    if (c.tables.length === 0) continue;
    if (c.other || c.tables.length > 1 || rowOf.get(cells[k]!)!.length === 1) return true;
    const inner = tableRows(c.tables[0]!);
    const innerCells = inner.flat();
    const blank = innerCells.filter((x) => collapse(cellText(x.node)) === '').length;
    if (innerCells.length > CELL_VALUE_CELLS || blank * 2 >= innerCells.length || laysOutPage(c.tables[0]!, inner, nesting + 1)) return true;
  }
  if (holdingTables.length * 3 > filled.length) return true;
  const passages = traits.filter((c) => c.pieces >= 2 && c.words >= PASSAGE_WORDS).length;
  return passages > 0 && passages * 4 >= filled.length;
}

/**
 * A data table's rows as a grid: a cell spanning columns or rows (colspan,
 * rowspan) has its text in every position it covers, so each row reads whole
 * on its own (a row of a pivot table names its year and quarter, not blanks
 * under them), as a spreadsheet's tools show merged cells read into a
 * frame. A row whose every cell carries on into the row below (a row that
 * only opens a spanning cell, as pivot tables write their group labels) says
 * nothing that row does not, and is left out.
 */
export function tableGrid(rows: Cell[][]): string[][] {
  const grid: Array<{ texts: string[]; carried: boolean[] }> = [];
  const carry: Array<{ left: number; text: string } | undefined> = [];
  for (const row of rows) {
    const texts: string[] = [];
    const carried: boolean[] = [];
    let col = 0;
    const fill = () => {
      for (let c = carry[col]; c && c.left > 0; c = carry[col]) {
        c.left--;
        texts.push(c.text);
        carried.push(c.left > 0);
        col++;
      }
    };
    for (const cell of row) {
      fill();
      const text = collapse(cellText(cell.node));
      const span = Math.min(64, Math.max(1, Number(cell.node.attribs?.colspan ?? 1) || 1));
      const rowspan = Math.min(1000, Math.max(1, Number(cell.node.attribs?.rowspan ?? 1) || 1));
      for (let k = 0; k < span; k++) {
        texts.push(text);
        carried.push(rowspan > 1);
        carry[col] = rowspan > 1 ? { left: rowspan - 1, text } : undefined;
        col++;
      }
    }
    fill();
    grid.push({ texts, carried });
  }
  return grid
    .filter((r, i) => i === grid.length - 1 || !r.texts.every((text, c) => text === '' || r.carried[c]))
    .map((r) => r.texts);
}
