// CSV and TSV: the charset and the delimiter are detected, quoted fields
// (with delimiters and line breaks inside) are kept whole, and the file is
// one table.
//
// With a page selection (config.pages, or a chunk of a large file) a page is
// one of the file's own 3,000-character text pages, the unit its pages were
// counted in at submission, and holds the rows that start on it: a row is
// never cut. Only the selected rows are parsed; the rest of the file is only
// scanned for where rows start.

import { Blocks, markdownRow, markdownRule, normaliseRows, tableMarkdown, type OutputMode } from '../../engine/blocks.ts';
import { TEXT_PAGE_CHARS } from '../../engine/text-pages.ts';
import { decodeAs, decodeText, detectEncoding } from '../../containers/text-decoding.ts';
import type { ByteRun, RangeSlice, RowLayout } from '../../engine/byte-ranges.ts';
import type { ExtractionConfig, FormatOutput, Table } from '../../engine/types.ts';
import { firstNotBefore } from '../../engine/binary-search.ts';

const CANDIDATES = [',', ';', '\t', '|'];

/** The format module: a chunk's rows when given them (RangeSlice), else the file. */
export function extractDelimited(bytes: Uint8Array, ctx: { config: ExtractionConfig; range?: RangeSlice }, hint: 'csv' | 'tsv'): FormatOutput {
  if (!ctx.range) return extractCsv(bytes, ctx.config.output, hint, ctx.config.pages);
  if (!ctx.config.pages) throw new Error('a chunk of rows is read for its pages; config.pages is missing');
  return extractCsvRows(bytes, ctx.config.output, ctx.range, ctx.config.pages);
}

/** `pages`: 1-based text pages of the file whose rows to read (config.pages); null for the whole file. */
export function extractCsv(bytes: Uint8Array, mode: OutputMode, hint: 'csv' | 'tsv', pages: number[] | null = null): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  const delimiter = hint === 'tsv' ? '\t' : detectDelimiter(text);
  if (pages) {
    const pageStarts = textPageStarts(text, 0);
    return selectedRows(text, delimiter, mode, pages, encoding, { total: pageStarts.length, firstPage: 1, pageStarts, header: 'find' });
  }
  const rows = parseDelimited(text, delimiter);
  const out = new Blocks(mode);
  out.table(rows);
  return out.output({ encoding });
}

/**
 * The layout and one RowRun per run of pages (as planned, ascending), or
 * null when the file's byte offsets cannot be worked out from its text (an
 * East Asian multi-byte encoding, or bytes that do not decode one to one):
 * those chunks read the whole file, as before.
 */
export function planRowRuns(
  bytes: Uint8Array,
  hint: 'csv' | 'tsv',
  runs: Array<{ first_page: number; last_page: number }>,
): { layout: RowLayout; runs: ByteRun[] } | null {
  const { encoding, bomLength } = detectEncoding(bytes);
  const width = UNIT_BYTES[encoding as keyof typeof UNIT_BYTES];
  if (width === undefined) return null;
  const text = decodeAs(bytes.subarray(bomLength), encoding);
  const delimiter = hint === 'tsv' ? '\t' : detectDelimiter(text);
  const starts = rowStarts(text, delimiter);
  const pageStarts = textPageStarts(text, 0);
  const rowAt = (page: number) => (page < pageStarts.length ? lowerBound(starts, pageStarts[page]!) : starts.length);
  const unitOf = (row: number) => starts[row] ?? text.length;

  let header: { start: number; end: number } | null = null;
  for (let i = 0; i < starts.length && !header; i++) {
    if (normaliseRows(parseDelimited(text.slice(unitOf(i), unitOf(i + 1)), delimiter)).length > 0) header = { start: unitOf(i), end: unitOf(i + 1) };
  }
  const cut = runs.map((r) => ({ start: unitOf(rowAt(r.first_page - 1)), end: unitOf(rowAt(r.last_page)) }));
  const offsets = [...new Set([...cut.flatMap((c) => [c.start, c.end]), ...(header ? [header.start, header.end] : []), text.length])].sort((a, b) => a - b);
  const at = byteOffsets(text, offsets, width);
  // The decoded text must account for every byte, or offsets measured in it point elsewhere in the file.
  if (at.get(text.length)!.bytes !== bytes.byteLength - bomLength) return null;
  const byte = (unit: number) => bomLength + at.get(unit)!.bytes;
  return {
    layout: { format: hint, encoding, delimiter, pages_total: pageStarts.length, header: header ? [byte(header.start), byte(header.end)] : null },
    runs: cut.map((c): ByteRun => [byte(c.start), byte(c.end), at.get(c.start)!.codePoints]),
  };
}

/** Bytes per UTF-16 code unit of the text an encoding decodes to; 0 for UTF-8 (measured), -1 for UTF-32 (4 per code point). */
export const UNIT_BYTES = { 'utf-8': 0, 'utf-16le': 2, 'utf-16be': 2, 'utf-32le': -1, 'utf-32be': -1, 'windows-1252': 1 } as const;

/** Bytes and code points before each of the ascending UTF-16 offsets, in one walk. */
export function byteOffsets(text: string, ascending: number[], width: number): Map<number, { bytes: number; codePoints: number }> {
  const out = new Map<number, { bytes: number; codePoints: number }>();
  let unit = 0;
  let bytes = 0;
  let codePoints = 0;
  for (const next of ascending) {
    const piece = text.slice(unit, next);
    const points = codePointCount(piece);
    bytes += width === 0 ? Buffer.byteLength(piece, 'utf8') : width === -1 ? points * 4 : piece.length * width;
    codePoints += points;
    unit = next;
    out.set(next, { bytes, codePoints });
  }
  return out;
}

export function codePointCount(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/** A chunk's rows from its RangeSlice (the bytes the chunk worker fetched), as selectedRows reads them from the whole file. */
export function extractCsvRows(bytes: Uint8Array, mode: OutputMode, slice: RangeSlice, pages: number[]): FormatOutput {
  const { run } = slice;
  const layout = slice.layout as RowLayout;
  const text = decodeAs(bytes.subarray(slice.header_bytes), layout.encoding);
  let header: Frame['header'] = null;
  if (layout.header && slice.header_bytes > 0) {
    const row = normaliseRows(parseDelimited(decodeAs(bytes.subarray(0, slice.header_bytes), layout.encoding), layout.delimiter))[0];
    header = row ? { index: -1, row } : null;
  } else if (layout.header) header = 'find';
  const codePoints = run[2];
  const firstPage = Math.floor(codePoints / TEXT_PAGE_CHARS) + 1;
  const frame: Frame = { total: layout.pages_total, firstPage, pageStarts: textPageStarts(text, codePoints), header };
  return selectedRows(text, layout.delimiter, mode, pages, layout.encoding, frame);
}

/**
 * Where the text selectedRows reads sits in the file: the file's text pages,
 * the offsets in the text of those from `firstPage` on (a page that starts
 * before the text starts at 0), and the header row: to be found in the text,
 * already read from before it (index -1), or none.
 */
interface Frame {
  total: number;
  firstPage: number;
  pageStarts: number[];
  header: 'find' | { index: number; row: string[] } | null;
}

/**
 * The rows that start on the selected pages, as the one table they belong
 * to. The table keeps its header: its first row is the file's first row
 * even when that row is not selected, so a selection of later pages is still
 * a table with named columns, and the merge of a large file's chunks drops
 * the header each later chunk repeats (merge.ts). `content` holds only the
 * selected rows: rows of later pages continue the table (in Markdown, as
 * rows with no header line), so the chunks' contents joined with a line
 * break are the whole file's content.
 */
function selectedRows(text: string, delimiter: string, mode: OutputMode, pages: number[], encoding: string, frame: Frame): FormatOutput {
  const { total, firstPage, pageStarts } = frame;
  const kept = pages.filter((n) => n >= 1 && n <= total);
  const starts = rowStarts(text, delimiter);
  const rowsFrom = (first: number, end: number) => parseDelimited(text.slice(starts[first] ?? text.length, starts[end] ?? text.length), delimiter);
  // The header is the first row with any text, as normaliseRows finds it on a whole read.
  let header = frame.header === 'find' ? null : frame.header;
  for (let i = 0; i < starts.length && frame.header === 'find' && !header; i++) {
    const row = normaliseRows(rowsFrom(i, i + 1))[0];
    if (row) header = { index: i, row };
  }
  // The first row starting at or after page n's start; pages before the text's first start with it.
  const rowAt = (n: number) => (n < firstPage ? 0 : n - firstPage < pageStarts.length ? lowerBound(starts, pageStarts[n - firstPage]!) : starts.length);

  const byPage = kept.map((n) => {
    const first = rowAt(n);
    const end = rowAt(n + 1);
    return { first, end, rows: normaliseRows(rowsFrom(first, end)) };
  });
  const headerSelected = !!header && byPage.some((p) => p.first <= header.index && header.index < p.end);
  // Padded to the widest row, the header's included, as a whole read pads every row to the table's width.
  let width = header?.row.length ?? 0;
  for (const p of byPage) for (const r of p.rows) width = Math.max(width, r.length);
  const pad = (r: string[]) => [...r, ...new Array<string>(width - r.length).fill('')];

  const lines = byPage.map((p) =>
    p.rows.map((row, i) => {
      const cells = pad(row);
      if (mode === 'text') return cells.join('\t');
      // The first row with text on the header's page is the header.
      const isHeader = headerSelected && i === 0 && p.first <= header!.index && header!.index < p.end;
      return isHeader ? `${markdownRow(cells)}\n${markdownRule(width)}` : markdownRow(cells);
    }),
  );
  // Each page ends with the line break before the next row, so the pages joined with nothing are the content.
  let lastWithRows = lines.length - 1;
  while (lastWithRows >= 0 && lines[lastWithRows]!.length === 0) lastWithRows--;
  const texts = lines.map((l, i) => l.join('\n') + (l.length > 0 && i < lastWithRows ? '\n' : ''));
  const rows = byPage.flatMap((p) => p.rows.map(pad));
  const tableRows = rows.length === 0 ? [] : headerSelected ? rows : [pad(header!.row), ...rows];
  const tables: Table[] = tableRows.length === 0 ? [] : [{ rows: tableRows, markdown: tableMarkdown(tableRows) }];
  return { pages: texts, pageSeparator: '', unit: 'text_page', tables, pagesSelected: { total, kept }, metadata: { encoding } };
}

/**
 * UTF-16 offsets in `text` where each 3,000-code-point text page of the file
 * starts (page-count.ts counts pages the same way), `text` being the file's
 * text after its first `codePointsBefore` code points: from the page the text
 * starts on (at 0) to the last page that starts within it.
 */
function textPageStarts(text: string, codePointsBefore: number): number[] {
  const starts = [0];
  let count = codePointsBefore % TEXT_PAGE_CHARS;
  for (let i = 0; i < text.length; count++) {
    if (count === TEXT_PAGE_CHARS) {
      starts.push(i);
      count = 0;
    }
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
  }
  return starts;
}

/**
 * UTF-16 offsets where rows start, found the way parseDelimited reads them
 * (a quote opens a quoted field only at the start of a field; a quoted line
 * break is inside its row) but without building a field.
 */
export function rowStarts(text: string, delimiter: string): number[] {
  const n = text.length;
  const starts = n > 0 ? [0] : [];
  let fieldStart = true;
  let i = 0;
  while (i < n) {
    const ch = text[i]!;
    if (ch === '"' && fieldStart) {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          j = n;
          break;
        }
        if (text[q + 1] === '"') j = q + 2;
        else {
          j = q + 1;
          break;
        }
      }
      i = j;
      while (i < n && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') i++;
      fieldStart = false;
    } else if (ch === delimiter) {
      fieldStart = true;
      i++;
    } else if (ch === '\n' || ch === '\r') {
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      if (i < n) starts.push(i);
      fieldStart = true;
    } else {
      i = nextSpecial(text, i, delimiter);
      fieldStart = false;
    }
  }
  return starts;
}

/** The first index whose value is at least `value` (the array is ascending). */
function lowerBound(values: number[], value: number): number {
  return firstNotBefore(values.length, (i) => values[i]! < value);
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
