// RTF: the text of the document body, with its code page and \u escapes
// decoded, tables as tables, and the \info group as metadata. Font tables,
// pictures, embedded objects and field instructions are skipped.

import { flowOutput, normaliseRows, tableMarkdown, type OutputMode } from './blocks.ts';
import { decodeAs } from './text.ts';
import { ExtractionError, type FormatOutput, type Table } from './types.ts';

const SKIP_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'pict', 'object', 'themedata', 'colorschememapping', 'latentstyles', 'datastore',
  'xmlnsdecl', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'fldinst', 'filetbl', 'revtbl', 'pgdsctbl', 'shppict',
  'nonshppict', 'bkmkstart', 'bkmkend', 'objdata', 'mmathPr', 'wgrffmtfilter', 'xe', 'tc', 'pn', 'pntext', 'listtext', 'fontemb',
  'docvar', 'private', 'userprops', 'template', 'passwordhash', 'blipuid', 'sp', 'sn', 'sv',
]);
const INFO_FIELDS = new Set(['title', 'author', 'subject', 'keywords', 'operator', 'doccomm', 'company']);
const SYMBOLS: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n\n', page: '\n\n', tab: '\t', emdash: '\u2014', endash: '\u2013', bullet: '\u2022',
  lquote: '\u2018', rquote: '\u2019', ldblquote: '\u201c', rdblquote: '\u201d', emspace: ' ', enspace: ' ', qmspace: ' ',
};

interface State {
  skip: boolean;
  uc: number;
  info: string | null;
}

export function extractRtf(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!src.startsWith('{\\rtf')) throw new ExtractionError('corrupt_file', 'The RTF could not be read: it does not start with {\\rtf.');
  let codepage = 1252;
  let out = '';
  const info: Record<string, string> = {};
  const tables: Table[] = [];
  let row: string[] = [];
  let cell = '';
  let inRow = false;
  let rows: string[][] = [];
  const stack: State[] = [];
  let state: State = { skip: false, uc: 1, info: null };
  let pendingBytes: number[] = [];
  let skipChars = 0;

  const emit = (s: string) => {
    if (state.skip) return;
    if (state.info !== null) {
      // Inside \info only the known fields are kept; the rest (dates, counts) is not text.
      if (state.info) info[state.info] = (info[state.info] ?? '') + s;
    }
    else if (inRow) cell += s;
    else out += s;
  };
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const data = Uint8Array.from(pendingBytes);
    pendingBytes = [];
    emit(decodeCodepage(data, codepage));
  };
  const endTable = () => {
    if (rows.length === 0) return;
    const clean = normaliseRows(rows);
    if (clean.length > 0) {
      const markdown = tableMarkdown(clean);
      tables.push({ rows: clean, markdown });
      out += '\n' + (mode === 'markdown' ? markdown : clean.map((r) => r.join('\t')).join('\n')) + '\n';
    }
    rows = [];
  };

  let i = 0;
  const n = src.length;
  let depth = 0;
  while (i < n) {
    const ch = src[i]!;
    if (ch === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      if (++depth > 1000) throw new ExtractionError('corrupt_file', 'The RTF could not be read: groups nest too deep.');
      i++;
      // "{\*\dest" marks a destination a reader may skip if it does not know it.
      if (src.startsWith('\\*', i)) {
        state.skip = true;
        i += 2;
      }
      continue;
    }
    if (ch === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      depth--;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      i++;
      continue;
    }
    if (ch !== '\\') {
      if (skipChars > 0) skipChars--;
      else {
        flushBytes();
        emit(ch);
      }
      i++;
      continue;
    }
    const next = src[i + 1];
    if (next === "'") {
      const hex = parseInt(src.slice(i + 2, i + 4), 16);
      i += 4;
      if (skipChars > 0) skipChars--;
      else if (!Number.isNaN(hex)) pendingBytes.push(hex);
      continue;
    }
    if (next === undefined || !/[a-zA-Z]/.test(next)) {
      i += 2;
      if (skipChars > 0) {
        skipChars--;
        continue;
      }
      flushBytes();
      if (next === '\\' || next === '{' || next === '}') emit(next);
      else if (next === '~') emit('\u00a0');
      else if (next === '_') emit('\u2011');
      else if (next === '\n' || next === '\r') emit('\n');
      continue;
    }
    const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(src.slice(i + 1, i + 46))!;
    i += 1 + m[0].length;
    const word = m[1]!;
    const param = m[2] === undefined ? null : Number(m[2]);
    if (word !== 'u' && word !== 'uc') flushBytes();
    if (SKIP_DESTINATIONS.has(word)) {
      state.skip = true;
      continue;
    }
    if (word === 'info') {
      state.info = '';
      continue;
    }
    if (INFO_FIELDS.has(word) && state.info !== null) {
      state.info = word;
      continue;
    }
    switch (word) {
      case 'ansicpg':
        if (param) codepage = param;
        break;
      case 'uc':
        state.uc = param ?? 1;
        break;
      case 'u':
        if (param !== null) {
          flushBytes();
          emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = state.uc;
        }
        break;
      case 'intbl':
        inRow = true;
        break;
      case 'cell':
        row.push(cell);
        cell = '';
        break;
      case 'row':
        rows.push(row);
        row = [];
        cell = '';
        inRow = false;
        break;
      case 'pard':
        // A paragraph outside a table after rows ends the table.
        if (!inRow && row.length === 0) endTable();
        inRow = false;
        break;
      case 'par':
        if (inRow) cell += ' ';
        else {
          endTable();
          emit('\n');
        }
        break;
      default:
        if (SYMBOLS[word] !== undefined) emit(SYMBOLS[word]);
    }
  }
  flushBytes();
  endTable();
  const text = out
    .replace(/\u0000/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const get = (k: string) => info[k]?.trim() || null;
  return flowOutput(text, {
    tables,
    metadata: { title: get('title'), author: get('author'), subject: get('subject') ?? get('doccomm'), keywords: get('keywords') },
  });
}

function decodeCodepage(data: Uint8Array, codepage: number): string {
  if (codepage === 1252 || codepage === 0) return decodeAs(data, 'windows-1252');
  if (codepage === 65001) return new TextDecoder('utf-8').decode(data);
  try {
    return new TextDecoder(codepage === 10000 ? 'macintosh' : `windows-${codepage}`).decode(data);
  } catch {
    try {
      return new TextDecoder(`cp${codepage}`).decode(data);
    } catch {
      return decodeAs(data, 'windows-1252');
    }
  }
}
