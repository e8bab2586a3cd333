// Building the content of documents that flow rather than paginate (DOCX,
// ODT, HTML, EPUB, RTF, e-mail): blocks in reading order, written as plain
// text or Markdown, with the offsets where sections start and the tables.

import { TEXT_PAGE_CHARS } from './text-pages.ts';
import { splitByCodePoints } from './text-stats.ts';
import type { DraftElement, ElementType, FormatOutput, Table } from './types.ts';

export type OutputMode = 'text' | 'markdown';

export class Blocks {
  private readonly parts: string[] = [];
  private length = 0;
  readonly sections: number[] = [];
  readonly tables: Table[] = [];
  readonly elements: DraftElement[] = [];
  private lastWasListItem = false;

  constructor(readonly mode: OutputMode) {}

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  /** `plain` is the block's text without Markdown syntax, where `text` has some. */
  private push(text: string, element: Omit<DraftElement, 'start' | 'end'>, plain = text): void {
    const listItem = element.type === 'list_item';
    if (this.parts.length > 0) {
      // List items stay on consecutive lines; other blocks are a blank line apart.
      const sep = listItem && this.lastWasListItem ? '\n' : '\n\n';
      this.parts.push(sep);
      this.length += sep.length;
    }
    this.parts.push(text);
    this.elements.push({ ...element, start: this.length, end: this.length + text.length, ...(plain !== text ? { text: plain } : {}) });
    this.length += text.length;
    this.lastWasListItem = listItem;
  }

  /** Starts a new section here (a chapter, a member, a slide) without writing anything. */
  section(): void {
    const at = this.parts.length === 0 ? 0 : this.length + 2;
    if (this.sections.at(-1) !== at) this.sections.push(at);
  }

  /** The document's own title, when the format marks one apart from its headings. */
  title(text: string): void {
    const t = oneLine(text);
    if (!t) return;
    this.section();
    this.push(this.mode === 'markdown' ? `# ${t}` : t, { type: 'title', level: 1 }, t);
  }

  heading(level: number, text: string): void {
    const t = oneLine(text);
    if (!t) return;
    const lvl = Math.min(6, Math.max(1, level));
    this.section();
    this.push(this.mode === 'markdown' ? `${'#'.repeat(lvl)} ${t}` : t, { type: 'heading', level: lvl }, t);
  }

  paragraph(text: string): void {
    this.prose(text, 'paragraph');
  }

  /** A caption of a figure or table ("Figure 3. ..."). */
  caption(text: string): void {
    this.prose(text, 'caption');
  }

  /**
   * A figure: an element carrying its alternative text or description, which
   * is not written into the text (a reader does not see it), as a PDF's
   * figures are not; a figure without a description is left out.
   */
  figure(text: string): void {
    const t = oneLine(text);
    if (t) this.elements.push({ type: 'figure', start: this.length, end: this.length, text: t });
  }

  footnote(text: string): void {
    this.prose(text, 'footnote');
  }

  /** A review comment, after the body: who wrote it and on what, so a reader of the text knows it is not the document's own. */
  comment(text: string, author: string, anchor: string): void {
    const t = oneLine(text);
    if (!t) return;
    const on = oneLine(anchor);
    const head = `Comment${author.trim() ? ` by ${oneLine(author)}` : ''}${on ? ` on “${on.length > 80 ? `${on.slice(0, 79)}…` : on}”` : ''}`;
    this.push(this.mode === 'markdown' ? `**${head}:** ${t}` : `${head}: ${t}`, { type: 'paragraph' }, `${head}: ${t}`);
  }

  /** An equation as readable linear text. */
  formula(text: string): void {
    const t = oneLine(text);
    if (t) this.push(this.mode === 'markdown' ? `$${t}$` : t, { type: 'formula' }, t);
  }

  /** Running header text (DOCX headers, slide headers): a block of its own kind. */
  pageHeader(text: string): void {
    this.prose(text, 'page_header');
  }

  pageFooter(text: string): void {
    this.prose(text, 'page_footer');
  }

  private prose(text: string, type: ElementType): void {
    const t = text.replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
    if (t.trim()) this.push(this.mode === 'markdown' ? markdownProse(t) : t, { type }, t);
  }

  listItem(text: string, level = 0, ordinal: number | null = null): void {
    const t = oneLine(text);
    if (!t) return;
    const element = { type: 'list_item' as const, level, ordered: ordinal !== null };
    if (this.mode === 'markdown') this.push(`${'  '.repeat(level)}${ordinal === null ? '-' : `${ordinal}.`} ${t}`, element, t);
    else this.push(t, element);
  }

  /**
   * A numbered list item with the label its document shows. A plain number
   * ("3.", "3)", "3") is the item's ordinal, written `3.` in Markdown as
   * listItem writes it. Any other label ("1.2.", "b)", "iv.", "Article 3:")
   * stays before the text, as the reader sees it and as a search for "1.2"
   * must find it: Markdown has no such numbers, so the item is written as a
   * bullet holding its label, and the element stays an ordered item.
   */
  numberedItem(label: string, text: string, level = 0): void {
    const l = oneLine(label);
    const plain = /^(\d{1,9})[.)]?$/.exec(l);
    if (plain || !l) {
      this.listItem(text, level, plain ? Number(plain[1]) : null);
      return;
    }
    const t = oneLine(text);
    if (!t) return;
    const shown = `${l} ${t}`;
    const element = { type: 'list_item' as const, level, ordered: true };
    if (this.mode === 'markdown') this.push(`${'  '.repeat(level)}- ${l.replace(/^([*+\-#>])/, '\\$1')} ${t}`, element, shown);
    else this.push(shown, element);
  }

  /**
   * A task-list item: a checkbox opening its line and what it stands for.
   * Markdown writes the box as `[ ]` or `[x]`; plain text and the element keep
   * the glyph the document shows (☐, ☒).
   */
  taskItem(text: string, checked: boolean, level = 0, glyph = checked ? '☒' : '☐'): void {
    const t = oneLine(text);
    if (!t) return;
    const shown = `${glyph} ${t}`;
    const element = { type: 'list_item' as const, level, ordered: false };
    if (this.mode === 'markdown') this.push(`${'  '.repeat(level)}- [${checked ? 'x' : ' '}] ${t}`, element, shown);
    else this.push(shown, element);
  }

  /** Preformatted text (code, <pre>) kept as it is. */
  code(text: string): void {
    if (!text.trim()) return;
    const plain = text.replace(/\n+$/, '');
    this.push(this.mode === 'markdown' ? '```\n' + plain + '\n```' : plain, { type: 'code' }, plain);
  }

  table(rows: string[][], where: { page?: number; sheet?: string } = {}): void {
    const clean = normaliseRows(rows);
    if (clean.length === 0) return;
    const markdown = tableMarkdown(clean);
    this.tables.push({ ...where, rows: clean, markdown });
    const plain = tableText(clean);
    this.push(this.mode === 'markdown' ? markdown : plain, { type: 'table', table: this.tables.length - 1 }, plain);
  }

  /**
   * A run of a table's rows read apart from the rest (a part of a large
   * sheet, page-parts.ts), already trimmed and as wide as the whole table.
   * Without `header` the run holds the table's first row and is written as a
   * table is. With it, the header row lies in an earlier run: the rows are
   * written as the body rows they are in the whole table (no header line), so
   * the runs' texts joined by a line break are the whole table's, and the
   * table record repeats the header, as a CSV chunk's does (merge.ts joins
   * them).
   */
  tableRows(rows: string[][], header: string[] | null, where: { page?: number; sheet?: string } = {}): void {
    if (rows.length === 0) return;
    const all = header ? [header, ...rows] : rows;
    this.tables.push({ ...where, rows: all, markdown: tableMarkdown(all) });
    const plain = tableText(rows);
    const shown = this.mode !== 'markdown' ? plain : header ? rows.map(markdownRow).join('\n') : tableMarkdown(rows);
    this.push(shown, { type: 'table', table: this.tables.length - 1 }, plain);
  }

  text(): string {
    return this.parts.join('');
  }

  /** Paged by the text rule (3,000 characters a page) so quota and metadata agree. */
  output(metadata: FormatOutput['metadata'] = {}): FormatOutput {
    return flowOutput(this.text(), { sections: this.sections, tables: this.tables, elements: this.elements, metadata });
  }
}

export function flowOutput(text: string, rest: Omit<FormatOutput, 'pages' | 'pageSeparator'>): FormatOutput {
  return { pages: splitByCodePoints(text, TEXT_PAGE_CHARS), pageSeparator: '', unit: 'text_page', ...rest };
}

/**
 * Prose as Markdown shows it as prose: a line that would open a list, a
 * heading, a quote, a fence or a rule ("2. Review each claim", a typed number
 * a paragraph starts with; "# 4", "> note", "---") has its mark escaped, and
 * no line is indented into a code block.
 */
export function markdownProse(text: string): string {
  return text
    .replace(/^[ \t]+/gm, '')
    .replace(/^(\d{1,9})([.)])(?=\s|$)/gm, '$1\\$2')
    .replace(/^([-+*]|#{1,6})(?=\s|$)/gm, '\\$1')
    .replace(/^(>|`{3}|~{3})/gm, '\\$1')
    .replace(/^(?=([-*_=])(?:\s*\1){2,}\s*$)/gm, '\\');
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Trims cells, pads short rows, and drops empty rows and trailing empty columns. */
export function normaliseRows(rows: string[][]): string[][] {
  const trimmed = rows.map((r) => r.map((c) => c.replace(/\s+/g, ' ').trim())).filter((r) => r.some((c) => c !== ''));
  let width = 0;
  for (const r of trimmed) {
    let w = r.length;
    while (w > 0 && r[w - 1] === '') w--;
    width = Math.max(width, w);
  }
  return trimmed.map((r) => {
    const out = r.slice(0, width);
    while (out.length < width) out.push('');
    return out;
  });
}

/** A table as plain text: cells tab-separated, a row a line. */
export const tableText = (rows: string[][]) => rows.map((r) => r.join('\t')).join('\n');

/** A GitHub-flavoured Markdown table; the first row is the header. */
export function tableMarkdown(rows: string[][]): string {
  if (rows.length === 0) return '';
  const [head, ...body] = rows;
  return [markdownRow(head!), markdownRule(head!.length), ...body.map(markdownRow)].join('\n');
}

/** One row of a Markdown table, cells escaped. */
export const markdownRow = (row: string[]) => `| ${row.map((c) => c.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')).join(' | ')} |`;

/** The line under a Markdown table's header. */
export const markdownRule = (width: number) => `| ${Array.from({ length: width }, () => '---').join(' | ')} |`;
