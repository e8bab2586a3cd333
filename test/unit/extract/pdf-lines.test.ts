// Words into lines and lines into text, from words placed as PDFium gives them:
// the spacing rules that depend on scripts a synthetic Helvetica page cannot draw.

import { describe, expect, it } from 'vitest';
import { joinLines, toLines } from '../../../lambdas/extract/formats/pdf/layout.ts';
import { isRtl } from '../../../lambdas/extract/formats/pdf/script.ts';
import type { Word } from '../../../lambdas/extract/formats/pdf/words.ts';

let next = 0;

/** A word of 12-point type from x0 to x1 on the line whose baseline is `y` (page space, y up), next in content order. */
function word(text: string, x0: number, x1: number, y: number): Word {
  const first = next;
  next += text.length + 1;
  const rtlChars = [...text].filter((c) => isRtl(c.codePointAt(0)!)).length;
  return { text, x0, x1, bottom: y - 3, top: y + 9, first, last: first + text.length - 1, size: 12, bold: false, italic: false, mono: false, hyphen: false, spaced: false, rtlChars, mcid: -1 };
}

describe('PDF words into lines', () => {
  it('parts a Latin word from the Arabic word it touches in a right-to-left line, though no gap is drawn between them', () => {
    // In logical (content) order; the producer drew the space of "Python" on its right, none on its left.
    const words = [
      word('بلغة', 440, 470, 700),
      word('R', 425, 433, 700),
      word('و', 406, 412, 700),
      word('Python', 370, 403, 700),
      word('من', 358, 370, 700),
      word('الأدوات', 320, 354, 700),
    ];
    expect(toLines(words, 792).map((l) => l.text)).toEqual(['بلغة R و Python من الأدوات']);
  });

  it('joins a Korean paragraph\'s lines with a space, as its words are spaced, and Chinese ones without', () => {
    const korean = toLines([word('세계적', 72, 108, 700), word('유행단계에', 112, 172, 700), word('돌입한', 176, 212, 700), word('와중에', 72, 108, 686), word('국내', 112, 136, 686)], 792);
    expect(joinLines(korean)).toBe('세계적 유행단계에 돌입한 와중에 국내');
    const chinese = toLines([word('本报告介绍了北方地区水井的', 72, 228, 700), word('调查结果。', 72, 132, 686)], 792);
    expect(joinLines(chinese)).toBe('本报告介绍了北方地区水井的调查结果。');
  });
});
