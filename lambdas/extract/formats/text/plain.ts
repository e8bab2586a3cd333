// Plain text and Markdown: the decoded text as it is, paged by the quota rule
// so chunks and metadata.pages match what was reserved at submission. The
// blocks of a Markdown file are read from its own syntax; a plain text file's
// are its paragraphs (the engine's default).

import { TEXT_PAGE_CHARS } from '../../engine/text-pages.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import { splitByCodePoints } from '../../engine/text-stats.ts';
import type { DraftElement, FormatOutput } from '../../engine/types.ts';

export function extractPlain(bytes: Uint8Array): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  return { pages: splitByCodePoints(text, TEXT_PAGE_CHARS), pageSeparator: '', unit: 'text_page', metadata: { encoding } };
}

export function extractMarkdown(bytes: Uint8Array): FormatOutput {
  const out = extractPlain(bytes);
  return { ...out, elements: markdownBlocks(out.pages.join('')) };
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const LIST_ITEM = /^([ \t]*)(?:[-*+•]|(\d{1,9})[.)])[ \t]+(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^ {0,3}\|/;

/** Headings, list items, fenced code, tables and paragraphs of Markdown source, with their offsets in it. */
export function markdownBlocks(text: string): DraftElement[] {
  const drafts: DraftElement[] = [];
  const lines: Array<{ text: string; start: number; end: number }> = [];
  let at = 0;
  for (const line of text.split('\n')) {
    lines.push({ text: line.replace(/\r$/, ''), start: at, end: at + line.replace(/\r$/, '').length });
    at += line.length + 1;
  }
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.text.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line.text);
    if (fence) {
      let j = i + 1;
      while (j < lines.length && !lines[j]!.text.trimStart().startsWith(fence[1]!)) j++;
      const last = lines[Math.min(j, lines.length - 1)]!;
      const body = lines.slice(i + 1, j).map((l) => l.text).join('\n');
      drafts.push({ type: 'code', start: line.start, end: last.end, text: body });
      i = j + 1;
      continue;
    }
    const heading = HEADING.exec(line.text);
    if (heading) {
      drafts.push({ type: 'heading', level: heading[1]!.length, start: line.start, end: line.end, text: heading[2]! });
      i++;
      continue;
    }
    const item = LIST_ITEM.exec(line.text);
    if (item) {
      const depth = Math.floor(item[1]!.replace(/\t/g, '    ').length / 2);
      drafts.push({ type: 'list_item', level: depth, ordered: item[2] !== undefined, start: line.start, end: line.end, text: item[3]! });
      i++;
      continue;
    }
    if (TABLE_ROW.test(line.text)) {
      let j = i;
      while (j + 1 < lines.length && TABLE_ROW.test(lines[j + 1]!.text)) j++;
      drafts.push({ type: 'table', start: line.start, end: lines[j]!.end });
      i = j + 1;
      continue;
    }
    // A paragraph runs to a blank line or to a line that starts another kind of block.
    let j = i;
    while (j + 1 < lines.length) {
      const next = lines[j + 1]!.text;
      if (next.trim() === '' || HEADING.test(next) || FENCE.test(next) || LIST_ITEM.test(next) || TABLE_ROW.test(next)) break;
      j++;
    }
    drafts.push({ type: 'paragraph', start: line.start, end: lines[j]!.end });
    i = j + 1;
  }
  return drafts;
}
