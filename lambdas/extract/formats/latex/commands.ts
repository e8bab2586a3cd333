// What LaTeX's commands and environments print, as the reader (source.ts)
// looks them up: sectioning, accents and symbols, commands that only set
// something up, wrappers, references, and the environments read specially.

export const SECTIONS = ['part', 'chapter', 'section', 'subsection', 'subsubsection', 'paragraph', 'subparagraph'];

/** Accent commands and the combining mark each puts on its letter. */
export const ACCENTS: Record<string, string> = {
  "'": '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', '=': '\u0304', '.': '\u0307',
  u: '\u0306', v: '\u030c', H: '\u030b', c: '\u0327', k: '\u0328', r: '\u030a', d: '\u0323', b: '\u0331',
};

/** Commands that print a character or a word of their own. */
export const SYMBOLS: Record<string, string> = {
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
export const SILENT: Record<string, number> = {
  label: 1, vspace: 1, hspace: 1, setlength: 2, addtolength: 2, setcounter: 2, addtocounter: 2, stepcounter: 1,
  refstepcounter: 1, usepackage: 1, RequirePackage: 1, documentclass: 1, bibliographystyle: 1, bibliography: 1,
  pagestyle: 1, thispagestyle: 1, pagenumbering: 1, input: 1, include: 1, includeonly: 1, color: 1, definecolor: 3,
  fontsize: 2, linespread: 1, newlength: 1, newcounter: 1, hypersetup: 1, graphicspath: 1, geometry: 1,
  captionsetup: 1, DeclareMathOperator: 2, crefname: 3, Crefname: 3, addvspace: 1,
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
export const WRAPPERS: Record<string, number> = {
  textcolor: 1, colorbox: 1, fcolorbox: 2, href: 1, resizebox: 2, scalebox: 1, rotatebox: 1, raisebox: 1,
  parbox: 1, adjustbox: 1, foreignlanguage: 1, hyperref: 0, hyperlink: 1, hypertarget: 1,
};

export const REFERENCES = new Set(['cite', 'citep', 'citet', 'citeauthor', 'citeyear', 'citealp', 'citealt', 'parencite', 'textcite', 'autocite', 'ref', 'eqref', 'autoref', 'cref', 'Cref', 'pageref', 'nameref', 'vref']);
export const LISTS = new Set(['itemize', 'enumerate', 'description', 'compactitem', 'compactenum', 'asparaenum', 'asparaitem', 'inparaenum', 'compactdesc']);
export const TABLES = new Set(['tabular', 'tabular*', 'tabularx', 'tabulary', 'longtable', 'longtable*', 'array', 'supertabular', 'xtabular', 'tabu', 'longtabu', 'NiceTabular', 'tblr']);
export const MATH = new Set(['equation', 'equation*', 'align', 'align*', 'gather', 'gather*', 'multline', 'multline*', 'eqnarray', 'eqnarray*', 'displaymath', 'flalign', 'flalign*', 'alignat', 'alignat*', 'dmath', 'dmath*', 'math']);
export const CODE = new Set(['verbatim', 'verbatim*', 'Verbatim', 'lstlisting', 'minted', 'alltt', 'BVerbatim', 'LVerbatim', 'listing']);
/** Environments whose content is drawing or setup code, not text: left out whole. */
export const DROPPED = new Set(['comment', 'tikzpicture', 'pgfpicture', 'picture', 'filecontents', 'filecontents*', 'axis', 'CCSXML']);

/** A TeX dimension or number as a primitive takes it, with its stretch (`2mm plus 1mm minus 0.5mm`). */
// A unit that is a register (`0.5\textwidth`) follows its factor at once: after a space, a control word is the next command.
export const DIMENSION = /\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:\s*(?:true\s*)?(?:pt|em|ex|mm|cm|in|bp|sp|pc|dd|cc|mu)(?![A-Za-z])|\\[A-Za-z]+)?(?:\s*(?:plus|minus)\s*[-+]?(?:\d+\.?\d*|\.\d+)\s*(?:fil+|pt|em|ex|mm|cm|in|mu)(?![A-Za-z]))*/y;
/** `= value` after a register's name. */
export const ASSIGNED_VALUE = new RegExp(`\\s*=${DIMENSION.source}`, 'y');
