// The generated documents of docmodel.ts typeset by LaTeX (pdflatex), the
// producer of most scientific PDFs: justified text with TeX's hyphenation,
// Computer Modern (Latin Modern) fonts with ligatures, sections in bold at
// TeX's sizes, lists with TeX's labels, tables with and without rules, page
// numbers centred in the foot, and half of them with hyperref's bookmarks
// (an outline) so that headings are found from the page as often as from the
// outline. The truth is the model's (truthMarkdown): a document that
// LibreOffice and TeX both typeset must read the same.
//
// pdflatex has no right-to-left typesetting without packages Debian's
// recommended set lacks, so models with Hebrew or Arabic text are left out.

import type { DocBlock, DocModel, Run } from './docmodel.ts';

/** True when the model can be typeset by pdflatex (no right-to-left text). */
export const latexCanTypeset = (doc: DocModel): boolean =>
  !doc.rtl && !doc.blocks.some((b) => b.type === 'paragraph' && b.runs.some((r) => r.rtl));

const SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};
const tex = (s: string) => s.replace(/[\\&%$#_{}~^]/g, (c) => SPECIAL[c]!);

const runTex = (r: Run) => (r.bold ? `\\textbf{${tex(r.text)}}` : r.italic ? `\\emph{${tex(r.text)}}` : tex(r.text));

/** A stable choice from the model's name, so the same model always gets the same variant. */
function variant(name: string): number {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

export function latexSource(doc: DocModel): string {
  const v = variant(doc.name);
  const { style } = doc;
  const size = style.bodySize < 10.5 ? '10pt' : style.bodySize < 11.5 ? '11pt' : '12pt';
  const paper = style.pageSize === 'a4' ? 'a4paper' : 'letterpaper';
  const m = style.margins;
  const ruled = v % 3 !== 0;
  const bookmarks = v % 2 === 0;
  const out: string[] = [
    `\\documentclass[${size},${paper}${doc.twoColumn ? ',twocolumn' : ''}]{article}`,
    '\\usepackage[T1]{fontenc}',
    '\\usepackage{lmodern}',
    `\\usepackage[top=${m.top}in,bottom=${m.bottom}in,left=${m.left}in,right=${m.right}in]{geometry}`,
    ...(style.spaceAfter > 3 ? ['\\usepackage{parskip}'] : []),
    '\\usepackage{fancyhdr}',
  ];
  if (doc.header) {
    const foot = doc.footer === 'page-of' ? 'Page \\thepage' : doc.footer === 'text-number' ? `${tex(doc.footerText)} \\quad \\thepage` : '\\thepage';
    out.push('\\pagestyle{fancy}', '\\fancyhf{}', `\\fancyhead[C]{\\small ${tex(doc.header)}}`, `\\fancyfoot[C]{${foot}}`);
  }
  if (bookmarks) out.push('\\usepackage[bookmarks=true,hidelinks]{hyperref}');
  out.push('\\begin{document}');
  if (!style.justify) out.push('\\raggedright');
  let headings = 0;
  for (const b of doc.blocks) out.push(block(b, ruled, () => headings++));
  out.push('\\end{document}', '');
  return out.join('\n');
}

function block(b: DocBlock, ruled: boolean, counted: () => void): string {
  switch (b.type) {
    case 'title':
      // \maketitle would add a date and author lines the truth does not have.
      return `\\begin{center}{\\LARGE\\bfseries ${tex(b.text)}\\par}\\end{center}`;
    case 'heading': {
      counted();
      // The model's numbers are in its heading text; TeX's own numbering would add a second one.
      const command = ['section', 'subsection', 'subsubsection'][b.level - 1]!;
      return `\\${command}*{${tex(b.text)}}\n\\addcontentsline{toc}{${command}}{${tex(b.text)}}`;
    }
    case 'paragraph':
      return `${b.runs.map(runTex).join('')}\n`;
    case 'caption':
      return `\\begin{center}${tex(b.text)}\\end{center}`;
    case 'list':
      return list(b.items, b.ordered);
    case 'table': {
      const cols = b.rows[0]!.length;
      const spec = `${ruled ? '|' : ''}${Array.from({ length: cols }, (_, i) => (i === 0 ? 'l' : 'r')).join(ruled ? '|' : '')}${ruled ? '|' : ''}`;
      const rule = ruled ? '\\hline' : '';
      const rows = b.rows.map((r, i) => `${r.map((c) => (i === 0 ? `\\textbf{${tex(c)}}` : tex(c))).join(' & ')} \\\\${i === 0 || ruled ? ' \\hline' : ''}`);
      return `\\begin{center}\\begin{tabular}{${spec}}${rule}\n${rows.join('\n')}\n\\end{tabular}\\end{center}`;
    }
    case 'figure':
      // A bar chart drawn with rules: vector marks without text, as a chart's plot area is.
      return `\\begin{center}${b.bars.map((h) => `\\rule{8pt}{${(h * 0.6).toFixed(1)}pt}`).join('\\hspace{4pt}')}\\end{center}`;
  }
}

/** Nested itemize/enumerate from the model's items and their levels. */
function list(items: { text: string; level: number }[], ordered: boolean): string {
  const env = ordered ? 'enumerate' : 'itemize';
  const out: string[] = [`\\begin{${env}}`];
  let depth = 0;
  for (const item of items) {
    while (depth < item.level) {
      out.push(`\\begin{${env}}`);
      depth++;
    }
    while (depth > item.level) {
      out.push(`\\end{${env}}`);
      depth--;
    }
    out.push(`\\item ${tex(item.text)}`);
  }
  while (depth-- > 0) out.push(`\\end{${env}}`);
  out.push(`\\end{${env}}`);
  return out.join('\n');
}
