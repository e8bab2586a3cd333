// Generated documents of known structure for bench:structure. A seeded model
// (title, headings h1-h3 with and without section numbers, paragraphs long
// enough to wrap, bulleted and numbered lists with nested items, tables,
// figures and their captions) with a page style per document (fonts, sizes,
// margins, spacing, alignment, running header and footer with page numbers,
// two columns), some in Hebrew or Arabic. render-docx.py turns a model into a
// DOCX with real Word styles; truthMarkdown() writes what a reader should get
// back: the body only, no running headers, footers or page numbers.

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  /** A run in a right-to-left script (Word's w:rtl). */
  rtl?: boolean;
}

export type DocBlock =
  | { type: 'title'; text: string }
  | { type: 'heading'; level: 1 | 2 | 3; text: string }
  | { type: 'paragraph'; runs: Run[] }
  | { type: 'list'; ordered: boolean; items: { text: string; level: 0 | 1 | 2 }[] }
  | { type: 'table'; rows: string[][] }
  | { type: 'caption'; text: string }
  /** A bar chart (an image without text); its caption is a block of its own. */
  | { type: 'figure'; bars: number[] };

export interface PageStyle {
  pageSize: 'letter' | 'a4';
  /** Inches. */
  margins: { top: number; bottom: number; left: number; right: number };
  bodyFont: string;
  /** Points. */
  bodySize: number;
  headingFont: string;
  /** Points, for Heading 1..3. */
  headingSizes: [number, number, number];
  headingBold: boolean;
  /** Hex colour of headings, e.g. "1F3864". */
  headingColor: string;
  titleSize: number;
  /** Line spacing multiple. */
  lineSpacing: number;
  /** Points after a paragraph. */
  spaceAfter: number;
  /** Inches of first-line indent (0: none). */
  firstLineIndent: number;
  justify: boolean;
}

export interface DocModel {
  name: string;
  /** Paragraph direction of the whole document. */
  rtl: boolean;
  language: 'en' | 'he' | 'ar';
  style: PageStyle;
  /** Running header text (not part of the truth). */
  header: string | null;
  /** Footer: a page number alone, "Page N of M", or a text and the number (not part of the truth). */
  footer: null | 'number' | 'page-of' | 'text-number';
  footerText: string;
  /** Body after the title and first section set in two columns (w:cols num=2). */
  twoColumn: boolean;
  blocks: DocBlock[];
}

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const EN_WORDS = (
  'the of and a to in is that for it as was with be by on not this are from at or have an they which one you had ' +
  'system data model report analysis result method value process design sample survey record field region market ' +
  'service network policy budget customer project quality measure station energy water supply demand price growth ' +
  'period council member school patient student farmer river harbour bridge engine signal sensor archive ledger ' +
  'increase reduce compare collect review publish describe estimate improve support follow maintain deliver require ' +
  'annual regional careful early large small recent public private central northern southern typical average ' +
  'significant stable uneven detailed modest several further initial final external internal technical practical ' +
  'during between within across after before under above through against along beyond toward'
).split(' ');

const EN_NOUNS = 'system data model report analysis method process design sample survey record region market service network policy budget project quality station energy supply price growth council school harbour bridge engine sensor archive'.split(' ');
const EN_ADJ = 'annual regional recent public central northern typical average stable detailed initial final external technical practical'.split(' ');

export const HEADINGS = [
  'Introduction', 'Background', 'Data Collection', 'Methods', 'Results', 'Discussion', 'Related Work', 'Evaluation',
  'Limitations', 'Conclusion', 'Future Work', 'Experimental Setup', 'Analysis', 'Implementation', 'Design Overview',
  'Cost Model', 'Threats to Validity', 'Field Observations', 'Survey Design', 'Budget Summary', 'Regional Differences',
  'Sampling Procedure', 'Quality Control', 'Risk Assessment', 'Recommendations', 'Scope and Purpose', 'Governance',
  'Maintenance Plan', 'Stakeholder Review', 'Lessons Learned',
];

const HE_WORDS = 'מערכת מסמך נתונים תוצאות מחקר שנה ראשון חדש גדול עבודה בדיקה דוח טבלה פרק סיכום לקוח שירות מידע תהליך ניתוח איכות בית ספר עיר זמן כל של על עם הוא היא אנחנו לא גם רק אשר בין לפני אחרי תקציב אזור שוק מדיניות פרויקט'.split(' ');
const AR_WORDS = 'نظام وثيقة بيانات نتائج بحث سنة أول جديد كبير عمل اختبار تقرير جدول فصل ملخص عميل خدمة معلومات عملية تحليل جودة بيت كتاب مدينة وقت كل من على مع هو هي نحن لا أيضا فقط التي بين قبل بعد ميزانية منطقة سوق سياسة مشروع'.split(' ');
const HE_HEADINGS = ['מבוא', 'רקע', 'איסוף נתונים', 'שיטות', 'תוצאות', 'דיון', 'סיכום', 'המלצות', 'ניתוח עלויות', 'תכנית עבודה'];
const AR_HEADINGS = ['مقدمة', 'خلفية', 'جمع البيانات', 'الطرق', 'النتائج', 'مناقشة', 'الخلاصة', 'التوصيات', 'تحليل التكاليف', 'خطة العمل'];
/** Left-to-right words and numbers embedded in right-to-left text. */
const LTR_EMBEDS = ['PDF', 'ISO 9001', 'Excel', 'API', 'version 2.4', 'OECD', 'GPS', 'Wi-Fi', 'COVID-19', 'UTF-8'];

const SERIF = ['Liberation Serif', 'DejaVu Serif', 'Noto Serif'];
const SANS = ['Liberation Sans', 'DejaVu Sans', 'Noto Sans'];

export function generateModels(count: number, seed = 20261123): DocModel[] {
  return Array.from({ length: count }, (_, i) => generateModel(i, seed + i * 7919));
}

export function generateModel(index: number, seed: number): DocModel {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const chance = (p: number) => r() < p;
  // One document in eight is Hebrew, one in eight Arabic.
  const language: DocModel['language'] = index % 8 === 2 ? 'he' : index % 8 === 5 ? 'ar' : 'en';
  const rtl = language !== 'en';
  const serifBody = chance(0.5);
  const bodyFont = rtl ? pick(['DejaVu Sans', 'Noto Sans', 'DejaVu Serif']) : pick(serifBody ? SERIF : SANS);
  const headingFont = chance(0.5) ? bodyFont : rtl ? 'DejaVu Sans' : pick(serifBody ? SANS : SERIF);
  const bodySize = pick([9.5, 10, 10.5, 11, 11, 12]);
  const h1 = bodySize + int(3, 9);
  const h2 = Math.max(bodySize + 1, h1 - int(2, 4));
  const h3 = Math.max(bodySize, h2 - int(1, 2));
  const style: PageStyle = {
    pageSize: chance(0.5) ? 'letter' : 'a4',
    margins: { top: pick([0.6, 0.8, 1, 1.2]), bottom: pick([0.6, 0.8, 1, 1.2]), left: pick([0.7, 0.9, 1, 1.25]), right: pick([0.7, 0.9, 1, 1.25]) },
    bodyFont,
    bodySize,
    headingFont,
    headingSizes: [h1, h2, h3],
    headingBold: chance(0.75),
    headingColor: pick(['000000', '1F3864', '2E74B5', '404040', '7B2C2C']),
    titleSize: h1 + int(4, 10),
    lineSpacing: pick([1, 1, 1.08, 1.15, 1.3, 1.5]),
    spaceAfter: pick([0, 3, 6, 8, 10, 12]),
    firstLineIndent: 0,
    justify: chance(0.4),
  };
  // Paragraphs without space between them need a first-line indent to be told apart, as books do.
  if (style.spaceAfter <= 3) style.firstLineIndent = pick([0.25, 0.3, 0.5]);
  else if (chance(0.2)) style.firstLineIndent = 0.3;

  const words = language === 'he' ? HE_WORDS : language === 'ar' ? AR_WORDS : EN_WORDS;
  const headingNames = language === 'he' ? HE_HEADINGS : language === 'ar' ? AR_HEADINGS : HEADINGS;
  const number = () => pick([String(int(2, 99)), String(int(1990, 2025)), `${int(1, 99)}.${int(0, 9)}%`, `${int(1, 9)},${int(100, 999)}`, `${int(1, 12)}.${int(1, 28)}`]);
  const phrase = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const sentence = (): string => {
    const n = int(7, 20);
    const parts: string[] = [];
    for (let k = 0; k < n; k++) {
      let w = pick(words);
      if (chance(0.06)) w = number();
      else if (rtl && chance(0.05)) w = pick(LTR_EMBEDS);
      if (k > 2 && k < n - 2 && chance(0.08)) w += ',';
      parts.push(w);
    }
    let s = parts.join(' ');
    if (!rtl) s = s[0]!.toUpperCase() + s.slice(1);
    return s + (chance(0.1) ? (rtl ? '?' : '?') : '.');
  };
  const paragraphText = (lo: number, hi: number) => Array.from({ length: int(lo, hi) }, sentence).join(' ');
  const paragraph = (): DocBlock => {
    const text = paragraphText(2, 7);
    // Some paragraphs carry emphasis inside: a bold or italic run in the middle.
    if (!chance(0.25)) return { type: 'paragraph', runs: [{ text, rtl }] };
    const ws = text.split(' ');
    const a = int(1, Math.max(1, ws.length - 4));
    const b = Math.min(ws.length - 1, a + int(1, 3));
    const bold = chance(0.5);
    return {
      type: 'paragraph',
      runs: [
        { text: ws.slice(0, a).join(' ') + ' ', rtl },
        { text: ws.slice(a, b).join(' '), rtl, bold, italic: !bold },
        { text: ' ' + ws.slice(b).join(' '), rtl },
      ],
    };
  };
  const capital = (s: string) => (rtl ? s : s[0]!.toUpperCase() + s.slice(1));
  const listItem = () => capital(chance(0.2) ? paragraphText(1, 2).replace(/\.$/, '') : phrase(int(2, 9)));
  const list = (): DocBlock => {
    const ordered = chance(0.45);
    const items: { text: string; level: 0 | 1 | 2 }[] = [];
    const n = int(3, 7);
    let level: 0 | 1 | 2 = 0;
    for (let k = 0; k < n; k++) {
      items.push({ text: listItem(), level });
      // Nested items follow an item of the level above.
      level = k < n - 2 && chance(0.25) ? (Math.min(2, level + 1) as 0 | 1 | 2) : chance(0.5) ? 0 : level;
    }
    return { type: 'list', ordered, items };
  };
  let tables = 0;
  let figures = 0;
  const table = (): DocBlock[] => {
    const cols = int(2, 5);
    const rows = int(3, 8);
    const head = Array.from({ length: cols }, (_, c) => (c === 0 ? capital(pick(words)) : capital(phrase(int(1, 2)))));
    const body = Array.from({ length: rows - 1 }, () =>
      Array.from({ length: cols }, (_, c) => (c === 0 ? capital(phrase(int(1, 3))) : chance(0.6) ? number() : phrase(int(1, 3)))),
    );
    tables++;
    const label = language === 'he' ? 'טבלה' : language === 'ar' ? 'جدول' : 'Table';
    const noun = language === 'en' ? `${capital(pick(EN_ADJ))} ${pick(EN_NOUNS)} figures by ${pick(EN_NOUNS)}` : phrase(int(3, 6));
    return [
      { type: 'caption', text: `${label} ${tables}: ${noun}` },
      { type: 'table', rows: [head, ...body] },
    ];
  };
  const figure = (): DocBlock[] => {
    figures++;
    const label = language === 'he' ? 'איור' : language === 'ar' ? 'شكل' : 'Figure';
    const noun = language === 'en' ? `${capital(pick(EN_ADJ))} ${pick(EN_NOUNS)} ${pick(['by year', 'per region', 'over time', 'by source'])}` : phrase(int(3, 6));
    return [
      { type: 'figure', bars: Array.from({ length: int(4, 9) }, () => int(10, 100)) },
      { type: 'caption', text: `${label} ${figures}: ${noun}` },
    ];
  };

  const numbered = chance(0.5);
  const targetWords = int(600, 2900);
  const title = language === 'en' ? `${capital(pick(EN_ADJ))} ${capital(pick(EN_NOUNS))} ${pick(['Report', 'Study', 'Review', 'Assessment', 'Handbook'])} ${int(2015, 2026)}` : `${phrase(3)} ${int(2015, 2026)}`;
  const blocks: DocBlock[] = [{ type: 'title', text: title }];
  let count = 0;
  const wordsIn = (b: DocBlock) =>
    b.type === 'paragraph' ? b.runs.map((x) => x.text).join('').split(' ').length : b.type === 'list' ? b.items.length * 6 : b.type === 'table' ? b.rows.length * 20 : 5;
  const usedHeadings = new Set<string>();
  const headingText = () => {
    let h = pick(headingNames);
    for (let k = 0; k < 5 && usedHeadings.has(h); k++) h = pick(headingNames);
    usedHeadings.add(h);
    return h;
  };
  const add = (...bs: DocBlock[]) => {
    for (const b of bs) {
      blocks.push(b);
      count += wordsIn(b);
    }
  };
  add(paragraph());
  // The Hebrew or Arabic quotation some English documents carry.
  const quoteAt = language === 'en' && index % 5 === 4 ? int(1, 3) : -1;
  for (let s = 1; count < targetWords; s++) {
    add({ type: 'heading', level: 1, text: numbered ? `${s} ${headingText()}` : headingText() });
    for (let p = int(1, 3); p > 0; p--) add(paragraph());
    if (s === quoteAt) {
      const foreign = chance(0.5) ? HE_WORDS : AR_WORDS;
      const text = Array.from({ length: int(12, 30) }, (_, k) => (k % 9 === 4 ? number() : pick(foreign))).join(' ') + '.';
      add({ type: 'paragraph', runs: [{ text, rtl: true }] });
    }
    const subs = chance(0.6) ? int(1, 3) : 0;
    for (let t = 1; t <= subs; t++) {
      add({ type: 'heading', level: 2, text: numbered ? `${s}.${t} ${headingText()}` : headingText() });
      add(paragraph());
      if (chance(0.35)) add(list());
      if (chance(0.3)) add(paragraph());
      if (chance(0.3)) {
        add({ type: 'heading', level: 3, text: numbered ? `${s}.${t}.1 ${headingText()}` : headingText() });
        add(paragraph());
      }
    }
    if (chance(0.4)) add(list());
    if (chance(0.35)) add(...table());
    if (chance(0.25)) add(...figure());
    if (chance(0.5)) add(paragraph());
  }

  const headerTexts = language === 'he' ? 'דוח שנתי — טיוטה' : language === 'ar' ? 'تقرير سنوي — مسودة' : `${title} — Draft for review`;
  const withHeader = index % 4 !== 1;
  return {
    name: `gen-${String(index + 1).padStart(2, '0')}-${language}${index % 3 === 1 ? '-2col' : ''}`,
    rtl,
    language,
    style,
    header: withHeader ? headerTexts : null,
    footer: withHeader ? pick(['number', 'page-of', 'text-number'] as const) : null,
    footerText: language === 'en' ? pick(['Confidential', 'Internal use only', 'Acme Research Institute']) : language === 'he' ? 'לשימוש פנימי' : 'للاستخدام الداخلي',
    twoColumn: index % 3 === 1,
    blocks,
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The Markdown a reader should get back from the document: its body in order, no running header, footer or page number. */
export function truthMarkdown(doc: DocModel): string {
  const out: string[] = [];
  for (const b of doc.blocks) {
    switch (b.type) {
      case 'title':
        out.push(`# ${b.text}`);
        break;
      case 'heading':
        out.push(`${'#'.repeat(b.level + 1)} ${b.text}`);
        break;
      case 'paragraph':
        out.push(b.runs.map((r) => (r.bold ? `**${r.text}**` : r.italic ? `*${r.text}*` : r.text)).join(''));
        break;
      case 'caption':
        out.push(b.text);
        break;
      case 'list':
        out.push(b.items.map((it) => `${'  '.repeat(it.level)}${b.ordered ? '1.' : '-'} ${it.text}`).join('\n'));
        break;
      case 'table': {
        const [head, ...body] = b.rows;
        const row = (cs: string[]) => `| ${cs.map(cell).join(' | ')} |`;
        out.push([row(head!), row(head!.map(() => '---')), ...body.map(row)].join('\n'));
        break;
      }
      case 'figure':
        break;
    }
  }
  return out.join('\n\n') + '\n';
}
