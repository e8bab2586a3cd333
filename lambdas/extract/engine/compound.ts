// Documents made of other documents (ZIP archives, e-mails with
// attachments): each part is extracted on its own and becomes a section that
// starts on a new page, headed by its name. Pages add up, so the quota counts
// the pages of every part.

import type { OutputMode } from './blocks.ts';
import { toUtf16 } from './chunks.ts';
import { onPages, paragraphDrafts } from './elements.ts';
import { TEXT_PAGE_CHARS } from './text-pages.ts';
import { splitByCodePoints } from './text-stats.ts';
import type { DraftElement, ExtractionResult, FailedSection, FormatOutput, Table } from './types.ts';

const SEPARATOR = '\n\n';

export class Compound {
  readonly pages: string[] = [];
  readonly tables: Table[] = [];
  readonly sections: number[] = [];
  readonly failed: FailedSection[] = [];
  /** Every part's blocks, on the compound's pages (0-based), offsets into those pages' text. */
  readonly elements: DraftElement[] = [];
  private length = 0;

  constructor(private readonly mode: OutputMode) {}

  private addPage(text: string): void {
    if (this.pages.length > 0) this.length += SEPARATOR.length;
    this.pages.push(text);
    this.length += text.length;
  }

  /**
   * A part of the outer document's own text (an e-mail body), already paged;
   * its blocks (pages numbered from 0 within `pages`), or else its paragraphs.
   */
  addPages(pages: string[], tables: Table[] = [], elements?: DraftElement[]): void {
    const first = this.pages.length;
    const tablesBefore = this.tables.length;
    this.sections.push(this.length + (this.pages.length > 0 ? SEPARATOR.length : 0));
    for (const p of pages) this.addPage(p);
    for (const t of tables) this.tables.push(t.page === undefined ? t : { ...t, page: t.page + first });
    const drafts = elements ?? pages.flatMap((text, page) => paragraphDrafts(text).map((d) => ({ ...d, page })));
    for (const d of drafts) {
      this.elements.push({ ...d, page: first + (d.page ?? 0), ...(d.table !== undefined ? { table: d.table + tablesBefore } : {}) });
    }
  }

  /** Flowing text of the outer document (an e-mail body): paged by the text rule, its blocks (offsets into `text`) kept. */
  addFlow(text: string, tables: Table[], elements: DraftElement[]): void {
    const pages = splitByCodePoints(text, TEXT_PAGE_CHARS);
    this.addPages(pages, tables, onPages(elements, pages));
  }

  /** An embedded document's result under a heading with its name (none where `name` is null: the document is the whole), its elements kept. */
  addResult(name: string | null, result: ExtractionResult): void {
    const heading = name === null ? '' : this.mode === 'markdown' ? `## ${name}\n\n` : `${name}\n\n`;
    const { pages, starts } = splitPages(result);
    pages[0] = heading + (pages[0] ?? '');
    const drafts: DraftElement[] = name === null ? [] : [{ type: 'heading', level: 2, page: 0, start: 0, end: heading.trimEnd().length, text: name }];
    const at = toUtf16(result.content, (result.elements ?? []).flatMap((e) => [e.char_start, e.char_end]));
    (result.elements ?? []).forEach((e, i) => {
      const page = Math.min(Math.max(0, e.page - 1), pages.length - 1);
      const shift = (page === 0 ? heading.length : 0) - starts[page]!;
      drafts.push({
        type: e.type,
        page,
        start: at[2 * i]! + shift,
        end: at[2 * i + 1]! + shift,
        text: e.text,
        ...(e.level !== undefined ? { level: e.level } : {}),
        ...(e.ordered !== undefined ? { ordered: e.ordered } : {}),
        ...(e.table !== undefined ? { table: e.table } : {}),
        ...(e.bbox ? { bbox: e.bbox } : {}),
      });
    });
    this.addPages(pages, result.tables, result.elements ? drafts : undefined);
    for (const f of result.metadata.failed_sections ?? []) this.failed.push({ name: name === null ? f.name : `${name}/${f.name}`, error: f.error });
  }

  fail(name: string, error: unknown): void {
    this.failed.push({ name, error: error instanceof Error ? error.message : String(error) });
  }

  output(metadata: FormatOutput['metadata'] = {}): FormatOutput {
    if (this.pages.length === 0) this.pages.push('');
    return {
      pages: this.pages,
      pageSeparator: SEPARATOR,
      sections: this.sections,
      tables: this.tables,
      elements: this.elements,
      metadata: { ...metadata, failed_sections: this.failed },
    };
  }
}

/**
 * Splits an embedded result's content back into its pages (chunks cut by
 * page carry the offsets), with the UTF-16 offset in content where each starts.
 */
function splitPages(result: ExtractionResult): { pages: string[]; starts: number[] } {
  const n = Math.max(1, result.metadata.pages);
  if (n === 1) return { pages: [result.content], starts: [0] };
  // Embedded documents are extracted with page chunking, so chunk boundaries are page boundaries.
  const byPage = new Map<number, { text: string; start: number }>();
  for (const c of result.chunks) if (c.page_start === c.page_end) byPage.set(c.page_start, { text: c.text, start: c.char_start });
  const pages: string[] = [];
  const cps: number[] = [];
  for (let p = 1; p <= n; p++) {
    pages.push(byPage.get(p)?.text ?? '');
    cps.push(byPage.get(p)?.start ?? 0);
  }
  return { pages, starts: toUtf16(result.content, cps) };
}
