// A tabular-like environment's body as rows of cells: rows split at `\\`
// and cells at `&` outside braces, rules dropped, a long table's repeated head
// written once, \multicolumn and \multirow written in each cell they cover
// (as merged cells are in every format), captions set inside taken out.

import { balanced, commandArgs, splitTop } from './syntax.ts';

/** Columns a \multicolumn may span: a wider count is the source's mistake, not a table. */
const MAX_SPAN = 256;

/** A table's rules and row styling, which print nothing in a cell. */
const RULES =
  /\\(?:hline|toprule|midrule|bottomrule|hdashline|specialrule\s*\{[^}]*\}\s*\{[^}]*\}\s*\{[^}]*\}|cline\s*\{[^}]*\}|cmidrule\s*(?:\([^)]*\))?\s*\{[^}]*\}|addlinespace\s*(?:\[[^\]]*\])?|rowcolor\s*(?:\[[^\]]*\])?\s*\{[^}]*\}|noalign\s*\{[^}]*\}|label\s*\{[^}]*\})/g;

/** The rows of a table's body, each cell's source read to text by `inline`, and the captions set among its rows. */
export function tableRows(source: string, inline: (source: string) => string): { rows: string[][]; captions: string[] } {
  let body = source;
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
      captions.push(inline(inner));
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
      const text = inline(down ? down[5]! : cellSource.replace(/\\cellcolor\s*(\[[^\]]*\])?\s*\{[^}]*\}/g, ''));
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
  return { rows, captions };
}
