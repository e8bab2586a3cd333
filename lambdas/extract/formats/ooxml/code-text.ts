// Code set as ordinary Word paragraphs: by its style ("Source Code",
// "HTML Preformatted") or by a monospaced font over text that reads as code.
// A typewriter face alone is not enough: memos, screenplays and forms are set
// in Courier too, and a search user wants their prose as prose.

/** Paragraph style names (spaces, hyphens and case aside) that mark code whatever the text. */
const CODE_STYLES = new Set(['code', 'codeblock', 'sourcecode', 'programcode', 'codesnippet', 'htmlpreformatted', 'preformatted', 'preformattedtext', 'macrotext', 'verbatim']);

/**
 * Whether a paragraph style (by its name, or its id where it has none) is
 * meant for code. Exact names, not substrings: "Source Reference" and
 * "Listing Number" hold no code. Word's "Plain Text" is left to the font
 * test: Word gives it to text files and plain e-mail opened in it, whose
 * prose would otherwise come out as one block of code.
 */
export function isCodeStyle(name: string): boolean {
  return CODE_STYLES.has(name.toLowerCase().replace(/[\s_-]+/g, ''));
}

const MONOSPACE =
  /courier|consolas|menlo|monaco|\bmono\b|monospace|lucida (console|sans typewriter)|inconsolata|source code|fira code|cascadia|jetbrains|fixedsys|\bterminal\b|andale|\bhack\b|\bocr[- ]?a\b|letter gothic|prestige elite/i;

const monospace = new Map<string, boolean>();

/** Typefaces whose every letter is as wide as the next, by family name (each name tested once: a document asks for every run). */
export function isMonospaceFont(font: string): boolean {
  let known = monospace.get(font);
  if (known === undefined) {
    known = MONOSPACE.test(font);
    if (monospace.size < 1000) monospace.set(font, known);
  }
  return known;
}

/** A line with a sign that only code carries: statement ends, operators, calls, markup, comments. */
function strongSign(line: string): boolean {
  return (
    /[;{}]\s*$/.test(line) ||
    /^\s*(?:\/\/|\/\*|#!|#include\b|#define\b|<!--|--\s)/.test(line) ||
    /(?:==|!=|<=|>=|=>|->|\+=|-=|\*=|\/=|&&|\|\||::|:=)/.test(line) ||
    // A call, name(args); not a plural in prose, item(s).
    /[A-Za-z_][\w.]*\((?!e?s\))[^()]*\)/.test(line) ||
    /^\s*[\w.[\], ]+\s=\s*\S/.test(line) ||
    /<\/?[a-z][\w-]*(?:\s[^>]*)?\/?>/i.test(line) ||
    /^\s*(?:select|insert|update|delete|create|alter|drop)\b.*\b(?:from|into|set|table|where|index|view)\b/i.test(line)
  );
}

/** A line opening with a keyword of a common language. */
const keyword = (line: string) =>
  /^\s*(?:def|class|import|from|return|function|const|let|var|public|private|protected|static|void|int|if|else|elif|for|while|do|try|catch|except|finally|package|using|namespace|fn|func|echo|print|begin|end)\b/.test(
    line,
  );

/** Indented by spaces or a tab, as code nests blocks (Word indents prose by paragraph settings, not typed spaces). */
const indented = (line: string) => /^(?:\t| {2,})\S/.test(line);

/** A sentence of prose: several words, no sign of code, not indented, ending as sentences end. */
const prose = (line: string) => !strongSign(line) && !keyword(line) && !indented(line) && line.trim().split(/\s+/).length >= 4 && /[.!?:]["”’)]?$/.test(line.trim());

/**
 * Which of a run of lines set in a monospaced font read as code: a sign only
 * code carries on at least one line, and most lines carrying one, opening
 * with a keyword or indented by typed spaces ("This memo is set in a
 * typewriter face." has none and stays prose). Sentences of prose at either
 * end of the run (a monospaced note before or after a listing) are not
 * taken in. The first and last index of the code, or undefined.
 */
export function codeSpan(lines: string[]): { first: number; last: number } | undefined {
  let first = 0;
  let last = lines.length - 1;
  const blank = (i: number) => lines[i]!.trim() === '';
  while (first <= last && (blank(first) || prose(lines[first]!))) first++;
  while (last >= first && (blank(last) || prose(lines[last]!))) last--;
  if (first > last) return undefined;
  let text = 0;
  let strong = 0;
  let codeish = 0;
  for (let i = first; i <= last; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    text++;
    const s = strongSign(line);
    if (s) strong++;
    if (s || keyword(line) || indented(line)) codeish++;
  }
  return strong > 0 && codeish * 5 >= text * 3 ? { first, last } : undefined;
}
