// What the presentation readers (PPTX, ODP) share: each slide written into
// Blocks of its own and kept as one page, its tables numbered through the
// deck, and its speaker notes labelled as such after its content.

import type { Blocks, OutputMode } from './blocks.ts';
import type { DraftElement, FormatOutput, Table } from './types.ts';

export class SlideDeck {
  private readonly texts: string[] = [];
  private readonly tables: Table[] = [];
  private readonly drafts: DraftElement[] = [];

  /** Slide `number` (1-based in the deck) as written into `out`: the next page. */
  add(number: number, out: Blocks): void {
    const page = this.texts.length;
    for (const e of out.elements) this.drafts.push({ ...e, page, ...(e.table !== undefined ? { table: e.table + this.tables.length } : {}) });
    for (const t of out.tables) this.tables.push({ page: number, rows: t.rows, markdown: t.markdown });
    this.texts.push(out.text());
  }

  /** The slides added, of `total`; `selected` when a page selection chose the slides `kept`. */
  output(total: number, kept: number[], selected: boolean, metadata: FormatOutput['metadata']): FormatOutput {
    return {
      pages: this.texts,
      pageSeparator: '\n\n',
      unit: 'slide',
      tables: this.tables,
      elements: this.drafts,
      ...(selected ? { pagesSelected: { total, kept } } : {}),
      metadata,
    };
  }
}

/** A slide's speaker notes, after its content: the first paragraph labelled. */
export function speakerNotes(out: Blocks, paragraphs: string[], mode: OutputMode): void {
  paragraphs.forEach((t, i) => out.paragraph(i === 0 ? (mode === 'markdown' ? `**Notes:** ${t}` : `Notes: ${t}`) : t));
}
