// CSV and TSV: the charset and the delimiter are detected, quoted fields
// (with delimiters and line breaks inside) are kept whole, and the file is
// one table.

import { Blocks, type OutputMode } from './blocks.ts';
import { decodeText } from './text.ts';
import type { FormatOutput } from './types.ts';

const CANDIDATES = [',', ';', '\t', '|'];

export function extractCsv(bytes: Uint8Array, mode: OutputMode, hint: 'csv' | 'tsv'): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  const delimiter = hint === 'tsv' ? '\t' : detectDelimiter(text);
  const rows = parseDelimited(text, delimiter);
  const out = new Blocks(mode);
  out.table(rows);
  return out.output({ encoding });
}

/** The candidate that splits the first lines into the most consistent number (> 1) of fields. */
export function detectDelimiter(text: string): string {
  const sample = text.slice(0, 64 * 1024);
  let best = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = parseDelimited(sample, d, 50).map((r) => r.length);
    if (counts.length === 0) continue;
    const mode = mostCommon(counts);
    if (mode < 2) continue;
    const score = (counts.filter((c) => c === mode).length / counts.length) * Math.log2(mode + 1);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function mostCommon(values: number[]): number {
  const tally = new Map<number, number>();
  for (const v of values) tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
}

/** RFC 4180, tolerant: a stray quote inside an unquoted field is kept as text. */
export function parseDelimited(text: string, delimiter: string, maxRows = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const n = text.length;
  while (i < n && rows.length < maxRows) {
    const ch = text[i]!;
    if (ch === '"' && field === '') {
      let j = i + 1;
      let value = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          value += text.slice(j);
          j = n;
          break;
        }
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      field = value;
      i = j;
      // Anything between the closing quote and the next delimiter stays with the field.
      while (i < n && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') field += text[i++];
      continue;
    }
    if (ch === delimiter) {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      const next = nextSpecial(text, i, delimiter);
      field += text.slice(i, next);
      i = next;
    }
  }
  if ((field !== '' || row.length > 0) && rows.length < maxRows) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function nextSpecial(text: string, from: number, delimiter: string): number {
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === delimiter || c === '\n' || c === '\r') return i;
    i++;
  }
  return i;
}
