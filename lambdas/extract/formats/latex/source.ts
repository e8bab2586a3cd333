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
import { letters, roman } from '../../engine/list-counters.ts';

const SECTIONS = ['part', 'chapter', 'section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph'];

/** Accent commands and the combining mark each puts on its letter. */
const ACCENTS: Record<string, string> = {
  "'": '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', '=': '\u0304', '.': '\u0307',
  u: '\u0306', v: '\u030c', H: '\u030b', c: '\u0327', k: '\u0328', r: '\u030a', d: '\u0323', b: '\u0331',
};

/** Commands that print a character or a word of their own. */
const SYMBOLS: Record<string, string> = {
  i: 'ı', j: 'ȷ', ss: 'ß', o: 'ø', O: 'Ø', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', aa: 'å', AA: 'Å', l: 'ł', L: 'Ł',
  dag: '†', ddag: '‡', S: '§', P: '¶', copyright: '©', textcopyright: '©', pounds: '£', euro: '€', texteuro: '€',
  textdegree: '°', ldots: '…', dots: '…', textellipsis: '…', textendash: '–', textemdash: '—', textbullet: '•',
  textquoteleft: '‘', textquoteright: '’', textquotedblleft: '“', textquotedblright: '”', guillemotleft: '«',
  guillemotright: '»', textregistered: '®', texttrademark: '™', textbackslash: '\\', textasciitilde: '~',
  textasciicircum: '^', textunderscore: '_', textbar: '|', textless: '<', textgreater: '>', LaTeX: 'LaTeX',
  LaTeXe: 'LaTeX2e', TeX: 'TeX', BibTeX: 'BibTeX', '&': '&', '%': '%', $: '$', '#': '#', _: '_', '{': '{', '}': '}',
  ' ': ' ', ',': ' ', ';': ' ', ':': ' ', '!': '', '@': '', '/': '', '-': '', '\\': ' ', newline: ' ', linebreak: ' ',
  par: '\n\n', quad: ' ', qquad: ' ', enspace: ' ', thinspace: ' ', nobreakspace: ' ',
};

/** Commands whose arguments set something up and print nothing: the number of braced arguments each takes. */
const SILENT: Record<string, number> = {
  label: 1, vspace: 1, hspace: 1, setlength: 2, addtolength: 2, setcounter: 2, addtocounter: 2, stepcounter: 1,
  refstepcounter: 1, usepackage: 1, RequirePackage: 1, documentclass: 1, bibliographystyle: 1, bibliography: 1,
  pagestyle: 1, thispagestyle: 1, pagenumbering: 1, input: 1, include: 1, includeonly: 1, color: 1, definecolor: 3,
  fontsize: 2, linespread: 1, newlength: 1, newcounter: 1, hypersetup: 1, graphicspath: 1, geometry: 1,
  captionsetup: 1, newtheorem: 2, DeclareMathOperator: 2, crefname: 3, Crefname: 3, addvspace: 1,
  enlargethispage: 1, phantom: 1, hphantom: 1, vphantom: 1, setcitestyle: 1, theoremstyle: 1, numberwithin: 2,
  renewcommand: 0, addbibresource: 1, urlstyle: 1, lstset: 1, setminted: 1, tcbset: 1, sisetup: 1, pgfplotsset: 1,
  usetikzlibrary: 1, includegraphics: 1, includesvg: 1, includepdf: 1, nocite: 1, acmConference: 1, acmYear: 1,
  acmDOI: 1, acmISBN: 1, acmPrice: 1, copyrightyear: 1, setcopyright: 1, ccsdesc: 1, settopmatter: 1,
  pdfinfo: 1,
  addcontentsline: 3,
  rule: 2,
  fancyhead: 1,
  fancyfoot: 1,
  lhead: 1,
  chead: 1,
  rhead: 1,
  lfoot: 1,
  cfoot: 1,
  rfoot: 1,
  markboth: 2,
  markright: 1, newacronym: 3, glsaddall: 0, printbibliography: 0, bibpunct: 6, icmlsetsymbol: 2, icmlcorrespondingauthor: 2,
};

/** Commands that wrap text in something printed around it: their first `n` arguments are dropped, the next shown. */
const WRAPPERS: Record<string, number> = {
  textcolor: 1, colorbox: 1, fcolorbox: 2, href: 1, resizebox: 2, scalebox: 1, rotatebox: 1, raisebox: 1,
  parbox: 1, adjustbox: 1, foreignlanguage: 1, hyperref: 0, hyperlink: 1, hypertarget: 1,
};

const REFERENCES = new Set(['cite', 'citep', 'citet', 'citeauthor', 'citeyear', 'citealp', 'citealt', 'parencite', 'textcite', 'autocite', 'ref', 'eqref', 'autoref', 'cref', 'Cref', 'pageref', 'nameref', 'vref']);
const LISTS = new Set(['itemize', 'enumerate', 'description', 'compactitem', 'compactenum', 'asparaenum', 'asparaitem', 'inparaenum', 'compactdesc']);
const TABLES = new Set(['tabular', 'tabular*', 'tabularx', 'tabulary', 'longtable', 'longtable*', 'array', 'supertabular', 'xtabular', 'tabu', 'longtabu', 'NiceTabular', 'tblr']);
const MATH = new Set(['equation', 'equation*', 'align', 'align*', 'gather', 'gather*', 'multline', 'multline*', 'eqnarray', 'eqnarray*', 'displaymath', 'flalign', 'flalign*', 'alignat', 'alignat*', 'dmath', 'dmath*', 'math']);
const CODE = new Set(['verbatim', 'verbatim*', 'Verbatim', 'lstlisting', 'minted', 'alltt', 'BVerbatim', 'LVerbatim', 'listing']);
/** Environments whose content is drawing or setup code, not text: left out whole. */
const DROPPED = new Set(['comment', 'tikzpicture', 'pgfpicture', 'picture', 'filecontents', 'filecontents*', 'axis', 'CCSXML']);

/** A source that defines a macro in terms of itself would expand forever: expansions stop here. */
const MAX_EXPANSIONS = 200_000;
/** Environments and arguments nested deeper are not read by nested readers (a hostile source would exhaust the stack). */
const MAX_NESTING = 64;
/** Columns a \multicolumn may span: a wider count is the source's mistake, not a table. */
const MAX_SPAN = 256;

/** A TeX dimension or number as a primitive takes it, with its stretch (`2mm plus 1mm minus 0.5mm`). */
// A unit that is a register (`0.5\textwidth`) follows its factor at once: after a space, a control word is the next command.
const DIMENSION = /\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:\s*(?:true\s*)?(?:pt|em|ex|mm|cm|in|bp|sp|pc|dd|cc|mu)(?![A-Za-z])|\\[A-Za-z]+)?(?:\s*(?:plus|minus)\s*[-+]?(?:\d+\.?\d*|\.\d+)\s*(?:fil+|pt|em|ex|mm|cm|in|mu)(?![A-Za-z]))*/y;
/** `= value` after a register's name. */
const ASSIGNED_VALUE = new RegExp(`\\s*=${DIMENSION.source}`, 'y');

/** A table's rules and row styling, which print nothing in a cell. */
const RULES =
  /\\(?:hline|toprule|midrule|bottomrule|hdashline|specialrule\s*\{[^}]*\}\s*\{[^}]*\}\s*\{[^}]*\}|cline\s*\{[^}]*\}|cmidrule\s*(?:\([^)]*\))?\s*\{[^}]*\}|addlinespace\s*(?:\[[^\]]*\])?|rowcolor\s*(?:\[[^\]]*\])?\s*\{[^}]*\}|noalign\s*\{[^}]*\}|label\s*\{[^}]*\})/g;

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

interface LabelTemplate {
  before: string;
  after: string;
  style: 'arabic' | 'alph' | 'Alph' | 'roman' | 'Roman';
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
  private figure: { graphic: boolean; caption: number } | null = null;
  private depth = 0;
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
    if (/^[A-Za-z@]+$/.test(name)) while (top.i < s.length && (s[top.i] === ' ' || s[top.i] === '\t')) top.i++;
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
    for (const note of this.footnotes.splice(0)) this.blocks.footnote(note);
  }

  private command(name: string): void {
    const macro = this.macros.get(name);
    if (macro) return this.expand(macro);
    // A letter accent (\c, \v, \u...) only before its braced letter: `\u` alone is more likely some package's command.
    if (name in ACCENTS && (!/^[a-z]$/i.test(name) || name === 'H' || this.peek() === '{')) return this.accent(name);
    if (name in SYMBOLS) {
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
    if (name in SILENT) {
      if (name === 'includegraphics' && this.figure) this.figure.graphic = true;
      this.readStar();
      this.readOptional();
      for (let k = 0; k < SILENT[name]!; k++) {
        this.readArg();
        this.readOptional();
      }
      return;
    }
    if (name in WRAPPERS) {
      this.readStar();
      this.readOptional();
      for (let k = 0; k < WRAPPERS[name]!; k++) {
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
    const letter = arg === '\\i' ? 'ı' : arg === '\\j' ? 'ȷ' : arg.startsWith('\\') ? (SYMBOLS[arg.slice(1)] ?? '') : arg;
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
    if (this.figure) this.figure.caption = this.blocks.elements.length;
    this.blocks.caption(text);
    for (const note of this.footnotes.splice(0)) this.blocks.footnote(note);
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
    for (const note of this.footnotes.splice(0)) this.blocks.footnote(note);
    if (this.title.abstract !== undefined) this.abstract(this.title.abstract);
  }

  private abstract(body: string): void {
    this.flush();
    if (this.silent) return;
    this.blocks.heading(Math.max(1, SECTIONS.indexOf('section') - this.topRank + 1), 'Abstract');
    this.frames.push({ s: body, i: 0 });
    this.limits.depth++;
    try {
      this.readFrame();
    } finally {
      this.limits.depth--;
    }
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
      this.figure = { graphic: false, caption: -1 };
      this.within(name);
      this.flush();
      const { graphic, caption } = this.figure;
      // The figure stands before its caption, carrying the caption as its description.
      if (graphic && caption >= 0) {
        const at = this.blocks.elements[caption]!;
        this.blocks.elements.splice(caption, 0, { type: 'figure', start: at.start, end: at.start, text: at.text ?? this.blocks.text().slice(at.start, at.end) });
      }
      this.figure = outer;
      if (outer && graphic) outer.graphic = true;
      return;
    }
    // Any other environment (table, center, quote, minipage, a theorem) is its content.
    // Placement and options first (`[htbp]`, a theorem's name); a box's width too.
    this.readOptional();
    if (name === 'minipage' || name === 'multicols' || name === 'wraptable') this.readArg();
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
    const body = this.readEnvironmentBody(name);
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
    let body = this.readEnvironmentBody(name);
    if (this.silent) return;
    // A long table's head repeated on every page after the first is written once.
    const firstHead = body.indexOf('\\endfirsthead');
    const head = firstHead >= 0 ? body.indexOf('\\endhead', firstHead) : -1;
    if (head >= 0) body = body.slice(0, firstHead) + body.slice(head + '\\endhead'.length);
    body = body.replace(/\\end(first|last)?(head|foot)\b|\\tabularnewline\b/g, '\\\\');
    const captions: string[] = [];
    const rows: string[][] = [];
    // Cells a \multirow covers in the rows under it (or over it, for a negative count) hold its text, as merged cells do.
    const spans: { row: number; col: number; rows: number; text: string }[] = [];
    for (const rawRow of splitTop(body, '\\\\')) {
      let row = rawRow.replace(/^\s*\[[^\]]*\]/, '');
      const caption = /\\caption\s*(\[[^\]]*\])?\s*\{/.exec(row);
      if (caption) {
        const inner = balanced(row, caption.index + caption[0].length - 1);
        captions.push(this.inline(inner));
        row = row.slice(0, caption.index) + row.slice(caption.index + caption[0].length + inner.length + 1);
      }
      row = row.replace(RULES, ' ');
      if (!row.trim()) continue;
      const cells: string[] = [];
      for (const rawCell of splitTop(row, '&')) {
        // \multicolumn{n}{spec}{text}; \multirow[v]{n}[struts]{width}[fixup]{text}: their specs may hold braces of their own (`@{}l`).
        const multi = commandArgs(rawCell, 'multicolumn', '{}{}{}');
        const span = multi ? Math.min(MAX_SPAN, Math.max(1, Number.parseInt(multi[0]!, 10) || 1)) : 1;
        const cellSource = multi ? multi[2]! : rawCell;
        const down = commandArgs(cellSource, 'multirow', '[]{}[]{}[]{}');
        const downRows = down ? Number.parseInt(down[1]!, 10) || 1 : 1;
        const text = this.inline(down ? down[5]! : cellSource.replace(/\\cellcolor\s*(\[[^\]]*\])?\s*\{[^}]*\}/g, ''));
        for (let k = 0; k < span; k++) {
          if (Math.abs(downRows) > 1) spans.push({ row: rows.length, col: cells.length, rows: downRows, text });
          cells.push(text);
        }
      }
      rows.push(cells);
    }
    for (const { row, col, rows: n, text } of spans) {
      const covered = n > 0 ? rows.slice(row + 1, row + n) : rows.slice(Math.max(0, row + n + 1), row);
      for (const r of covered) if (col < r.length && !r[col]!.trim()) r[col] = text;
    }
    this.flush();
    for (const caption of captions) this.blocks.caption(caption);
    this.blocks.table(rows);
    for (const note of this.footnotes.splice(0)) this.blocks.footnote(note);
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

/**
 * The item label an enumerate's options set: enumitem's `label=` with its
 * counter (`\arabic*`, `\alph*`, `\roman*`...), or the enumerate package's
 * sample, whose first `1`, `a`, `A`, `i` or `I` outside braces is the
 * counter (`[(i)]`, `[Step 1:]`). Null where the options set none.
 */
function labelTemplate(options: string): LabelTemplate | null {
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

function counter(n: number, style: LabelTemplate['style']): string {
  if (style === 'alph') return letters(n);
  if (style === 'Alph') return letters(n).toUpperCase();
  if (style === 'roman') return roman(n);
  if (style === 'Roman') return roman(n).toUpperCase();
  return String(n);
}

/** #1..#9 in a macro's body replaced by its arguments; ## is a #. */
function substitute(body: string, args: string[]): string {
  return body.replace(/##|#(\d)/g, (m, d: string | undefined) => (d ? (args[Number(d) - 1] ?? '') : '#'));
}

/** The rank (index in SECTIONS) of the highest sectioning command the source uses, for heading levels. */
function topSectionRank(source: string): number {
  let top = SECTIONS.indexOf('section');
  for (const m of source.matchAll(/\\(part|chapter|section|subsection|subsubsection)\*?\s*[[{]/g)) top = Math.min(top, SECTIONS.indexOf(m[1]!));
  return top;
}

/** Comments removed from a raw fragment (an escaped % stays). */
function stripComments(s: string): string {
  return s.replace(/(^|[^\\])((?:\\\\)*)%[^\n]*\n?[ \t]*/g, '$1$2');
}

/** `s` split at `separator` where it stands outside braces and is not escaped (a cell's `\&`). */
function splitTop(s: string, separator: string): string[] {
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
function commandArgs(s: string, name: string, pattern: string): (string | undefined)[] | null {
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
function balanced(s: string, open: number): string {
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

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/ ([.,;:!?)])/g, '$1').trim();
}
