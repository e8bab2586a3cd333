// The page of a text format: a run of characters, since text has no pages of
// its own. Readers cut their text at it and page counting estimates with it,
// so the pages counted at submission are the pages extracted.

import type { CountSource } from './format.ts';

/** Text formats count one page per this many decoded characters (code points). */
export const TEXT_PAGE_CHARS = 3000;

export function textPages(codePoints: number): number {
  return Math.max(1, Math.ceil(codePoints / TEXT_PAGE_CHARS));
}

/** Characters of text in markup, roughly: tags, scripts and styles left out. */
export function markupTextLength(markup: string): number {
  const text = markup.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
  return text.length;
}

/** Text pages of the text in a ZIP package's markup parts, the clock checked before each part. */
export function partsTextPages({ zip, meter }: CountSource, parts: (names: string[]) => string[]): number {
  const package_ = zip();
  return textPages(
    parts(package_.names()).reduce((sum, part) => {
      meter.checkTime();
      return sum + markupTextLength(package_.readText(part) ?? '');
    }, 0),
  );
}
