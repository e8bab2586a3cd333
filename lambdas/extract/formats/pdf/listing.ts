// A block in a fixed-pitch font read back as the text it was typed as: code
// and preformatted text mean their spaces (a YAML file's nesting, a Python
// block, aligned comments), which word boxes hold only as distances.

import type { TextBlock } from './layout.ts';

/** The block's lines with the spaces its fixed pitch puts before and between their words (a proportional font's lines as they are). */
export function listingLines(block: TextBlock): string[] {
  const pitch = block.mono ? characterWidth(block) : null;
  if (pitch === null) return block.lines.map((l) => l.text);
  const left = Math.min(...block.lines.map((l) => l.x0));
  return block.lines.map((line) => {
    if (line.rtl) return line.text;
    let text = ' '.repeat(Math.max(0, Math.round((line.x0 - left) / pitch)));
    line.words.forEach((w, i) => {
      if (i > 0) text += ' '.repeat(Math.max(1, Math.round((w.x0 - line.words[i - 1]!.x1) / pitch)));
      text += w.text;
    });
    return text;
  });
}

/** The width of one character cell: the median over the block's words of two characters or more (one glyph's box may be its ink). */
function characterWidth(block: TextBlock): number | null {
  const widths: number[] = [];
  for (const line of block.lines) {
    for (const w of line.words) {
      const n = [...w.text].length;
      if (n >= 2) widths.push((w.x1 - w.x0) / n);
    }
  }
  if (widths.length === 0) return null;
  widths.sort((a, b) => a - b);
  const width = widths[widths.length >> 1]!;
  return width > 0 ? width : null;
}
