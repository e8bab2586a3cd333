// RTF: the document body as blocks (headings from outline levels and
// heading styles, list items from list paragraphs, footnotes, paragraphs),
// with \u escapes and byte escapes decoded, tables as tables, and the \info
// group as metadata. A byte escape (\'xx) is in the code page of the font it
// is set in (its \fcharset or \cpg in the font table: a Russian font's
// bytes are Windows-1251, a Japanese font's Shift-JIS), else the document's
// \ansicpg. Pictures, embedded objects and field instructions are skipped.

import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { decodeCodepage } from '../../containers/text-decoding.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

const SKIP_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'pict', 'object', 'themedata', 'colorschememapping', 'latentstyles', 'datastore',
  'xmlnsdecl', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'fldinst', 'filetbl', 'revtbl', 'pgdsctbl', 'shppict',
  'nonshppict', 'bkmkstart', 'bkmkend', 'objdata', 'mmathPr', 'wgrffmtfilter', 'xe', 'tc', 'pn', 'fontemb',
  'docvar', 'private', 'userprops', 'template', 'passwordhash', 'blipuid', 'sp', 'sn', 'sv',
]);
/** The Windows code page of each font character set (\fcharset) that has one of its own; ANSI (0), default (1) and symbol (2) fonts take the document's. */
const CHARSET_CODEPAGES: Record<number, number> = {
  77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250,
};
const INFO_FIELDS = new Set(['title', 'author', 'subject', 'keywords', 'operator', 'doccomm', 'company']);
const SYMBOLS: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n\n', page: '\n\n', tab: '\t', emdash: '\u2014', endash: '\u2013', bullet: '\u2022',
  lquote: '\u2018', rquote: '\u2019', ldblquote: '\u201c', rdblquote: '\u201d', emspace: ' ', enspace: ' ', qmspace: ' ',
};

interface State {
  skip: boolean;
  /** Inside the font table: its font entries' numbers and character sets are read, not shown. */
  fonttbl: boolean;
  /** The font the text is set in (\f), null for the document's default (\deff). */
  font: number | null;
  uc: number;
  info: string | null;
  /** Inside the style sheet: the number of the style whose name is being read. */
  style: number | null;
  /** Inside a list number's text (\listtext, \pntext): it says whether the paragraph is numbered. */
  listText: boolean;
  /** Inside a footnote: its text is gathered apart and written after the body. */
  footnote: boolean;
  /** Inside a header or footer group. */
  furniture: 'header' | 'footer' | null;
}

interface Para {
  style: number;
  outline: number | null;
  list: boolean;
  level: number;
  marker: string;
}

export function extractRtf(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!src.startsWith('{\\rtf')) throw new ExtractionError('corrupt_file', 'The RTF could not be read: it does not start with {\\rtf.');
  let codepage = 1252;
  let defaultFont = 0;
  // The font table's entry being read, and each font's own code page.
  let defining = -1;
  const fontCodepages = new Map<number, number>();
  // The body's blocks, written once the headers (which may come anywhere) are known.
  const ops: Array<(out: Blocks) => void> = [];
  const info: Record<string, string> = {};
  const styles = new Map<number, { name: string; outline: number | null }>();
  const footnotes: string[] = [];
  const furniture: Array<{ kind: 'header' | 'footer'; text: string }> = [];
  let text = '';
  let para: Para = { style: 0, outline: null, list: false, level: 0, marker: '' };
  let footnote = '';
  let furnitureText = '';
  let row: string[] = [];
  let cell = '';
  let inRow = false;
  let rows: string[][] = [];
  const stack: State[] = [];
  let state: State = { skip: false, fonttbl: false, font: null, uc: 1, info: null, style: null, listText: false, footnote: false, furniture: null };
  let pendingBytes: number[] = [];
  let skipChars = 0;

  const endTable = () => {
    if (rows.length === 0) return;
    const table = rows;
    ops.push((out) => out.table(table));
    rows = [];
  };
  const endParagraph = () => {
    const t = text.replace(/\u0000/g, '');
    text = '';
    if (!t.trim()) return;
    endTable();
    const style = styles.get(para.style);
    const { list, level, marker: rawMarker, outline: ownOutline } = para;
    ops.push((out) => {
      const heading = /^heading\s*(\d)$/i.exec(style?.name ?? '');
      const outline = ownOutline ?? style?.outline ?? null;
      if (/^title$/i.test(style?.name ?? '')) out.title(t);
      else if (outline !== null && outline < 9) out.heading(outline + 1, t);
      else if (heading) out.heading(Number(heading[1]), t);
      else if (list) {
        const marker = rawMarker.trim();
        const number = /^\(?(\d{1,4})[.)]?/.exec(marker);
        const ordered = marker !== '' && /^[(]?(?:\d+|[a-zA-Z]|[ivxlcIVXLC]+)[.)]/.test(marker);
        out.listItem(t, level, ordered ? (number ? Number(number[1]) : 1) : null);
      } else if (/^caption$/i.test(style?.name ?? '')) out.caption(t);
      else {
        const typed = /^\s*[•◦▪●○■□‣⁃∙·*–-]\s+(?=\S)/.exec(t);
        if (typed) out.listItem(t.slice(typed[0].length), 0, null);
        else out.paragraph(t);
      }
    });
  };

  const emit = (s: string) => {
    if (state.skip) return;
    if (state.style !== null) {
      const entry = styles.get(state.style) ?? { name: '', outline: null };
      entry.name += s;
      styles.set(state.style, entry);
    } else if (state.info !== null) {
      // Inside \info only the known fields are kept; the rest (dates, counts) is not text.
      if (state.info) info[state.info] = (info[state.info] ?? '') + s;
    } else if (state.listText) para.marker += s;
    else if (state.footnote) footnote += s;
    else if (state.furniture) furnitureText += s;
    else if (inRow) cell += s;
    else text += s;
  };
  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const data = Uint8Array.from(pendingBytes);
    pendingBytes = [];
    emit(decodeCodepage(data, fontCodepages.get(state.font ?? defaultFont) ?? codepage));
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
      const closing = state;
      state = stack.pop() ?? state;
      depth--;
      i++;
      if (closing.footnote && !state.footnote) {
        if (footnote.trim()) footnotes.push(footnote.trim());
        footnote = '';
      }
      if (closing.furniture && !state.furniture) {
        const t = furnitureText.trim();
        if (t && !furniture.some((f) => f.text === t)) furniture.push({ kind: closing.furniture, text: t });
        furnitureText = '';
      }
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
        if (ch === ';' && state.style !== null) {
          // The end of a style's name.
          i++;
          continue;
        }
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
      if (word === 'fonttbl') state.fonttbl = true;
      continue;
    }
    if (word === 'stylesheet') {
      state.style = -1;
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
      case 'deff':
        defaultFont = param ?? 0;
        break;
      case 'f':
        if (state.fonttbl) defining = param ?? 0;
        else state.font = param ?? 0;
        break;
      case 'fcharset':
        if (state.fonttbl && param !== null && CHARSET_CODEPAGES[param] && !fontCodepages.has(defining)) fontCodepages.set(defining, CHARSET_CODEPAGES[param]);
        break;
      case 'cpg':
        // A font's own code page outranks the one its character set implies.
        if (state.fonttbl && param) fontCodepages.set(defining, param);
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
      case 's':
        if (state.style !== null) state.style = param ?? 0;
        else para.style = param ?? 0;
        break;
      case 'outlinelevel':
        if (state.style !== null && state.style >= 0) {
          const entry = styles.get(state.style) ?? { name: '', outline: null };
          entry.outline = param ?? 0;
          styles.set(state.style, entry);
        } else para.outline = param ?? 0;
        break;
      case 'ls':
        para.list = true;
        break;
      case 'ilvl':
        para.level = Math.min(8, Math.max(0, param ?? 0));
        break;
      case 'listtext':
      case 'pntext':
        state.listText = true;
        para.list = true;
        break;
      case 'footnote':
        state.footnote = true;
        state.skip = false;
        break;
      case 'header':
      case 'headerl':
      case 'headerr':
      case 'headerf':
        state.furniture = 'header';
        break;
      case 'footer':
      case 'footerl':
      case 'footerr':
      case 'footerf':
        state.furniture = 'footer';
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
        inRow = false;
        // A list number's text (\listtext) comes just before the \pard of its paragraph: it stays.
        if (!state.footnote && !state.furniture) para = { style: 0, outline: null, list: para.marker.trim() !== '', level: 0, marker: para.marker };
        break;
      case 'par':
        if (inRow) cell += ' ';
        else if (state.footnote) footnote += '\n';
        else if (state.furniture) furnitureText += '\n';
        else if (state.style === null && state.info === null && !state.skip) {
          endParagraph();
          para.marker = '';
        }
        break;
      default:
        if (SYMBOLS[word] !== undefined && word !== 'par') emit(SYMBOLS[word] === '\n\n' ? '\n' : SYMBOLS[word]!);
    }
  }
  flushBytes();
  endParagraph();
  endTable();
  const get = (k: string) => info[k]?.trim() || null;
  // Headers first, then the body, footnotes and footers: the order DOCX gives them.
  const final = new Blocks(mode);
  for (const f of furniture) if (f.kind === 'header') final.pageHeader(f.text);
  for (const op of ops) op(final);
  for (const f of footnotes) final.footnote(f);
  for (const f of furniture) if (f.kind === 'footer') final.pageFooter(f.text);
  return final.output({ title: get('title'), author: get('author'), subject: get('subject') ?? get('doccomm'), keywords: get('keywords') });
}
