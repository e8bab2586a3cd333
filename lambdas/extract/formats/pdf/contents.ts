// A table of contents read as what it is: its entries, chapter lines set in
// bold or large among them, are no headings of the document, and a list of
// figures' entries are no captions. (Read as headings, they would open a
// section for every chapter before the first page of text, and chunks cut at
// headings would carry their titles.)

import type { ElementType } from '../../engine/types.ts';

/** A contents page's title, or a list of figures' or tables', in the languages docex reads most. */
const CONTENTS_TITLE = new RegExp(
  `^(?:${[
    'table of contents|contents|inhalt|inhaltsverzeichnis|table des matières|sommaire|índice|indice|contenido|contenidos|sumário|inhoud|inhoudsopgave|содержание|оглавление|目次|目录|目錄',
    'list of (?:figures|tables|illustrations|exhibits)|abbildungsverzeichnis|tabellenverzeichnis|table des (?:figures|tableaux)|liste des (?:figures|tableaux)|índice de (?:figuras|tablas)|lista de (?:figuras|tablas|tabelas)|elenco delle (?:figure|tabelle)|lijst van (?:figuren|tabellen)',
  ].join('|')})$`,
  'iu',
);

/** An entry's page number at its end: arabic, roman after a space or a leader's dots, or a chapter's own ("3-16"). */
const PAGE_REFERENCE = /(?:\d{1,4}|(?:^|[\s.])[ivxlcdm]{1,7}|\d{1,3}[-–]\d{1,4})$/i;

/** Of an entry page (one that goes on from a contents page), the share of its blocks that end in a page number. */
const ENTRY_SHARE = 0.6;

interface Block {
  type: ElementType;
  text: string;
  level?: number;
  /** Its level came from the document's own tags or outline, which say it is a heading. */
  tagLevel?: boolean;
  outlined?: boolean;
}

/**
 * Turns the headings among a table of contents' entries (and the captions among a list of figures') into
 * paragraphs, page by page (`pages`, each page's blocks in reading order; `inFlow` leaves running heads and notes
 * out): on a page titled "Contents" or "List of Figures" (or so in another language), the blocks after the title,
 * as long as each ends in a page number or stands a block or two over one that does; on the pages after it, while
 * most of their blocks end in page numbers.
 */
export function demoteContentsEntries<B extends Block>(pages: readonly B[][], inFlow: (b: B) => boolean): void {
  let goesOn = false;
  for (const page of pages) {
    const flow = page.filter(inFlow);
    const title = flow.findIndex((b) => CONTENTS_TITLE.test(b.text.trim()));
    const referenced = flow.filter((b) => PAGE_REFERENCE.test(b.text)).length;
    if (title < 0 && !(goesOn && flow.length >= 3 && referenced >= ENTRY_SHARE * flow.length)) {
      goesOn = false;
      continue;
    }
    let i = title + 1;
    for (; i < flow.length; i++) {
      const block = flow[i]!;
      // A block that neither ends in a page number nor heads one that does (a chapter's line over its first entry, which
      // may wrap onto a block of its own) opens the document's text; at the page's foot an entry may go on overleaf.
      if (i + 3 <= flow.length && !flow.slice(i, i + 3).some((b) => PAGE_REFERENCE.test(b.text))) break;
      // A list of figures' entries ("Figure 1-2 Existing controls ..... 5") are no captions either.
      if ((block.type === 'heading' || block.type === 'caption') && !block.tagLevel && !block.outlined) {
        block.type = 'paragraph';
        delete block.level;
      }
    }
    goesOn = i === flow.length && i - title - 1 >= 3;
  }
}
