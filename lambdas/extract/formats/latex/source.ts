// LaTeX sources (a paper's .tex, as arXiv serves it): read as the typeset
// document shows them, not as markup. Sectioning commands are headings
// ranked from the highest one the file uses, \maketitle the title and its
// authors, itemize/enumerate/description lists with their nesting,
// tabular-like environments tables (\multicolumn and \multirow repeated over
// the cells they cover, as merged cells are in every format), captions,
// footnotes after their paragraph, display math and math environments
// formulas (their LaTeX kept: it is the linear form readers and models
// know), verbatim and listings code. The file's own macros (\newcommand,
// \def, \newenvironment) are expanded. What TeX would compute and the
// source does not hold (section numbers, the numbers \ref and \cite print)
// is written as the label the source names, `[key]`. Files brought in with
// \input or \include are read where the project comes zipped (project.ts);
// a source file alone cannot show them.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { decodeText } from '../../containers/text-decoding.ts';
import type { FormatOutput } from '../../engine/types.ts';
import { ACCENTS, ASSIGNED_VALUE, CODE, DIMENSION, DROPPED, LISTS, MATH, REFERENCES, SECTIONS, SILENT, SYMBOLS, TABLES, WRAPPERS } from './commands.ts';
import { clean, counter, labelTemplate, type LabelTemplate, stripComments, substitute, topSectionRank } from './syntax.ts';
import { tableRows } from './tables.ts';

/** Theorem-like environments classes declare themselves (llncs, amsthm's proof): read as \newtheorem'd ones are. */
const THEOREMS = new Set(['theorem', 'lemma', 'corollary', 'proposition', 'definition', 'conjecture', 'claim', 'remark', 'example', 'proof']);

/** A Beamer overlay specification after a command's name: `<2->`, `<1,3>`, `<+->`, `<.->`. */
const OVERLAY = /^<[-+\d,.|a-z*]{1,20}>/;

/** A source that defines a macro in terms of itself would expand forever: expansions stop here. */
const MAX_EXPANSIONS = 200_000;
/** Environments and arguments nested deeper are not read by nested readers (a hostile source would exhaust the stack). */
const MAX_NESTING = 64;

interface Macro {
  params: number;
  /** The first parameter's default, when it is optional. */
  optional?: string;
  body: string;
}

interface Frame {
  s: string;
  i: number;
}

interface ListContext {
  ordered: boolean;
  count: number;
  bibliography?: boolean;
  /** The label an enumerate's options set (`label=\textbf{RQ\arabic*:}`, `[(i)]`), its counter's place marked. */
  label?: LabelTemplate;
}


export function extractLatex(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  const blocks = new Blocks(mode);
  const { title, author } = readLatex(text, blocks);
  return blocks.output({ encoding, ...(title ? { title } : {}), ...(author ? { author } : {}) });
}

/** Reads one LaTeX source into `blocks`; its title and authors as \maketitle shows them. */
export function readLatex(source: string, blocks: Blocks): { title: string; author: string } {
  const reader = new LatexReader(source, blocks);
  reader.run();
  return { title: reader.titleText, author: reader.authorText };
}

class LatexReader {
  readonly blocks: Blocks;
  titleText = '';
  authorText = '';
  private frames: Frame[];
  private buf: string[] = [];
  private footnotes: string[] = [];
  private lists: ListContext[] = [];
  /** The list item being read: its level and its ordinal or label. */
  private item: { level: number; ordinal: number | null; label?: string } | null = null;
  private readonly macros: Map<string, Macro>;
  private readonly environments: Map<string, { params: number; optional?: string; begin: string; end: string }>;
  /** Shared with the readers of fragments: what a hostile source could otherwise make unbounded. */
  private limits = { expansions: 0, depth: 0 };
  /** Before \begin{document}: definitions are read, nothing is written. */
  private silent: boolean;
  private done = false;
  private title: { title?: string; author?: string; date?: string; abstract?: string; shown: boolean } = { shown: false };
  private readonly topRank: number;
  /** The figure being read: whether it shows a picture, and its caption's element and text. */
  private figure: { graphic: boolean; caption: number; text: string } | null = null;
  private depth = 0;
  /** Theorem-like environments the source declares, and the name each prints. */
  private readonly theorems = new Map<string, string>();
  private frameLevel: number | undefined;
  /** Where text set in a display size (\Large and up) starts and ends in the block being read. */
  private display: { start: number; end: number; depth: number } | null = null;
  /** Read for `inline`: an argument or a cell, whose text is one line however it breaks. */
  private readonly fragment: boolean;

  private readonly mode: OutputMode;

  constructor(
    source: string,
    blocks: Blocks,
    shared?: { macros: Map<string, Macro>; environments: LatexReader['environments']; limits: { expansions: number; depth: number }; topRank: number },
  ) {
    this.blocks = blocks;
    this.mode = blocks.mode;
    this.frames = [{ s: source, i: 0 }];
    this.macros = shared?.macros ?? new Map();
    this.environments = shared?.environments ?? new Map();
    if (shared) this.limits = shared.limits;
    this.silent = !shared && /\\begin\s*\{document\}/.test(source);
    this.topRank = shared?.topRank ?? topSectionRank(source);
    this.fragment = shared !== undefined;
  }

  run(): void {
    while (!this.done && this.more()) this.step();
    this.flush();
  }

  /** A fragment (an argument, a cell) as one line of text, read with this document's macros. */
  private inline(source: string): string {
    // Arguments nested past any real document's depth are read as their words, without recursing further.
    if (this.limits.depth >= MAX_NESTING) return clean(source.replace(/\\[A-Za-z@]+\*?|[{}$]/g, ' '));
    this.limits.depth++;
    try {
      return this.readFragment(source);
    } finally {
      this.limits.depth--;
    }
  }

  private readFragment(source: string): string {
    const child = new LatexReader(source, new Blocks(this.mode), { macros: this.macros, environments: this.environments, limits: this.limits, topRank: this.topRank });
    child.title = this.title;
    while (child.more()) child.step();
    // A footnote inside a fragment (a caption's, an author's \thanks) follows the block the fragment is in.
    this.footnotes.push(...child.footnotes);
    return clean(child.buf.join(''));
  }

  // --- input -------------------------------------------------------------

  private more(): boolean {
    while (this.frames.length > 0) {
      const top = this.frames.at(-1)!;
      if (top.i < top.s.length) return true;
      this.frames.pop();
    }
    return false;
  }

  private peek(): string | undefined {
    return this.more() ? this.frames.at(-1)!.s[this.frames.at(-1)!.i] : undefined;
  }

  private next(): string | undefined {
    if (!this.more()) return undefined;
    const top = this.frames.at(-1)!;
    return top.s[top.i++];
  }

  private skipSpaces(): void {
    while (this.more()) {
      const c = this.peek()!;
      if (c === '%') this.skipComment();
      else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.next();
      else return;
    }
  }

  private skipComment(): void {
    const top = this.frames.at(-1)!;
    const end = top.s.indexOf('\n', top.i);
    top.i = end < 0 ? top.s.length : end + 1;
    // TeX drops the line end and the next line's indentation after a comment.
    while (top.i < top.s.length && (top.s[top.i] === ' ' || top.s[top.i] === '\t')) top.i++;
  }

  /** A control sequence's name after its backslash: letters, or one other character. */
  private readName(): string {
    const top = this.frames.at(-1)!;
    const s = top.s;
    let j = top.i;
    while (j < s.length && /[A-Za-z@]/.test(s[j]!)) j++;
    if (j === top.i) j = Math.min(s.length, j + 1);
    const name = s.slice(top.i, j);
    top.i = j;
    if (/^[A-Za-z@]+$/.test(name)) {
      while (top.i < s.length && (s[top.i] === ' ' || s[top.i] === '\t')) top.i++;
      // A Beamer overlay specification (`\item<2->`, `\only<1,3>`) says on which slides: nothing to read.
      const overlay = OVERLAY.exec(s.slice(top.i, top.i + 24));
      if (overlay) top.i += overlay[0].length;
    }
    return name;
  }

  /** A braced group's text (without its braces), or the next single token. */
  private readArg(): string {
    this.skipSpaces();
    const c = this.peek();
    if (c === undefined) return '';
    if (c === '{') {
      this.next();
      return this.readUntilClose('}');
    }
    this.next();
    return c === '\\' ? `\\${this.readName()}` : c;
  }

  /** `[...]` if one follows, else undefined. */
  private readOptional(): string | undefined {
    const top = this.frames.at(-1);
    if (!top) return undefined;
    let j = top.i;
    while (j < top.s.length && /\s/.test(top.s[j]!)) j++;
    if (top.s[j] !== '[') return undefined;
    top.i = j + 1;
    return this.readUntilClose(']');
  }

  private readStar(): boolean {
    const top = this.frames.at(-1);
    if (top && top.s[top.i] === '*') {
      top.i++;
      return true;
    }
    return false;
  }

  /** Up to the bracket closing one already opened (`}` or `]`), over nested braces and escaped characters. */
  private readUntilClose(close: '}' | ']'): string {
    const top = this.frames.at(-1)!;
    const s = top.s;
    let depth = 0;
    let j = top.i;
    for (; j < s.length; j++) {
      const c = s[j]!;
      if (c === '\\') j++;
      else if (c === '%') {
        const end = s.indexOf('\n', j);
        j = end < 0 ? s.length : end;
      } else if (c === '{') depth++;
      else if (c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (c === close && depth === 0) break;
    }
    const out = s.slice(top.i, j);
    top.i = Math.min(s.length, j + 1);
    return stripComments(out);
  }

  /** The raw text up to `\end{name}` (nested ones of the same name included), past which reading goes on. */
  private readEnvironmentBody(name: string): string {
    const top = this.frames.at(-1)!;
    const s = top.s;
    const open = new RegExp(`\\\\(begin|end)\\s*\\{${name.replace(/[*]/g, '\\*')}\\}`, 'g');
    open.lastIndex = top.i;
    let depth = 0;
    for (let m = open.exec(s); m; m = open.exec(s)) {
      if (m[1] === 'begin') depth++;
      else if (depth-- === 0) {
        const body = s.slice(top.i, m.index);
        top.i = m.index + m[0].length;
        return body;
      }
    }
    const body = s.slice(top.i);
    top.i = s.length;
    return body;
  }

  // --- reading -----------------------------------------------------------

  private step(): void {
    const c = this.next()!;
    switch (c) {
      case '\\':
        return this.command(this.readName());
      case '%':
        this.frames.at(-1)!.i--;
        return this.skipComment();
      case '{':
        this.depth++;
        return;
      case '}':
        this.depth--;
        // A size switched on inside this group ends with it.
        if (this.display && this.depth < this.display.depth) {
          this.display.end = this.buf.join('').length;
          this.display.depth = Number.POSITIVE_INFINITY;
          // A line set large that opens its block ends there (a title page's title over the lines under it).
          if (!this.buf.join('').slice(0, this.display.start).trim()) this.flush();
        }
        return;
      case '$':
        return this.dollarMath();
      case '~':
        return this.write(' ');
      case '&':
        return this.write(' ');
      case '-':
        return this.dashes();
      case '`':
      case "'":
        return this.quotes(c);
      case '\n':
      case '\r':
      case ' ':
      case '\t':
        return this.space(c);
      default:
        return this.write(c);
    }
  }

  private write(text: string): void {
    if (!this.silent) this.buf.push(text);
  }

  /** A blank line ends a paragraph; other white space is one space. */
  private space(first: string): void {
    let newlines = first === '\n' ? 1 : 0;
    const top = this.frames.at(-1);
    while (top && top.i < top.s.length && /[ \t\r\n]/.test(top.s[top.i]!)) if (top.s[top.i++] === '\n') newlines++;
    if (newlines >= 2) this.paragraphBreak();
    else this.write(' ');
  }

  private paragraphBreak(): void {
    // Inside a list item a blank line goes on with the item, as the item's text does; a fragment is one line.
    if (this.item || this.fragment) this.write(' ');
    else this.flush();
  }

  private dashes(): void {
    let n = 1;
    while (this.peek() === '-' && n < 3) {
      this.next();
      n++;
    }
    this.write(n === 3 ? '—' : n === 2 ? '–' : '-');
  }

  private quotes(c: string): void {
    if (this.peek() === c) {
      this.next();
      this.write(c === '`' ? '“' : '”');
    } else this.write(c === '`' ? '‘' : '’');
  }

  private dollarMath(): void {
    if (this.peek() === '$') {
      this.next();
      const top = this.frames.at(-1);
      if (!top) return;
      const end = top.s.indexOf('$$', top.i);
      const body = top.s.slice(top.i, end < 0 ? top.s.length : end);
      top.i = end < 0 ? top.s.length : end + 2;
      return this.displayMath(body);
    }
    const top = this.frames.at(-1);
    if (!top) return;
    let j = top.i;
    while (j < top.s.length && top.s[j] !== '$') j += top.s[j] === '\\' ? 2 : 1;
    const body = top.s.slice(top.i, j);
    top.i = Math.min(top.s.length, j + 1);
    this.inlineMath(body);
  }

  private inlineMath(body: string): void {
    const t = this.mathMacros(stripComments(body)).replace(/\s+/g, ' ').trim();
    if (t) this.write(this.mode === 'markdown' ? `$${t}$` : t);
  }

  private displayMath(body: string): void {
    const t = this.mathMacros(stripComments(body))
      .replace(/\\(label|tag)\s*\{[^}]*\}/g, '')
      .replace(/\\(nonumber|notag)\b/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!t || this.silent) return;
    this.flush();
    this.blocks.formula(t);
  }

  /** The document's own macros without parameters written out in math (`\dmodel` is `d_{\text{model}}`), a few levels deep. */
  private mathMacros(math: string): string {
    let out = math;
    for (let pass = 0; pass < 4 && ++this.limits.expansions <= MAX_EXPANSIONS; pass++) {
      const next = out.replace(/\\([A-Za-z@]+)(?![A-Za-z@])\s?/g, (whole, name: string) => {
        const macro = this.macros.get(name);
        return macro && macro.params === 0 ? `${macro.body} ` : whole;
      });
      if (next === out) break;
      out = next;
    }
    return out;
  }

  /** Ends the block being read: a paragraph, or the list item under way; then its footnotes. */
  private flush(): void {
    if (this.fragment) return;
    const raw = this.buf.join('');
    const text = clean(raw);
    this.buf = [];
    const display = this.display;
    this.display = null;
    if (this.silent) return;
    // A block set wholly in a display size ({\LARGE\bfseries ...\par}): a title page's title, or a heading.
    const displayed = display !== null && !raw.slice(0, display.start).trim() && !raw.slice(display.end).trim() && text.split(' ').length <= 24;
    if (text && displayed && !this.item) {
      if (!this.title.shown && !this.titleText && this.blocks.elements.length <= 1 && !this.blocks.elements.some((e) => e.type === 'heading')) {
        this.title.shown = true;
        this.titleText = text;
        this.blocks.title(text);
      } else this.blocks.heading(1, text);
    } else if (this.item) {
      const { level, ordinal, label } = this.item;
      if (label !== undefined) this.blocks.numberedItem(label, text, level);
      else this.blocks.listItem(text, level, ordinal);
      this.item = null;
    } else if (text) this.blocks.paragraph(text);
    this.writeFootnotes();
  }

  /** The footnotes read since the last block, after the block they belong to. */
  private writeFootnotes(): void {
    for (const note of this.footnotes.splice(0)) this.blocks.footnote(note);
  }

  private command(name: string): void {
    const macro = this.macros.get(name);
    if (macro) return this.expand(macro);
    // A letter accent (\c, \v, \u...) only before its braced letter: `\u` alone is more likely some package's command.
    if (Object.hasOwn(ACCENTS, name) && (!/^[a-z]$/i.test(name) || name === 'H' || this.peek() === '{')) return this.accent(name);
    if (Object.hasOwn(SYMBOLS, name)) {
      if (name === 'par') return this.paragraphBreak();
      if (name === '\\') {
        this.readStar();
        this.readOptional();
      }
      return this.write(SYMBOLS[name]!);
    }
    const rank = SECTIONS.indexOf(name);
    if (rank >= 0) return this.section(rank);
    if (REFERENCES.has(name)) {
      this.readStar();
      this.readOptional();
      this.readOptional();
      const keys = this.readArg().replace(/\s+/g, '');
      return this.write(`[${keys.split(',').join(', ')}]`);
    }
    // A setup command's arguments are all dropped; a wrapper's up to the text it shows, which is read on as text.
    const dropped = Object.hasOwn(SILENT, name) ? SILENT[name] : Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (dropped !== undefined) {
      if (name === 'includegraphics' && this.figure) this.figure.graphic = true;
      this.readStar();
      this.readOptional();
      for (let k = 0; k < dropped; k++) {
        this.readArg();
        this.readOptional();
      }
      return;
    }
    switch (name) {
      case 'begin':
        return this.beginEnvironment(this.readArg().trim());
      case 'end':
        if (this.readArg().trim() === 'document') this.done = true;
        return;
      case 'newcommand':
      case 'renewcommand':
      case 'providecommand':
      case 'DeclareRobustCommand':
      case 'newcommandx':
        return this.defineCommand();
      case 'def':
      case 'gdef':
      case 'edef':
      case 'xdef':
        return this.defineDef();
      case 'newenvironment':
      case 'renewenvironment':
        return this.defineEnvironment();
      case 'newtheorem': {
        // \newtheorem{lemma}[theorem]{Lemma}[section]: the environment and the name it prints.
        this.readStar();
        const environment = this.readArg().trim();
        this.readOptional();
        const printed = this.inline(this.readArg());
        this.readOptional();
        if (environment && printed) this.theorems.set(environment, printed);
        return;
      }
      case 'let':
        this.readArg();
        if (this.peek() === '=') this.next();
        this.readArg();
        return;
      case 'title':
        this.readOptional();
        this.title.title = this.readArg();
        return;
      case 'author': {
        // One \author per author in some classes (acmart, IEEE's journal styles): each joins the list.
        this.readOptional();
        const author = this.readArg();
        this.title.author = this.title.author === undefined ? author : `${this.title.author}\\and ${author}`;
        return;
      }
      case 'affiliation':
      case 'institution':
      case 'department':
      case 'streetaddress':
      case 'city':
      case 'state':
      case 'postcode':
      case 'country':
      case 'email':
      case 'orcid':
      case 'additionalaffiliation': {
        // acmart's parts of the author block set apart: each a line of the last author's, its parts apart by commas.
        if (this.fragment) return this.write(', ');
        this.readOptional();
        const part = this.readArg();
        if (this.title.author !== undefined && name !== 'orcid') this.title.author += `\\\\ ${part}`;
        return;
      }
      case 'date':
        this.title.date = this.readArg();
        return;
      case 'maketitle':
        return this.makeTitle();
      case 'item':
        return this.startItem(this.readOptional());
      case 'bibitem':
        this.readOptional();
        this.readArg();
        return this.startItem(undefined);
      case 'footnote':
      case 'thanks':
      case 'footnotetext': {
        this.readOptional();
        const note = this.inline(this.readArg());
        if (note && !this.silent) this.footnotes.push(note);
        return;
      }
      case 'caption':
        return this.caption();
      case 'frametitle':
        return this.frameTitle(this.inline(this.readArg()));
      case 'framesubtitle':
        return this.frameSubtitle();
      case 'url':
      case 'nolinkurl':
        return this.write(this.readArg());
      case 'verb': {
        const delimiter = this.next();
        const top = this.frames.at(-1);
        if (!delimiter || !top) return;
        const end = top.s.indexOf(delimiter, top.i);
        this.write(top.s.slice(top.i, end < 0 ? top.s.length : end));
        top.i = end < 0 ? top.s.length : end + 1;
        return;
      }
      case '(':
        return this.inlineMath(this.readTo('\\)'));
      case '[':
        return this.displayMath(this.readTo('\\]'));
      case 'ensuremath':
        return this.inlineMath(this.readArg());
      case 'and':
      case 'And':
      case 'AND':
        return this.write(' ');
      case 'tabularnewline':
        return this.write(' ');
      case 'Large':
      case 'LARGE':
      case 'huge':
      case 'Huge':
        if (!this.display) this.display = { start: this.buf.join('').length, end: Number.POSITIVE_INFINITY, depth: this.depth };
        return;
      case 'vskip':
      case 'hskip':
      case 'kern':
        this.skipDimension(false);
        return;
      default:
        // Any other command prints nothing of its own; what it is given (a braced argument) is read as text,
        // but not a value it is set to (`\parskip=0pt`, `\tolerance=1000`).
        if (this.skipDimension(true)) return;
        this.readStar();
        this.readOptional();
        return;
    }
  }

  /** Passes over a TeX dimension or number (`2mm plus 1mm`), after an `=` where `assigned`; whether there was one. */
  private skipDimension(assigned: boolean): boolean {
    const top = this.frames.at(-1);
    if (!top) return false;
    const pattern = assigned ? ASSIGNED_VALUE : DIMENSION;
    pattern.lastIndex = top.i;
    const m = pattern.exec(top.s);
    if (!m) return false;
    top.i += m[0].length;
    return true;
  }

  private readTo(end: string): string {
    const top = this.frames.at(-1)!;
    const at = top.s.indexOf(end, top.i);
    const body = top.s.slice(top.i, at < 0 ? top.s.length : at);
    top.i = at < 0 ? top.s.length : at + end.length;
    return body;
  }

  private accent(name: string): void {
    const arg = this.readArg();
    const letter = arg === '\\i' ? 'ı' : arg === '\\j' ? 'ȷ' : arg.startsWith('\\') ? (Object.hasOwn(SYMBOLS, arg.slice(1)) ? SYMBOLS[arg.slice(1)]! : '') : arg;
    this.write(`${letter}${ACCENTS[name]}`.normalize('NFC'));
  }

  private section(rank: number): void {
    this.readStar();
    this.readOptional();
    const text = this.inline(this.readArg());
    if (this.silent) return;
    this.flush();
    this.closeItem();
    this.blocks.heading(Math.max(1, rank - this.topRank + 1), text);
  }

  /** A list item under way is written before a block that is not part of it. */
  private closeItem(): void {
    if (this.item) this.flush();
  }

  private caption(): void {
    this.readStar();
    this.readOptional();
    const text = this.inline(this.readArg());
    if (this.silent || !text) return;
    this.flush();
    if (this.figure) this.figure = { ...this.figure, caption: this.blocks.elements.length, text };
    this.blocks.caption(text);
    this.writeFootnotes();
  }

  private makeTitle(): void {
    if (this.silent || this.title.shown) return;
    this.title.shown = true;
    this.flush();
    const title = this.title.title ? this.inline(this.title.title) : '';
    if (title) {
      this.titleText = title;
      this.blocks.title(title);
    }
    const authors = (this.title.author ?? '')
      .split(/\\(?:and|And|AND)\b/)
      .map((a) => this.inline(a.replace(/\\\\(\[[^\]]*\])?/g, ', ')).replace(/^[,\s]+|[,\s]+$/g, '').replace(/(\s*,\s*)+/g, ', '))
      .filter(Boolean);
    this.authorText = authors.map((a) => a.split(', ')[0]).join(', ');
    for (const author of authors) this.blocks.paragraph(author);
    const date = this.title.date ? this.inline(this.title.date) : '';
    if (date) this.blocks.paragraph(date);
    this.writeFootnotes();
    if (this.title.abstract !== undefined) this.abstract(this.title.abstract);
  }

  /** A slide's title: a heading a level under the sections the deck groups its slides in, if it has any. */
  private frameTitle(text: string): void {
    this.flush();
    if (this.silent || !text) return;
    const grouped = this.frameLevel ?? (this.frameLevel = /\\(part|section)\*?\s*[[{]/.test(this.source()) ? 2 : 1);
    this.blocks.heading(grouped, text);
  }

  /** A slide's subtitle, its argument next: a paragraph under its title. */
  private frameSubtitle(): void {
    const subtitle = this.inline(this.readArg());
    if (!this.silent && subtitle) this.blocks.paragraph(subtitle);
  }

  private abstract(body: string): void {
    this.flush();
    if (this.silent) return;
    this.blocks.heading(Math.max(1, SECTIONS.indexOf('section') - this.topRank + 1), 'Abstract');
    this.readText(body);
    this.flush();
  }

  /** An \item (its label, if it names one) or a \bibitem: the item before it ends. */
  private startItem(label: string | undefined): void {
    const list = this.lists.at(-1);
    if (this.silent) return;
    this.flush();
    if (!list) return;
    list.count++;
    const level = this.lists.length - 1;
    const text = label !== undefined ? this.inline(label) : undefined;
    if (text !== undefined && !list.ordered) {
      // A description list's term, or a bullet replaced by a label of the author's: shown before the item's text.
      this.item = { level, ordinal: null };
      if (text) this.write(`${text} `);
    } else if (text !== undefined) this.item = { level, ordinal: null, label: text };
    else if (list.label) this.item = { level, ordinal: null, label: this.inline(`${list.label.before}${counter(list.count, list.label.style)}${list.label.after}`) };
    else this.item = { level, ordinal: list.ordered ? list.count : null };
  }

  // --- environments ------------------------------------------------------

  private beginEnvironment(name: string): void {
    if (name === 'document') {
      this.silent = false;
      if (this.title.title && !this.source().includes('\\maketitle')) this.makeTitle();
      return;
    }
    // Past any real document's depth an environment is its content: looking for its end each time would take a hostile source quadratic time.
    if (this.limits.depth >= MAX_NESTING) return;
    const user = this.environments.get(name);
    if (user) return this.userEnvironment(name, user);
    if (DROPPED.has(name)) {
      this.readEnvironmentBody(name);
      return;
    }
    if (CODE.has(name)) {
      if (name === 'minted') this.readArg();
      let body = this.readEnvironmentBody(name);
      if (name === 'lstlisting' || name === 'Verbatim' || name === 'BVerbatim' || name === 'LVerbatim') body = body.replace(/^\s*\[[^\]\n]*\]/, '');
      if (this.silent) return;
      this.flush();
      this.blocks.code(body.replace(/^[ \t]*\n/, '').replace(/\s+$/, ''));
      return;
    }
    if (MATH.has(name)) {
      const body = this.readEnvironmentBody(name);
      if (name === 'math') this.inlineMath(body);
      else this.displayMath(name.startsWith('alignat') ? body.replace(/^\s*\{[^}]*\}/, '') : body);
      return;
    }
    if (TABLES.has(name)) return this.table(name);
    if (LISTS.has(name)) return this.list(name, { ordered: /enum/.test(name), count: 0 });
    if (name === 'thebibliography') {
      this.readArg();
      this.flush();
      this.closeItem();
      if (!this.silent) this.blocks.heading(Math.max(1, SECTIONS.indexOf('section') - this.topRank + 1), 'References');
      return this.list(name, { ordered: true, count: 0, bibliography: true });
    }
    if (name === 'frame') {
      // A Beamer slide: its options, then its title and subtitle where given as arguments.
      this.readOptional();
      this.flush();
      const top = this.frames.at(-1);
      const titled = top && /^\s*\{/.test(top.s.slice(top.i, top.i + 64));
      if (titled) this.frameTitle(this.inline(this.readArg()));
      const subtitled = titled && top && /^\s*\{/.test(top.s.slice(top.i, top.i + 64));
      if (subtitled) this.frameSubtitle();
      this.within(name);
      this.flush();
      return;
    }
    if (name === 'abstract') {
      // An abstract set before \maketitle (acmart's way) is shown under the title, as the class typesets it.
      const top = this.frames.at(-1);
      if (!this.title.shown && top && this.frames.length === 1 && top.s.includes('\\maketitle', top.i)) {
        this.title.abstract = this.readEnvironmentBody(name);
        return;
      }
      return this.abstract(this.readEnvironmentBody(name));
    }
    if (name === 'figure' || name === 'figure*' || name === 'wrapfigure' || name === 'subfigure') {
      // figure[placement]; subfigure[position]{width}; wrapfigure[lines]{placement}[overhang]{width}.
      this.readOptional();
      if (name === 'subfigure') this.readArg();
      if (name === 'wrapfigure') {
        this.readArg();
        this.readOptional();
        this.readArg();
      }
      this.flush();
      const outer = this.figure;
      this.figure = { graphic: false, caption: -1, text: '' };
      this.within(name);
      this.flush();
      const { graphic, caption } = this.figure;
      // The figure stands before its caption, carrying the caption as its description.
      if (graphic && caption >= 0) {
        const at = this.blocks.elements[caption]!;
        this.blocks.elements.splice(caption, 0, { type: 'figure', start: at.start, end: at.start, text: this.figure.text });
      }
      this.figure = outer;
      if (outer && graphic) outer.graphic = true;
      return;
    }
    // Any other environment (table, center, quote, minipage, a theorem) is its content.
    // Placement and options first (`[htbp]`, a theorem's name); a box's width too.
    const option = this.readOptional();
    if (name === 'minipage' || name === 'multicols' || name === 'wraptable') this.readArg();
    const theorem = this.theorems.get(name) ?? (name === 'proof' ? 'Proof' : THEOREMS.has(name) ? name[0]!.toUpperCase() + name.slice(1) : undefined);
    if (theorem !== undefined) {
      // A theorem-like statement opens with its name (and its title): `Lemma (Cauchy). ...`; its number TeX counts is not written.
      this.paragraphBreak();
      const title = option === undefined ? '' : this.inline(option);
      this.write(name === 'proof' && title ? `${title}. ` : `${theorem}${title ? ` (${title})` : ''}. `);
      this.within(name);
      this.paragraphBreak();
      return;
    }
    // An environment (center, quote, a theorem) stands apart from the paragraphs around it, as TeX sets it.
    this.paragraphBreak();
    this.within(name);
    this.paragraphBreak();
  }

  private source(): string {
    return this.frames[0]?.s ?? '';
  }

  /** Reads up to the environment's \end, leaving any other \end alone. */
  private within(name: string): void {
    this.readText(this.readEnvironmentBody(name));
  }

  /** Reads `body` here, one level deeper, before going on past it. */
  private readText(body: string): void {
    this.frames.push({ s: body, i: 0 });
    this.limits.depth++;
    try {
      this.readFrame();
    } finally {
      this.limits.depth--;
    }
  }

  /** Reads the frame just pushed to its end, then drops it. */
  private readFrame(): void {
    const depth = this.frames.length;
    for (;;) {
      // Macro expansions read to their end pop off; the body's own end ends the environment.
      while (this.frames.length > depth && this.frames.at(-1)!.i >= this.frames.at(-1)!.s.length) this.frames.pop();
      const top = this.frames.at(-1);
      if (this.frames.length < depth || !top || (this.frames.length === depth && top.i >= top.s.length)) break;
      this.step();
    }
    while (this.frames.length >= depth) this.frames.pop();
  }

  private list(name: string, context: ListContext): void {
    this.closeItem();
    this.flush();
    const options = this.readOptional();
    const label = context.ordered && options !== undefined ? labelTemplate(options) : null;
    if (label) context.label = label;
    if (name === 'inparaenum') {
      // Items run on inside the paragraph.
      this.within(name);
      return;
    }
    this.lists.push(context);
    this.within(name);
    this.flush();
    this.lists.pop();
  }

  private table(name: string): void {
    // Width (tabular*, tabularx), position and column specification come before the rows.
    if (name === 'tabular*' || name === 'tabularx' || name === 'tabulary' || name === 'xtabular') this.readArg();
    this.readOptional();
    this.readArg();
    const body = this.readEnvironmentBody(name);
    if (this.silent) return;
    const { rows, captions } = tableRows(body, (source) => this.inline(source));
    this.flush();
    for (const caption of captions) this.blocks.caption(caption);
    this.blocks.table(rows);
    this.writeFootnotes();
  }

  // --- definitions -------------------------------------------------------

  private defineCommand(): void {
    this.readStar();
    const name = this.readArg().trim().replace(/^\\/, '');
    const params = Number(this.readOptional() ?? 0) || 0;
    const optional = this.readOptional();
    const body = this.readArg();
    if (name) this.macros.set(name, { params, ...(optional !== undefined ? { optional } : {}), body });
  }

  private defineDef(): void {
    this.skipSpaces();
    if (this.next() !== '\\') return;
    const name = this.readName();
    const top = this.frames.at(-1);
    if (!top) return;
    const open = top.s.indexOf('{', top.i);
    if (open < 0) return;
    const pattern = top.s.slice(top.i, open);
    top.i = open + 1;
    const body = this.readUntilClose('}');
    // Only plain parameters (#1#2) are understood; a delimited pattern is read as its parameters' count.
    this.macros.set(name, { params: (pattern.match(/#\d/g) ?? []).length, body });
  }

  private defineEnvironment(): void {
    this.readStar();
    const name = this.readArg().trim();
    const params = Number(this.readOptional() ?? 0) || 0;
    const optional = this.readOptional();
    const begin = this.readArg();
    const end = this.readArg();
    if (name) this.environments.set(name, { params, ...(optional !== undefined ? { optional } : {}), begin, end });
  }

  private expand(macro: Macro): void {
    if (++this.limits.expansions > MAX_EXPANSIONS) return;
    const args: string[] = [];
    for (let k = 0; k < macro.params; k++) {
      if (k === 0 && macro.optional !== undefined) args.push(this.readOptional() ?? macro.optional);
      else args.push(this.readArg());
    }
    this.frames.push({ s: substitute(macro.body, args), i: 0 });
  }

  private userEnvironment(name: string, env: { params: number; optional?: string; begin: string; end: string }): void {
    if (++this.limits.expansions > MAX_EXPANSIONS) return;
    const args: string[] = [];
    for (let k = 0; k < env.params; k++) {
      if (k === 0 && env.optional !== undefined) args.push(this.readOptional() ?? env.optional);
      else args.push(this.readArg());
    }
    const body = this.readEnvironmentBody(name);
    this.frames.push({ s: `${substitute(env.begin, args)}${body}${env.end}`, i: 0 });
  }
}
