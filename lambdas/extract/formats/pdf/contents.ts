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

/** Entries a contents page without a title shows at least, and their share of its blocks. */
const UNTITLED_ENTRIES = 6;
const UNTITLED_SHARE = 0.7;

/**
 * Where a contents page without a title starts (just before its first entry), or null when the page is none:
 * six blocks or more, seven in ten of them, short as entries are (160 characters at most), end in page numbers
 * that never go down (a chapter's "3-16" after "3-7", arabic after arabic). A price list's or an index's numbers
 * go up and down.
 */
function untitledFrom(flow: readonly Block[]): number | null {
  const entries = flow.flatMap((b, i) => {
    const m = PAGE_NUMBER.exec(b.text);
    return m && b.text.length <= 160 ? [{ i, at: m[1] ? [Number(m[1]), Number(m[2])] : [Number(m[3]), 0], chaptered: m[1] !== undefined }] : [];
  });
  if (entries.length < UNTITLED_ENTRIES || entries.length < UNTITLED_SHARE * flow.length) return null;
  if (entries.some((e) => e.chaptered !== entries[0]!.chaptered)) return null;
  const before = (a: number[], b: number[]) => a[0]! < b[0]! || (a[0] === b[0] && a[1]! <= b[1]!);
  if (!entries.every((e, k) => k === 0 || before(entries[k - 1]!.at, e.at)) || !before(entries[0]!.at, entries.at(-1)!.at) || entries[0]!.at.join() === entries.at(-1)!.at.join()) return null;
  return entries[0]!.i - 1;
}

/** An entry's arabic page number (after a space or leader dots, not a decimal's point), or a chapter's page ("3-16"), at its end. */
const PAGE_NUMBER = /(?:(?:^|\D)(\d{1,3})[-–](\d{1,4})|(?:^|[^\d.,-]|\.\.)(\d{1,4}))$/;

/**
 * Turns the headings among a table of contents' entries (and the captions among a list of figures') into
 * paragraphs, page by page (`pages`, each page's blocks in reading order; `inFlow` leaves running heads and notes
 * out): on a page titled "Contents" or "List of Figures" (or so in another language), the blocks after the title,
 * as long as each ends in a page number or stands a block or two over one that does; on the pages after it, while
 * most of their blocks end in page numbers; on a page without such a title, from its first entry, where its
 * entries' page numbers run up the page (untitledFrom).
 */
export function demoteContentsEntries<B extends Block>(pages: readonly B[][], inFlow: (b: B) => boolean): void {
  let goesOn = false;
  for (const page of pages) {
    const flow = page.filter(inFlow);
    const titled = flow.findIndex((b) => CONTENTS_TITLE.test(b.text.trim()));
    const referenced = flow.filter((b) => PAGE_REFERENCE.test(b.text)).length;
    // Without a title, entries whose page numbers run up the page make one (its title an image, or set letter by letter).
    const title: number | null = titled >= 0 ? titled : goesOn ? -1 : untitledFrom(flow);
    if (title === null || (title < 0 && !(flow.length >= 3 && referenced >= ENTRY_SHARE * flow.length))) {
      goesOn = false;
      continue;
    }
    let i: number = title + 1;
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
