// Documents made of other documents (ZIP archives, e-mails with
// attachments): each part is extracted on its own and becomes a section that
// starts on a new page, headed by its name. Pages add up, so the quota counts
// the pages of every part.

import type { OutputMode } from './blocks.ts';
import type { ExtractionResult, FailedSection, FormatOutput, Table } from './types.ts';

const SEPARATOR = '\n\n';

export class Compound {
  readonly pages: string[] = [];
  readonly tables: Table[] = [];
  readonly sections: number[] = [];
  readonly failed: FailedSection[] = [];
  private length = 0;

  constructor(private readonly mode: OutputMode) {}

  private addPage(text: string): void {
    if (this.pages.length > 0) this.length += SEPARATOR.length;
    this.pages.push(text);
    this.length += text.length;
  }

  /** A part of the outer document's own text (an e-mail body), already paged. */
  addPages(pages: string[], tables: Table[] = []): void {
    const first = this.pages.length;
    this.sections.push(this.length + (this.pages.length > 0 ? SEPARATOR.length : 0));
    for (const p of pages) this.addPage(p);
    for (const t of tables) this.tables.push(t.page === undefined ? t : { ...t, page: t.page + first });
  }

  /** An embedded document's result under a heading with its name. */
  addResult(name: string, result: ExtractionResult): void {
    const heading = this.mode === 'markdown' ? `## ${name}\n\n` : `${name}\n\n`;
    const pages = splitPages(result);
    pages[0] = heading + (pages[0] ?? '');
    this.addPages(pages, result.tables);
    for (const f of result.metadata.failed_sections ?? []) this.failed.push({ name: `${name}/${f.name}`, error: f.error });
  }

  fail(name: string, error: unknown): void {
    this.failed.push({ name, error: error instanceof Error ? error.message : String(error) });
  }

  output(metadata: FormatOutput['metadata'] = {}): FormatOutput {
    if (this.pages.length === 0) this.pages.push('');
    return { pages: this.pages, pageSeparator: SEPARATOR, sections: this.sections, tables: this.tables, metadata: { ...metadata, failed_sections: this.failed } };
  }
}

/** Splits an embedded result's content back into its pages (chunks cut by page carry the offsets). */
function splitPages(result: ExtractionResult): string[] {
  const n = Math.max(1, result.metadata.pages);
  if (n === 1) return [result.content];
  // Embedded documents are extracted with page chunking, so chunk boundaries are page boundaries.
  const byPage = new Map<number, string>();
  for (const c of result.chunks) if (c.page_start === c.page_end) byPage.set(c.page_start, c.text);
  const out: string[] = [];
  for (let p = 1; p <= n; p++) out.push(byPage.get(p) ?? '');
  return out;
}
