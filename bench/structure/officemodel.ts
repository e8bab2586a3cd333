// Generated presentations and workbooks of known structure for bench:structure
// (sets gen-pptx and gen-xlsx). Seeded models like docmodel.ts's;
// render-pptx.py (python-pptx) and render-xlsx.py (openpyxl) write the files,
// deckTruth() and workbookTruth() write what a reader of the slides or the
// sheets should get back, from the model alone.
//
// PPTX truth, slide by slide, as the slide reads:
//   - the title of a slide (a title placeholder) is a heading: "#" on the title
//     slide (centred title), "##" on the others;
//   - a subtitle, and the text of a Section Header's body placeholder (which the
//     default template shows without bullets), are paragraphs;
//   - each paragraph of a content placeholder (Title and Content, Two Content)
//     is a list item: the default template shows a bullet at every level
//     ("•", "–", "•" at levels 0, 1, 2). The item's level (a:pPr lvl 0-2) is
//     its nesting: two spaces of indentation per level in the truth, which the
//     metric ignores (a list item is a list item at any depth). Some content
//     placeholders are numbered instead (a:buAutoNum arabicPeriod): "1." items.
//     A lead-in line whose bullet is switched off (a:buNone) is a paragraph, as
//     it reads;
//   - each paragraph of a plain text box is a paragraph, also when the text
//     boxes are drawn inside a group shape;
//   - a line break inside a paragraph (a:br, Shift+Enter) leaves it one
//     paragraph or one list item: its lines are joined by a space;
//   - a table is a table, its first row the header row, each cell a table cell;
//   - each paragraph of the speaker notes is a paragraph (no "Notes:" label:
//     the label is not in the source).
// No footers, dates or slide numbers are placed on the slides.
//
// XLSX truth, sheet by sheet: the sheet's name is a heading ("##"); its used
// range is a table, its first row the header row, each cell's text as Excel
// displays it with the number format the model chose (written here from the
// model's value and that format, never by reading the file back); an empty
// cell is no block; each cell comment is a paragraph (its text, without the
// cell reference or author, which Excel does not print in the comment).
// Formats and how Excel shows them: General (integers as they are, decimals
// of at most two places in their shortest form, also when the value in the
// file carries binary floating-point noise, 0.30000000000000004 shown 0.3), 0 and #,##0 (thousands
// commas), 0.0, 0.00, 0.000 and #,##0.00 (rounded half away from zero; the
// model never writes a tie), 0.0% and 0.00% (x100), "$"#,##0.00 (a negative
// as -$1,234.50: one section, the minus sign before everything),
// #,##0.00;(#,##0.00) (a negative in parentheses), 0.00E+00 (1.23E+04,
// 4.56E-06), dates yyyy-mm-dd, d-mmm-yy (5-Mar-24), mm/dd/yyyy, dd.mm.yyyy,
// mmm d, yyyy and mmmm d, yyyy, times hh:mm and h:mm AM/PM and yyyy-mm-dd
// hh:mm, booleans as TRUE and FALSE.

import { EN_WORDS, HEADINGS, prng } from './docmodel.ts';

// ---------------------------------------------------------------- shared

function rng(seed: number) {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const chance = (p: number) => r() < p;
  const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const phrase = (n: number) => Array.from({ length: n }, () => pick(EN_WORDS)).join(' ');
  const number = () => pick([String(int(2, 99)), String(int(1990, 2025)), `${int(1, 99)}.${int(0, 9)}%`, `${int(1, 9)},${int(100, 999)}`]);
  const sentence = (lo = 6, hi = 16): string => {
    const n = int(lo, hi);
    const parts = Array.from({ length: n }, () => (chance(0.06) ? number() : pick(EN_WORDS)));
    return capital(parts.join(' ')) + '.';
  };
  return { r, pick, int, chance, capital, phrase, number, sentence };
}

const cell = (s: string) => s.replace(/\|/g, '\\|');
/** A paragraph with line breaks inside is still one paragraph (or item): its lines joined by a space. */
const oneLine = (s: string) => s.replace(/\n/g, ' ');
function markdownTable(rows: string[][]): string {
  const [head, ...body] = rows;
  const row = (cs: string[]) => `| ${cs.map(cell).join(' | ')} |`;
  return [row(head!), row(head!.map(() => '---')), ...body.map(row)].join('\n');
}

// ---------------------------------------------------------------- presentations

export interface BulletItem {
  /** A "\n" is a line break inside the paragraph (a:br, Shift+Enter): one item on two lines. */
  text: string;
  level: 0 | 1 | 2;
  /** false: a lead-in line with its bullet switched off (a:buNone, no indent). */
  bullet: boolean;
}

export interface SlideModel {
  /**
   * python-pptx default template layouts: title (Title Slide: centred title, subtitle), content (Title and
   * Content), two-content (Two Content), section (Section Header: title, body without bullets), title-only
   * (Title Only), blank (Blank: no title).
   */
  layout: 'title' | 'content' | 'two-content' | 'section' | 'title-only' | 'blank';
  title: string | null;
  /** Subtitle (title layout) or the Section Header's body text. */
  subtitle: string | null;
  /** One list per content placeholder (one for content, two for two-content). */
  bodies: BulletItem[][];
  /** Per body: numbered (a:buAutoNum arabicPeriod at every level) rather than the template's bullets. */
  numbered: boolean[];
  /** Plain text boxes, each a list of paragraphs ("\n": a line break inside a paragraph). */
  textBoxes: string[][];
  /** The text boxes are drawn inside one group shape. */
  grouped: boolean;
  /** A table (first row the header), or none. */
  table: string[][] | null;
  /** Speaker notes, paragraph by paragraph. */
  notes: string[];
}

export interface DeckModel {
  name: string;
  title: string;
  slides: SlideModel[];
}

export function generateDecks(count: number, seed = 20261124): DeckModel[] {
  return Array.from({ length: count }, (_, i) => generateDeck(i, seed + i * 7919));
}

export function generateDeck(index: number, seed: number): DeckModel {
  const { pick, int, chance, capital, phrase, number, sentence } = rng(seed);
  const usedTitles = new Set<string>();
  const slideTitle = () => {
    let t = pick(HEADINGS);
    for (let k = 0; k < 6 && usedTitles.has(t); k++) t = pick(HEADINGS);
    if (usedTitles.has(t)) t = `${t} ${int(2, 9)}`;
    usedTitles.add(t);
    return t;
  };
  const bullets = (): BulletItem[] => {
    const items: BulletItem[] = [];
    if (chance(0.2)) items.push({ text: sentence(5, 10).replace(/\.$/, ':'), level: 0, bullet: false });
    const n = int(2, 6);
    let level: 0 | 1 | 2 = 0;
    for (let k = 0; k < n; k++) {
      let text = chance(0.25) ? sentence(6, 14) : capital(phrase(int(2, 8)));
      if (chance(0.08)) text += `\n${sentence(3, 8)}`;
      items.push({ text, level, bullet: true });
      // A deeper item follows an item of the level above it.
      level = k < n - 2 && chance(0.3) ? (Math.min(2, level + 1) as 0 | 1 | 2) : chance(0.5) ? 0 : level;
    }
    return items;
  };
  const table = (): string[][] => {
    const cols = int(2, 5);
    const rows = int(3, 7);
    const head = Array.from({ length: cols }, (_, c) => (c === 0 ? capital(pick(EN_WORDS)) : capital(phrase(int(1, 2)))));
    const body = Array.from({ length: rows - 1 }, () => Array.from({ length: cols }, (_, c) => (c === 0 ? capital(phrase(int(1, 3))) : chance(0.6) ? number() : phrase(int(1, 3)))));
    return [head, ...body];
  };
  const notes = () => (chance(0.45) ? Array.from({ length: int(1, 3) }, () => Array.from({ length: int(1, 3) }, () => sentence()).join(' ')) : []);
  const boxParagraph = () => Array.from({ length: int(1, 2) }, () => sentence()).join(chance(0.15) ? '\n' : ' ');
  const textBoxes = (p: number) => (chance(p) ? Array.from({ length: int(1, 2) }, () => Array.from({ length: int(1, 2) }, boxParagraph)) : []);

  const title = `${capital(pick(EN_WORDS.filter((w) => w.length > 4)))} ${pick(['Review', 'Update', 'Briefing', 'Plan', 'Overview'])} ${int(2015, 2026)}`;
  const slides: SlideModel[] = [{ layout: 'title', title, subtitle: chance(0.8) ? capital(phrase(int(3, 7))) : null, bodies: [], numbered: [], textBoxes: [], grouped: false, table: null, notes: notes() }];
  const n = int(5, 14);
  for (let s = 0; s < n; s++) {
    const roll = int(0, 99);
    const base = { subtitle: null, bodies: [] as BulletItem[][], numbered: [] as boolean[], textBoxes: [] as string[][], grouped: false, table: null as string[][] | null, notes: notes() };
    if (roll < 45) slides.push({ ...base, layout: 'content', title: slideTitle(), bodies: [bullets()], numbered: [chance(0.2)], textBoxes: textBoxes(0.2) });
    else if (roll < 57) slides.push({ ...base, layout: 'two-content', title: slideTitle(), bodies: [bullets(), bullets()], numbered: [chance(0.2), chance(0.2)] });
    else if (roll < 67) slides.push({ ...base, layout: 'section', title: slideTitle(), subtitle: sentence(4, 10) });
    else if (roll < 85) slides.push({ ...base, layout: 'title-only', title: slideTitle(), table: table(), textBoxes: textBoxes(0.3) });
    else if (roll < 93) slides.push({ ...base, layout: 'title-only', title: slideTitle(), textBoxes: textBoxes(1), grouped: chance(0.4) });
    else slides.push({ ...base, layout: 'blank', title: null, textBoxes: textBoxes(1) });
  }
  return { name: `deck-${String(index + 1).padStart(2, '0')}`, title, slides };
}

/** What a reader of the slides should get back (see the top of this file). */
/** `notes: false`: the slides alone, as a PDF of the deck shows them (speaker notes are not printed). */
export function deckTruth(deck: DeckModel, { notes = true }: { notes?: boolean } = {}): string {
  const out: string[] = [];
  for (const s of deck.slides) {
    if (s.title) out.push(`${s.layout === 'title' ? '#' : '##'} ${s.title}`);
    if (s.subtitle) out.push(s.subtitle);
    s.bodies.forEach((body, b) => {
      let list: string[] = [];
      for (const it of body) {
        if (it.bullet) {
          list.push(`${'  '.repeat(it.level)}${s.numbered[b] ? '1.' : '-'} ${oneLine(it.text)}`);
          continue;
        }
        if (list.length > 0) out.push(list.join('\n'));
        list = [];
        out.push(oneLine(it.text));
      }
      if (list.length > 0) out.push(list.join('\n'));
    });
    for (const box of s.textBoxes) out.push(...box.map(oneLine));
    if (s.table) out.push(markdownTable(s.table));
    if (notes) out.push(...s.notes);
  }
  return out.join('\n\n') + '\n';
}

// ---------------------------------------------------------------- workbooks

/** A cell: its value as written (for render-xlsx.py), the number format, and the text Excel displays. */
export type CellModel =
  | null
  | { kind: 'string'; value: string; display: string }
  | { kind: 'number'; value: number; format: string; display: string }
  | { kind: 'date'; value: string; format: string; display: string }
  /** A date and time (ISO "YYYY-MM-DDTHH:MM") or a time of day ("HH:MM"): a serial number with a date or time format. */
  | { kind: 'datetime' | 'time'; value: string; format: string; display: string }
  | { kind: 'bool'; value: boolean; display: string };

export interface SheetModel {
  name: string;
  /** 1-based row and column of the used range's top-left cell. */
  origin: { row: number; col: number };
  /** The used range, row by row; the first row is the header. */
  rows: CellModel[][];
  /** Cell comments, by 0-based row and column inside the used range. */
  comments: Array<{ row: number; col: number; text: string; author: string }>;
}

export interface WorkbookModel {
  name: string;
  sheets: SheetModel[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Excel's display of a date with the formats the model uses. */
function dateDisplay(y: number, m: number, d: number, format: string): string {
  switch (format) {
    case 'yyyy-mm-dd':
      return `${y}-${pad(m)}-${pad(d)}`;
    case 'd-mmm-yy':
      return `${d}-${MONTHS[m - 1]!.slice(0, 3)}-${pad(y % 100)}`;
    case 'mm/dd/yyyy':
      return `${pad(m)}/${pad(d)}/${y}`;
    case 'dd.mm.yyyy':
      return `${pad(d)}.${pad(m)}.${y}`;
    case 'mmm d, yyyy':
      return `${MONTHS[m - 1]!.slice(0, 3)} ${d}, ${y}`;
    case 'mmmm d, yyyy':
      return `${MONTHS[m - 1]} ${d}, ${y}`;
    default:
      throw new Error(`no display rule for date format ${format}`);
  }
}
const DATE_FORMATS = ['yyyy-mm-dd', 'd-mmm-yy', 'mm/dd/yyyy', 'dd.mm.yyyy', 'mmm d, yyyy', 'mmmm d, yyyy'];

/** Digits of a non-negative integer with a comma every three. */
const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * A number kept as integer `units` of 10^-4, shown with `decimals` places (and ×100 with a % sign when
 * `percent`), grouped in thousands when `group`: rounded half away from zero, as Excel rounds. The caller
 * never passes a tie, so the double written to the file rounds the same way.
 */
function fixedDisplay(units: number, decimals: number, percent: boolean, group: boolean): string {
  const e = 4 - decimals - (percent ? 2 : 0);
  const scale = 10 ** e;
  const mag = Math.abs(units);
  const q = Math.floor(mag / scale) + (mag % scale >= scale / 2 ? 1 : 0);
  const s = String(q).padStart(decimals + 1, '0');
  const intPart = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? `.${s.slice(s.length - decimals)}` : '';
  return `${units < 0 ? '-' : ''}${group ? grouped(intPart) : intPart}${frac}${percent ? '%' : ''}`;
}

type ColumnKind =
  | { kind: 'label' }
  | { kind: 'text' }
  | { kind: 'int'; format: 'General' | '0' | '#,##0'; lo: number; hi: number }
  | { kind: 'decimal'; format: (typeof DECIMAL_FORMATS)[number]; lo: number; hi: number }
  | { kind: 'scientific'; format: '0.00E+00' }
  | { kind: 'date'; format: string }
  | { kind: 'time'; format: 'hh:mm' | 'h:mm AM/PM' | 'yyyy-mm-dd hh:mm' }
  | { kind: 'bool' };
const DECIMAL_FORMATS = ['0.00', '#,##0.00', '#,##0.00', '0.0', '0.000', '0.0%', '0.00%', 'General', '"$"#,##0.00', '#,##0.00;(#,##0.00)'] as const;

export function generateWorkbooks(count: number, seed = 20261125): WorkbookModel[] {
  return Array.from({ length: count }, (_, i) => generateWorkbook(i, seed + i * 7919));
}

export function generateWorkbook(index: number, seed: number): WorkbookModel {
  const { pick, int, chance, capital, phrase, sentence } = rng(seed);
  const SHEET_WORDS = ['Sales', 'Budget', 'Staff', 'Inventory', 'Orders', 'Survey', 'Summary', 'Regions', 'Costs', 'Forecast', 'Suppliers', 'Projects', 'Stations', 'Readings'];
  const used = new Set<string>();
  const sheetName = () => {
    let n = pick(SHEET_WORDS);
    if (used.has(n) || chance(0.4)) n = pick([`${n} ${int(2018, 2026)}`, `Q${int(1, 4)} ${n}`, `${capital(pick(['north', 'south', 'east', 'west', 'central']))} ${n}`]);
    while (used.has(n)) n = `${n} ${int(2, 9)}`;
    used.add(n);
    return n;
  };
  const column = (): ColumnKind => {
    const roll = int(0, 99);
    if (roll < 15) return { kind: 'text' };
    if (roll < 40) return { kind: 'int', format: pick(['General', '0', '#,##0', '#,##0'] as const), lo: pick([0, 0, -500]), hi: pick([99, 999, 99999, 2500000]) };
    if (roll < 70) return { kind: 'decimal', format: pick(DECIMAL_FORMATS), lo: pick([0, 0, -1000]), hi: pick([1, 100, 10000, 1000000]) };
    if (roll < 73) return { kind: 'scientific', format: '0.00E+00' };
    if (roll < 88) return { kind: 'date', format: pick(DATE_FORMATS) };
    if (roll < 95) return { kind: 'time', format: pick(['hh:mm', 'h:mm AM/PM', 'yyyy-mm-dd hh:mm'] as const) };
    return { kind: 'bool' };
  };
  const value = (c: ColumnKind): CellModel => {
    switch (c.kind) {
      case 'label': {
        const v = capital(phrase(int(1, 3)));
        return { kind: 'string', value: v, display: v };
      }
      case 'text': {
        const v = chance(0.2) ? `${pick(['A', 'B', 'K', 'X'])}-${int(100, 9999)}` : capital(phrase(int(1, 4)));
        return { kind: 'string', value: v, display: v };
      }
      case 'int': {
        const n = int(c.lo, c.hi);
        return { kind: 'number', value: n, format: c.format, display: c.format === '#,##0' ? `${n < 0 ? '-' : ''}${grouped(String(Math.abs(n)))}` : String(n) };
      }
      case 'decimal': {
        if (c.format === 'General') {
          // Two decimals at most: General shows the shortest text of the number. Some values are sums
          // worked out in binary floating point, as a script writing the workbook would (0.1 + 0.2 is
          // 0.30000000000000004 in the file): Excel shows them as the sum of the cents (0.3).
          const cents = int(c.lo * 100, c.hi * 100);
          const part = chance(0.3) ? int(1, 99) : 0;
          const v = part ? (cents - part) / 100 + part / 100 : cents / 100;
          return { kind: 'number', value: v, format: 'General', display: String(cents / 100) };
        }
        const percent = c.format.endsWith('%');
        const decimals = (/\.(0+)/.exec(c.format)?.[1] ?? '').length;
        const e = 4 - decimals - (percent ? 2 : 0);
        // Percent cells hold fractions: at most hi / 100 (so 0-100 %, or 0-1 %).
        const [lo, hi] = percent ? [Math.max(-1, c.lo / 1000), Math.min(1, c.hi / 100)] : [c.lo, c.hi];
        let units = 0;
        for (let k = 0; k < 20; k++) {
          units = int(Math.round(lo * 10000), Math.round(hi * 10000));
          const rest = Math.abs(units) % 10 ** e;
          // No ties, no value that shows as zero (Excel would print "-0.00" for a small negative).
          if ((e === 0 || rest !== (10 ** e) / 2) && Math.abs(units) >= 10 ** e) break;
        }
        if (Math.abs(units) < 10 ** e) units = 10 ** e + 1;
        if (e > 0 && Math.abs(units) % 10 ** e === (10 ** e) / 2) units += 1;
        const shown = fixedDisplay(Math.abs(units), decimals, percent, c.format.includes('#,##0'));
        // One section: a minus sign before everything (also the currency sign); two: the second, in parentheses.
        const display = c.format.includes(';') ? (units < 0 ? `(${shown})` : shown) : `${units < 0 ? '-' : ''}${c.format.startsWith('"$"') ? '$' : ''}${shown}`;
        return { kind: 'number', value: units / 10000, format: c.format, display };
      }
      case 'scientific': {
        // Three significant digits shown, two more kept (never 50: no ties).
        let exp = int(-6, 9);
        const mant = int(100, 999);
        let extra = int(0, 99);
        if (extra === 50) extra = 49;
        const value = (mant * 100 + extra) * 10 ** (exp - 4) * (chance(0.15) ? -1 : 1);
        let r = mant + (extra > 50 ? 1 : 0);
        if (r === 1000) {
          r = 100;
          exp++;
        }
        const digits = String(r);
        return { kind: 'number', value, format: c.format, display: `${value < 0 ? '-' : ''}${digits[0]}.${digits.slice(1)}E${exp < 0 ? '-' : '+'}${pad(Math.abs(exp))}` };
      }
      case 'time': {
        const h = int(0, 23);
        const mi = int(0, 59);
        const clock = c.format === 'h:mm AM/PM' ? `${h % 12 === 0 ? 12 : h % 12}:${pad(mi)} ${h < 12 ? 'AM' : 'PM'}` : `${pad(h)}:${pad(mi)}`;
        if (c.format !== 'yyyy-mm-dd hh:mm') return { kind: 'time', value: `${pad(h)}:${pad(mi)}`, format: c.format, display: clock };
        const y = int(1995, 2026);
        const m = int(1, 12);
        const d = int(1, 28);
        return { kind: 'datetime', value: `${y}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}`, format: c.format, display: `${y}-${pad(m)}-${pad(d)} ${clock}` };
      }
      case 'bool': {
        const v = chance(0.5);
        return { kind: 'bool', value: v, display: v ? 'TRUE' : 'FALSE' };
      }
      case 'date': {
        const y = int(1995, 2026);
        const m = int(1, 12);
        const d = int(1, 28);
        return { kind: 'date', value: `${y}-${pad(m)}-${pad(d)}`, format: c.format, display: dateDisplay(y, m, d, c.format) };
      }
    }
  };
  const HEADERS: Record<ColumnKind['kind'], string[]> = {
    label: ['Region', 'Item', 'Name', 'Station', 'Project', 'Supplier', 'Account'],
    text: ['Notes', 'Status', 'Code', 'Owner', 'Category', 'Remarks'],
    int: ['Units', 'Count', 'Quantity', 'Visitors', 'Orders', 'Staff'],
    decimal: ['Revenue', 'Cost', 'Share', 'Rate', 'Price', 'Balance', 'Growth'],
    scientific: ['Concentration', 'Mass', 'Flux', 'Energy'],
    date: ['Date', 'Start date', 'Due', 'Opened', 'Last review', 'Shipped'],
    time: ['Time', 'Logged', 'Opened at', 'Closed at'],
    bool: ['Active', 'Approved', 'Paid', 'Verified'],
  };
  const sheets: SheetModel[] = [];
  const nSheets = int(2, 5);
  for (let s = 0; s < nSheets; s++) {
    const cols: ColumnKind[] = [{ kind: 'label' }, ...Array.from({ length: int(2, 6) }, column)];
    const usedHeads = new Set<string>();
    const head: CellModel[] = cols.map((c) => {
      let h = pick(HEADERS[c.kind]);
      while (usedHeads.has(h)) h = `${h} ${int(2, 9)}`;
      usedHeads.add(h);
      return { kind: 'string', value: h, display: h };
    });
    const body: CellModel[][] = Array.from({ length: int(3, 30) }, () =>
      cols.map((c, j) => {
        if (j > 0 && chance(0.06)) return null;
        return value(c);
      }),
    );
    const rows = [head, ...body];
    const comments: SheetModel['comments'] = [];
    if (chance(0.5)) {
      for (let k = int(1, 3); k > 0; k--) {
        const row = int(0, rows.length - 1);
        const col = int(0, cols.length - 1);
        if (!rows[row]![col] || comments.some((c) => c.row === row && c.col === col)) continue;
        comments.push({ row, col, text: sentence(4, 14), author: pick(['Reviewer', 'Finance', 'A. Lee']) });
      }
    }
    sheets.push({ name: sheetName(), origin: chance(0.25) ? { row: int(1, 4), col: int(1, 3) } : { row: 1, col: 1 }, rows, comments });
  }
  return { name: `book-${String(index + 1).padStart(2, '0')}`, sheets };
}

/** What a reader of the sheets should get back (see the top of this file). */
/** `printed: true`: what a PDF of the workbook shows, its tables alone (sheet names and comments are not printed). */
export function workbookTruth(book: WorkbookModel, { printed = false }: { printed?: boolean } = {}): string {
  const out: string[] = [];
  for (const s of book.sheets) {
    if (!printed) out.push(`## ${s.name}`);
    out.push(markdownTable(s.rows.map((r) => r.map((c) => c?.display ?? ''))));
    if (!printed) out.push(...s.comments.map((c) => c.text));
  }
  return out.join('\n\n') + '\n';
}
