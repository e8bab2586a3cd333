// LaTeX source text taken apart without reading it: braced groups, a
// command's arguments, cells and rows split where they stand outside braces,
// comments, macro parameters, an enumerate's label template.

import { letters, roman } from '../../engine/list-counters.ts';
import { SECTIONS } from './commands.ts';

export interface LabelTemplate {
  before: string;
  after: string;
  style: 'arabic' | 'alph' | 'Alph' | 'roman' | 'Roman';
}

/**
 * The item label an enumerate's options set: enumitem's `label=` with its
 * counter (`\arabic*`, `\alph*`, `\roman*`...), or the enumerate package's
 * sample, whose first `1`, `a`, `A`, `i` or `I` outside braces is the
 * counter (`[(i)]`, `[Step 1:]`). Null where the options set none.
 */
export function labelTemplate(options: string): LabelTemplate | null {
  const setting = /(?:^|,)\s*label\s*=\s*/.exec(options);
  if (setting) {
    let value = options.slice(setting.index + setting[0].length);
    value = value.startsWith('{') ? balanced(value, 0) : (splitTop(value, ',')[0] ?? '');
    const counter = /\\(arabic|alph|Alph|roman|Roman)\*/.exec(value);
    if (!counter) return null;
    return { before: value.slice(0, counter.index), after: value.slice(counter.index + counter[0].length), style: counter[1] as LabelTemplate['style'] };
  }
  if (options.includes('=')) return null;
  let depth = 0;
  for (let j = 0; j < options.length; j++) {
    const c = options[j]!;
    if (c === '\\') {
      while (j + 1 < options.length && /[A-Za-z]/.test(options[j + 1]!)) j++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && 'aAiI1'.includes(c) && !/[A-Za-z]/.test(options[j - 1] ?? '') && !/[A-Za-z]/.test(options[j + 1] ?? '')) {
      const style = ({ '1': 'arabic', a: 'alph', A: 'Alph', i: 'roman', I: 'Roman' } as const)[c as '1'];
      return { before: options.slice(0, j), after: options.slice(j + 1), style };
    }
  }
  return null;
}

export function counter(n: number, style: LabelTemplate['style']): string {
  if (style === 'alph') return letters(n);
  if (style === 'Alph') return letters(n).toUpperCase();
  if (style === 'roman') return roman(n);
  if (style === 'Roman') return roman(n).toUpperCase();
  return String(n);
}

/** #1..#9 in a macro's body replaced by its arguments; ## is a #. */
export function substitute(body: string, args: string[]): string {
  return body.replace(/##|#(\d)/g, (m, d: string | undefined) => (d ? (args[Number(d) - 1] ?? '') : '#'));
}

/** The rank (index in SECTIONS) of the highest sectioning command the source uses, for heading levels. */
export function topSectionRank(source: string): number {
  let top = SECTIONS.indexOf('section');
  for (const m of source.matchAll(/\\(part|chapter|section|subsection|subsubsection)\*?\s*[[{]/g)) top = Math.min(top, SECTIONS.indexOf(m[1]!));
  return top;
}

/** Comments removed from a raw fragment (an escaped % stays). */
export function stripComments(s: string): string {
  return s.replace(/(^|[^\\])((?:\\\\)*)%[^\n]*\n?[ \t]*/g, '$1$2');
}

/** `s` split at `separator` where it stands outside braces and is not escaped (a cell's `\&`). */
export function splitTop(s: string, separator: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let j = 0; j < s.length; j++) {
    const c = s[j]!;
    if (c === '%') {
      const end = s.indexOf('\n', j);
      j = end < 0 ? s.length : end;
      continue;
    }
    if (depth === 0 && s.startsWith(separator, j)) {
      out.push(s.slice(from, j));
      j += separator.length - 1;
      from = j + 1;
      continue;
    }
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
  }
  out.push(s.slice(from));
  return out;
}

/**
 * The arguments of `\name` when it opens `s` (after white space), read by
 * `pattern` (`{}` a braced argument, `[]` an optional one, undefined when
 * left out); null when `s` does not open with the command.
 */
export function commandArgs(s: string, name: string, pattern: string): (string | undefined)[] | null {
  const head = new RegExp(`^\\s*\\\\${name}(?![A-Za-z])`).exec(s);
  if (!head) return null;
  let at = head[0].length;
  const args: (string | undefined)[] = [];
  for (let k = 0; k < pattern.length; k += 2) {
    while (at < s.length && /\s/.test(s[at]!)) at++;
    if (pattern[k] === '[') {
      if (s[at] !== '[') {
        args.push(undefined);
        continue;
      }
      const close = s.indexOf(']', at);
      if (close < 0) return null;
      args.push(s.slice(at + 1, close));
      at = close + 1;
    } else {
      if (s[at] !== '{') return null;
      const inner = balanced(s, at);
      args.push(inner);
      at += inner.length + 2;
    }
  }
  return args;
}

/** The text of the braced group opening at `open` in `s`, without its braces. */
export function balanced(s: string, open: number): string {
  let depth = 0;
  for (let j = open; j < s.length; j++) {
    const c = s[j];
    if (c === '\\') {
      j++;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return s.slice(open + 1, j);
  }
  return s.slice(open + 1);
}

export function clean(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/ ([.,;:!?)])/g, '$1').trim();
}
