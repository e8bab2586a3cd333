// Chunks follow pages: one chunk per page that has text. Offsets count code
// points of `content` (like metadata.char_count), end exclusive.

import { codePointLength } from './text-stats.ts';
import type { Chunk } from './types.ts';

export function joinPages(pages: string[], separator: string): { content: string; chunks: Chunk[] } {
  const chunks: Chunk[] = [];
  const sepLength = codePointLength(separator);
  let offset = 0;
  pages.forEach((text, i) => {
    const length = codePointLength(text);
    // An empty page (a scan without OCR, a blank sheet) would only be an empty chunk.
    if (text.trim() !== '') {
      chunks.push({ index: chunks.length, text, page_start: i + 1, page_end: i + 1, char_start: offset, char_end: offset + length });
    }
    offset += length + sepLength;
  });
  return { content: pages.join(separator), chunks };
}
