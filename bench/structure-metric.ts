// The structure score of /work/shared/STRUCTURE-METRIC.md, as code.
//
// 1. Both Markdown texts are cut into blocks:
//    - a line starting with 1-6 `#` and a space is a heading;
//    - a line starting with `-`, `*`, `+`, `•` or `1.`/`1)` is a list item
//      (indentation ignored; `-`, `*`, `+` and the number need a space after
//      them, so `**bold**`, `---` and `2.1 Data` are not list items);
//    - a line starting with `|` is a table row, each cell a table cell
//      (separator rows `|---|:--:|` ignored);
//    - fenced code (``` or ~~~) is kept as paragraph text: the fence lines
//      go, the code's lines are cut into paragraphs at blank lines like any
//      text, but none of them is read as a heading, list item or table row;
//    - any other run of non-blank lines up to a blank line (or up to a line of
//      another kind) is one paragraph, its lines joined by a space.
//    Text is normalised first: NFKC, lower case, links and images reduced to
//    their text, HTML comments and the characters * _ ` ~ \ removed,
//    whitespace collapsed. A block whose text is empty after that (an empty
//    table cell, a `***` rule) is no block.
// 2. Per kind, predicted blocks are matched one to one with true blocks: an
//    identical text first; then, except for table cells, each true block still
//    unmatched (in document order) takes the unused predicted block with the
//    highest Dice coefficient of the two word multisets, if that is >= 0.8.
// 3. Block F1 of a document: the mean of the per-kind F1 over the kinds present
//    in either text. Word F1: the F1 of the two texts' word multisets.
// Words are runs of letters and digits (with their combining marks, so a word
// in Devanagari or with Arabic vowel marks stays one word), taken from the
// blocks' texts (Markdown markers, list numbers and URLs are not words).

export type Kind = 'heading' | 'paragraph' | 'list_item' | 'table_cell';
export const KINDS: readonly Kind[] = ['heading', 'paragraph', 'list_item', 'table_cell'];

export interface Block {
  kind: Kind;
  /** Normalised text. */
  text: string;
}

export interface KindScore {
  predicted: number;
  truth: number;
  matched: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface StructureScore {
  /** Mean F1 over the kinds present in either text. */
  blockF1: number;
  /** Only the kinds present in either text. */
  kinds: Partial<Record<Kind, KindScore>>;
  wordF1: number;
}

/** The document-wide part of normalisation: NFKC, lower case, links and images to their text, no HTML comments. */
function prepare(markdown: string): string {
  let s = markdown.normalize('NFKC').toLowerCase().replace(/\r\n?/g, '\n');
  s = s.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
  const target = String.raw`\((?:[^()\n]|\([^()\n]*\))*\)`;
  const inline = new RegExp(String.raw`!?\[([^\[\]\n]*)\]` + target, 'g');
  const reference = /!?\[([^[\]\n]*)\]\[[^[\]\n]*\]/g;
  // Repeated, so an image inside a link ([![alt](img)](url)) comes down to its text too.
  for (let i = 0; i < 4; i++) {
    const next = s.replace(inline, '$1').replace(reference, '$1');
    if (next === s) break;
    s = next;
  }
  return s;
}

/** The per-block part of normalisation: the characters * _ ` ~ \ removed, whitespace collapsed. */
export function normaliseBlockText(text: string): string {
  return text.replace(/[*_`~\\]/g, '').replace(/\s+/g, ' ').trim();
}

/** Cells of a table row `| a | b |`; a `\|` stays in its cell. */
function cells(row: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < row.length; i++) {
    const c = row[i]!;
    if (c === '\\' && row[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (c === '|') {
      parts.push(cur);
      cur = '';
    } else cur += c;
  }
  parts.push(cur);
  // The row starts with `|`, so parts[0] is empty; a closing `|` leaves an empty last part.
  parts.shift();
  if (parts.length > 0 && parts[parts.length - 1]!.trim() === '') parts.pop();
  return parts;
}

const SEPARATOR_CELL = /^\s*:?-+:?\s*$/;
const HEADING = /^#{1,6}[ \t]+(.*)$/;
const LIST_ITEM = /^(?:[-*+](?:[ \t]+|$)|•[ \t]*|\d{1,9}[.)](?:[ \t]+|$))(.*)$/;
const FENCE = /^(`{3,}|~{3,})/;

/** Cuts Markdown into normalised blocks, in document order. */
export function markdownBlocks(markdown: string): Block[] {
  const out: Block[] = [];
  const push = (kind: Kind, raw: string) => {
    const text = normaliseBlockText(raw);
    if (text !== '') out.push({ kind, text });
  };
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0) push('paragraph', para.join(' '));
    para = [];
  };
  let fence: string | null = null;
  for (const line of prepare(markdown).split('\n')) {
    const t = line.trim();
    if (fence !== null) {
      // Code is paragraph text: cut at blank lines, never read as headings, list items or tables.
      if (t.startsWith(fence) && /^[`~]*$/.test(t)) {
        fence = null;
        flush();
      } else if (t === '') flush();
      else para.push(t);
      continue;
    }
    const f = FENCE.exec(t);
    if (f) {
      flush();
      fence = f[1]!;
      continue;
    }
    if (t === '') {
      flush();
      continue;
    }
    let m = HEADING.exec(t);
    if (m) {
      flush();
      push('heading', m[1]!.replace(/[ \t]+#+[ \t]*$/, '').replace(/^#+$/, ''));
      continue;
    }
    m = LIST_ITEM.exec(t);
    if (m) {
      flush();
      push('list_item', m[1]!);
      continue;
    }
    if (t.startsWith('|')) {
      flush();
      const row = cells(t);
      if (row.length > 0 && row.every((c) => SEPARATOR_CELL.test(c))) continue;
      for (const c of row) push('table_cell', c);
      continue;
    }
    para.push(t);
  }
  flush();
  return out;
}

/**
 * A plain text (pdftotext's) as blocks: every run of non-blank lines up to a
 * blank line or a form feed is a paragraph, whatever it starts with.
 */
export function plainTextBlocks(text: string): Block[] {
  return prepare(text)
    .split(/\n[ \t]*\n|\f/)
    .map((p) => normaliseBlockText(p))
    .filter((p) => p !== '')
    .map((p) => ({ kind: 'paragraph' as const, text: p }));
}

export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
}

function tally(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Dice coefficient of two word multisets. */
export function dice(a: Map<string, number>, aSize: number, b: Map<string, number>, bSize: number): number {
  if (aSize + bSize === 0) return 0;
  let common = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [w, n] of small) common += Math.min(n, large.get(w) ?? 0);
  return (2 * common) / (aSize + bSize);
}

const f1 = (matched: number, predicted: number, truth: number) => (matched === 0 ? 0 : (2 * matched) / (predicted + truth));

/** Number of one-to-one matches between the predicted and true texts of one kind. */
export function matchCount(predicted: string[], truth: string[], fuzzy: boolean): number {
  const used = new Array<boolean>(predicted.length).fill(false);
  const matchedTruth = new Array<boolean>(truth.length).fill(false);
  const byText = new Map<string, number[]>();
  predicted.forEach((t, i) => {
    const list = byText.get(t);
    if (list) list.push(i);
    else byText.set(t, [i]);
  });
  let matched = 0;
  truth.forEach((t, j) => {
    const list = byText.get(t);
    const i = list?.shift();
    if (i !== undefined) {
      used[i] = true;
      matchedTruth[j] = true;
      matched++;
    }
  });
  if (!fuzzy) return matched;
  const predWords = predicted.map((t) => {
    const w = words(t);
    return { bag: tally(w), size: w.length };
  });
  truth.forEach((t, j) => {
    if (matchedTruth[j]) return;
    const w = words(t);
    if (w.length === 0) return;
    const bag = tally(w);
    let best = -1;
    let bestScore = 0.8;
    for (let i = 0; i < predicted.length; i++) {
      if (used[i]) continue;
      const p = predWords[i]!;
      // Dice is at most 2·min/(sum): skip the blocks whose length alone rules them out.
      const bound = (2 * Math.min(p.size, w.length)) / (p.size + w.length);
      if (bound < bestScore || (bound === bestScore && best >= 0)) continue;
      const d = dice(bag, w.length, p.bag, p.size);
      if (d > bestScore || (d === bestScore && best < 0)) {
        best = i;
        bestScore = d;
      }
    }
    if (best >= 0) {
      used[best] = true;
      matched++;
    }
  });
  return matched;
}

export function wordF1(predicted: Block[], truth: Block[]): number {
  const p = tally(predicted.flatMap((b) => words(b.text)));
  const t = tally(truth.flatMap((b) => words(b.text)));
  let pSize = 0;
  let tSize = 0;
  for (const n of p.values()) pSize += n;
  for (const n of t.values()) tSize += n;
  if (pSize + tSize === 0) return 1;
  let common = 0;
  for (const [w, n] of t) common += Math.min(n, p.get(w) ?? 0);
  return f1(common, pSize, tSize);
}

export function scoreBlocks(predicted: Block[], truth: Block[]): StructureScore {
  const kinds: Partial<Record<Kind, KindScore>> = {};
  const f1s: number[] = [];
  for (const kind of KINDS) {
    const p = predicted.filter((b) => b.kind === kind).map((b) => b.text);
    const t = truth.filter((b) => b.kind === kind).map((b) => b.text);
    if (p.length === 0 && t.length === 0) continue;
    const matched = matchCount(p, t, kind !== 'table_cell');
    const score: KindScore = {
      predicted: p.length,
      truth: t.length,
      matched,
      precision: p.length === 0 ? 0 : matched / p.length,
      recall: t.length === 0 ? 0 : matched / t.length,
      f1: f1(matched, p.length, t.length),
    };
    kinds[kind] = score;
    f1s.push(score.f1);
  }
  // Two texts without a single block agree; never the case with a real truth.
  const blockF1 = f1s.length === 0 ? 1 : f1s.reduce((a, b) => a + b, 0) / f1s.length;
  return { blockF1, kinds, wordF1: wordF1(predicted, truth) };
}

/** The score of predicted Markdown against true Markdown. */
export function scoreMarkdown(predicted: string, truth: string): StructureScore {
  return scoreBlocks(markdownBlocks(predicted), markdownBlocks(truth));
}
