import { describe, expect, it } from 'vitest';
import { extract } from '../../../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG, type ExtractionConfig } from '../../../lambdas/extract/engine/types.ts';
import { makeZip } from '../../support/office-fixture.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const markdown: ExtractionConfig = { ...DEFAULT_CONFIG, output: 'markdown' };
const read = (source: string, filename = 'paper.tex', config = markdown) => extract({ bytes: utf8(source), filename, config });
const kinds = (elements: { type: string; level?: number; text: string }[]) => elements.map((e) => [e.type, e.level, e.text]);

const PAPER = String.raw`\documentclass[11pt]{article}
\usepackage{amsmath}
% A comment the reader never sees: \section{Hidden}
\newcommand{\model}{\textsc{Transformer}}
\newcommand{\dmodel}{d_{\text{model}}}
\newcommand{\pair}[2]{(#1, #2)}
\title{Attention Is Enough\thanks{Work done while at home.}}
\author{Ana Lima\\ Example University \and J\"org M\"uller}
\begin{document}
\maketitle
\begin{abstract}
We propose the \model, a model of width $\dmodel=512$.
\end{abstract}

\section{Introduction}\label{sec:intro}
Recurrent models~\cite{hochreiter1997, cho2014} are ${'``'}slow'' --- as Section~\ref{sec:model} shows,
100\% of them read a pair \pair{a}{b} one step at a time.\footnote{See the appendix.}

A second paragraph,
set over two lines.
\subsection{Model}
\begin{itemize}
  \item Encoder
  \begin{enumerate}
    \item six layers
    \item residual connections
  \end{enumerate}
  \item Decoder
\end{itemize}
\begin{equation}\label{eq:attn}
  \mathrm{Attention}(Q,K,V) = \mathrm{softmax}(QK^T)V
\end{equation}
\end{document}
Text after the end of the document is not read.`;

describe('LaTeX', () => {
  it('reads sections as ranked headings, the title and authors from \\maketitle, and paragraphs across line breaks', async () => {
    const result = await read(PAPER);
    expect(result.metadata).toMatchObject({ format: 'latex', title: 'Attention Is Enough', author: 'Ana Lima, Jörg Müller' });
    expect(kinds(result.elements!)).toEqual([
      ['title', 1, 'Attention Is Enough'],
      ['paragraph', undefined, 'Ana Lima, Example University'],
      ['paragraph', undefined, 'Jörg Müller'],
      ['footnote', undefined, 'Work done while at home.'],
      ['heading', 1, 'Abstract'],
      // Markdown output keeps inline math in its dollars, in the element's text too.
      ['paragraph', undefined, 'We propose the Transformer, a model of width $d_{\\text{model}} =512$.'],
      ['heading', 1, 'Introduction'],
      ['paragraph', undefined, 'Recurrent models [hochreiter1997, cho2014] are “slow” — as Section [sec:model] shows, 100% of them read a pair (a, b) one step at a time.'],
      ['footnote', undefined, 'See the appendix.'],
      ['paragraph', undefined, 'A second paragraph, set over two lines.'],
      ['heading', 2, 'Model'],
      ['list_item', 0, 'Encoder'],
      ['list_item', 1, 'six layers'],
      ['list_item', 1, 'residual connections'],
      ['list_item', 0, 'Decoder'],
      ['formula', undefined, '\\mathrm{Attention}(Q,K,V) = \\mathrm{softmax}(QK^T)V'],
    ]);
    expect(result.content).toContain('# Attention Is Enough\n\nAna Lima, Example University');
    expect(result.content).toContain('- Encoder\n  1. six layers\n  2. residual connections\n- Decoder');
    expect(result.content).toContain('We propose the Transformer, a model of width $d_{\\text{model}} =512$.');
    expect(result.content).not.toMatch(/Hidden|not read|\\section|\\label/);
  });

  it("shows an abstract set before \\maketitle under the title, and the parts of an author set apart (acmart's) in the author's block", async () => {
    const result = await read(String.raw`\documentclass[sigconf]{acmart}
\begin{document}
\title{Fast Joins}
\author{Ana Lima}
\affiliation{\institution{Example University}\city{Porto}}
\email{ana@example.org}
\author{Bo Chen}
\affiliation{\institution{Lab}}
\begin{abstract}
Joins are slow.
\end{abstract}
\maketitle
\section{Introduction}
Text.
\end{document}`);
    expect(kinds(result.elements!)).toEqual([
      ['title', 1, 'Fast Joins'],
      ['paragraph', undefined, 'Ana Lima, Example University, Porto, ana@example.org'],
      ['paragraph', undefined, 'Bo Chen, Lab'],
      ['heading', 1, 'Abstract'],
      ['paragraph', undefined, 'Joins are slow.'],
      ['heading', 1, 'Introduction'],
      ['paragraph', undefined, 'Text.'],
    ]);
    expect(result.metadata.author).toBe('Ana Lima, Bo Chen');
  });

  it('writes plain text without Markdown marks, math without its dollars', async () => {
    const result = await read(PAPER, 'paper.tex', { ...DEFAULT_CONFIG, output: 'text' });
    expect(result.content).toContain('Attention Is Enough\n\nAna Lima, Example University');
    expect(result.content).toContain('a model of width d_{\\text{model}} =512.');
    expect(result.content).not.toContain('#');
  });

  it('reads tabular environments as tables, spanned cells written in each cell they cover, with their captions', async () => {
    const source = String.raw`\begin{table}[htbp]
\centering
\caption{Results on the test set}
\begin{tabular}{|l|cc|}
\toprule
\multirow{2}{*}{Model} & \multicolumn{2}{c|}{BLEU} \\
 & EN-DE & EN-FR \\ \midrule
\multicolumn{3}{@{}l}{\textit{Single models}} \\
Base & 27.3 & 38.1 \\
Big \& deep & 28.4 & 41.8 \\ \bottomrule
\end{tabular}
\end{table}`;
    const result = await read(source);
    expect(result.tables.map((t) => t.rows)).toEqual([
      [
        ['Model', 'BLEU', 'BLEU'],
        ['Model', 'EN-DE', 'EN-FR'],
        ['Single models', 'Single models', 'Single models'],
        ['Base', '27.3', '38.1'],
        ['Big & deep', '28.4', '41.8'],
      ],
    ]);
    expect(kinds(result.elements!).map(([type, , text]) => [type, type === 'table' ? '' : text])).toEqual([
      ['caption', 'Results on the test set'],
      ['table', ''],
    ]);
  });

  it("numbers an enumerate's items with the label its options set", async () => {
    const result = await read(String.raw`\begin{enumerate}[label=\textbf{RQ\arabic*:}]
\item Does it scale?
\item Is it robust?
\end{enumerate}
\begin{enumerate}[(i)]
\item first
\item second
\end{enumerate}
\begin{enumerate}[leftmargin=*]
\item plain
\end{enumerate}`);
    expect(result.content).toBe(['- RQ1: Does it scale?', '- RQ2: Is it robust?', '- (i) first', '- (ii) second', '1. plain'].join('\n'));
    expect(result.elements!.map((e) => [e.text, e.ordered])).toEqual([
      ['RQ1: Does it scale?', true],
      ['RQ2: Is it robust?', true],
      ['(i) first', true],
      ['(ii) second', true],
      ['plain', true],
    ]);
  });

  it("reads a Beamer deck's slides under their titles, its overlay specifications left out", async () => {
    const result = await read(String.raw`\documentclass{beamer}
\title{Lecture 3}
\begin{document}
\section{Sorting}
\begin{frame}[fragile]{Insertion sort}{The idea}
\begin{itemize}
\item<1-> Take the next card
\item<2-> \alert<2>{Insert} it in place
\end{itemize}
\end{frame}
\begin{frame}
\frametitle{Cost}
\only<1>{Quadratic} in the worst case.\pause
\end{frame}
\end{document}`);
    expect(kinds(result.elements!)).toEqual([
      ['title', 1, 'Lecture 3'],
      ['heading', 1, 'Sorting'],
      ['heading', 2, 'Insertion sort'],
      ['paragraph', undefined, 'The idea'],
      ['list_item', 0, 'Take the next card'],
      ['list_item', 0, 'Insert it in place'],
      ['heading', 2, 'Cost'],
      ['paragraph', undefined, 'Quadratic in the worst case.'],
    ]);
  });

  it('opens a theorem-like statement with the name it prints and its title', async () => {
    const result = await read(String.raw`\newtheorem{lem}{Lemma}[section]
\begin{lem}[Cauchy]
Every convergent sequence is bounded.
\end{lem}
\begin{proof}
Take $\epsilon = 1$.
\end{proof}
\begin{definition}
A set is open if it is.
\end{definition}`);
    expect(kinds(result.elements!)).toEqual([
      ['paragraph', undefined, 'Lemma (Cauchy). Every convergent sequence is bounded.'],
      ['paragraph', undefined, 'Proof. Take $\\epsilon = 1$.'],
      ['paragraph', undefined, 'Definition. A set is open if it is.'],
    ]);
  });

  it('keeps verbatim text as code, drops drawing code and comments, and decodes accents and escapes', async () => {
    const source = String.raw`\section*{Setup}
Na\"ive caf\'e users pay \$5 for 50\% off % not this
\begin{verbatim}
for i in range(3):   # 100% kept
    print(i)
\end{verbatim}
\begin{tikzpicture}\node {drawn label};\end{tikzpicture}
\begin{description}
\item[Term] its meaning
\end{description}`;
    const result = await read(source);
    expect(kinds(result.elements!)).toEqual([
      ['heading', 1, 'Setup'],
      ['paragraph', undefined, 'Naïve café users pay $5 for 50% off'],
      ['code', undefined, 'for i in range(3):   # 100% kept\n    print(i)'],
      ['list_item', 0, 'Term its meaning'],
    ]);
  });

  it('takes a title set in a display size on a title page of its own for the title', async () => {
    const result = await read(String.raw`\documentclass{report}\begin{document}
\begin{center}{\LARGE\bfseries Annual\\ Review 2024}\\ \vspace{1cm} prepared by\\ The Board\end{center}
{\Large Summary\par}
\chapter{Findings}
Text.
\end{document}`);
    expect(kinds(result.elements!)).toEqual([
      ['title', 1, 'Annual Review 2024'],
      ['paragraph', undefined, 'prepared by The Board'],
      ['heading', 1, 'Summary'],
      ['heading', 1, 'Findings'],
      ['paragraph', undefined, 'Text.'],
    ]);
    expect(result.metadata.title).toBe('Annual Review 2024');
  });

  it('sets registers and skips without printing their values', async () => {
    const result = await read(String.raw`\parskip=0pt \tolerance = 1000
\vskip 2mm plus 1mm Text\kern3pt{} here.`);
    expect(result.content).toBe('Text here.');
  });

  it('reads sources nested or recursive past any real document without exhausting the stack', async () => {
    const sources = [
      `${'\\begin{center}'.repeat(20_000)}deep${'\\end{center}'.repeat(20_000)}`,
      `${'\\footnote{'.repeat(20_000)}deep${'}'.repeat(20_000)}`,
      `${'\\begin{itemize}\\item '.repeat(5_000)}deep`,
      '\\newenvironment{loop}{\\begin{loop}}{}\\begin{loop}deep\\end{loop}',
      '\\begin{tabular}{l}\\multicolumn{99999999}{c}{deep}\\end{tabular}',
      '$$deep',
      // Command names that are also names every JavaScript object has.
      '\\constructor{deep}\\toString\\hasOwnProperty',
    ];
    for (const source of sources) expect((await read(source)).content, source.slice(0, 40)).toContain('deep');
  });

  it('gives each figure its own caption as its description', async () => {
    const figure = String.raw`Some text.\begin{figure}\includegraphics{a}\caption{A caption}\end{figure}`;
    const result = await read(figure.repeat(3));
    expect(result.elements!.filter((e) => e.type === 'figure').map((e) => e.text)).toEqual(['A caption', 'A caption', 'A caption']);
  });

  it('is recognised by its document class when the file has no name, and stops expanding a macro that calls itself', async () => {
    const result = await extract({ bytes: utf8('% paper\n\\documentclass{article}\n\\def\\loop{a\\loop}\n\\begin{document}\nStart \\loop end.\n\\end{document}'), filename: 'upload' });
    expect(result.metadata.format).toBe('latex');
    expect(result.content.startsWith('Start aaa')).toBe(true);
    expect(result.content.endsWith('end.')).toBe(true);
  });

  it('reads a LaTeX project in a ZIP as one document, its inputs and compiled bibliography in place, its pictures and support files left out', async () => {
    const zip = makeZip([
      { name: 'paper/main.tex', data: String.raw`\documentclass{article}\begin{document}\input{sections/intro}\include{method.tex}\bibliography{refs}\end{document}` },
      { name: 'paper/sections/intro.tex', data: String.raw`\section{Introduction}See Figure~\ref{f}.\begin{figure}[H]\includegraphics{fig/plot}\caption{A plot}\end{figure}` },
      { name: 'paper/method.tex', data: String.raw`\section{Method}We count.` },
      { name: 'paper/main.bbl', data: String.raw`\begin{thebibliography}{1}\bibitem{a} A. Author. \newblock A title, 2020.\end{thebibliography}` },
      { name: 'paper/refs.bib', data: '@article{a, title={A title}}' },
      { name: 'paper/fig/plot.pdf', data: '%PDF-1.4 not read' },
      { name: 'paper/fig/unused.png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
      { name: 'paper/README.txt', data: 'How to build the paper.' },
    ]);
    const result = await extract({ bytes: zip, filename: 'paper.zip', config: markdown });
    expect(result.metadata.format).toBe('latex');
    expect(result.content).toBe(['# Introduction', 'See Figure [f].', 'A plot', '# Method', 'We count.', '# References', '1. A. Author. A title, 2020.'].join('\n\n'));
    expect(result.elements!.find((e) => e.type === 'figure')).toMatchObject({ text: 'A plot' });
  });

  it('leaves a ZIP holding other documents beside a LaTeX file to the archive reader, each member its own section', async () => {
    const zip = makeZip([
      { name: 'notes.tex', data: String.raw`\section{Notes}Some notes.` },
      { name: 'letter.docx', data: new Uint8Array([1, 2, 3]) },
    ]);
    const result = await extract({ bytes: zip, filename: 'mixed.zip', config: markdown });
    expect(result.metadata.format).toBe('zip');
    expect(result.content).toContain('## notes.tex\n\n# Notes\n\nSome notes.');
  });
});
