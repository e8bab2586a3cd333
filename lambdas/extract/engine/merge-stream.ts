// mergeParts (merge.ts) as a stream: the merged result's JSON written a piece
// at a time from parts read one at a time, so merging a large document holds
// one part and a few numbers per part, never every part nor the merged
// result (a 100 MB CSV's result JSON is about 575 MB). Each section of the
// result (content, tables, chunks, elements) is one more pass over the parts;
// what the later sections need of the earlier ones (offsets, how tables join,
// the headings in force) is worked out first, in a pass that keeps only that.
//
// The JSON parses to what resultJson(mergeParts(parts)) gives, member for
// member (test/unit/extract/merge-stream.test.ts holds it to that).

import { markdownRow, markdownRule } from './blocks.ts';
import { continuesTable, countsPage, cutsWord, joinTableElements, samePadded, type MergeRules, type Part } from './merge.ts';
import { codePointLength } from './text-stats.ts';
import type { Chunk, DocumentMetadata, Element, ExtractionResult, FailedPageRange, Table } from './types.ts';

/** A member of a part's result: each pass asks for the members it reads. */
export type ResultMember = keyof ExtractionResult;

/**
 * The parts of a split document in page order, read again for each pass (a
 * part that cannot be read is a failed part). With `members`, a part's
 * result needs to hold only those.
 */
export interface PartSource {
  count: number;
  read(position: number, members?: readonly ResultMember[]): Promise<Part>;
}

/** What the plan reads of every part, and of the first part it reads whole enough to know whether results carry elements. */
const PLAN_MEMBERS: readonly ResultMember[] = ['content', 'metadata', 'tables'];
const FIRST_PLAN_MEMBERS: readonly ResultMember[] = [...PLAN_MEMBERS, 'elements'];

/** Where one output table's rows come from: a table of a part, without its first row when that repeats the header before it. */
interface Piece {
  part: number;
  table: number;
  dropFirst: boolean;
}

interface OutputTable {
  pieces: Piece[];
  /** Rows padded to this width and the Markdown rendered again (a file split by rows, merged from more than one part). */
  padTo: number | null;
  /** The Markdown is the rows rendered again, not the part's own (the table was joined or padded). */
  render: boolean;
}

/** What the passes that write need to know, from the pass that reads every part first. */
export interface MergePlan {
  /** Positions of the parts that were read. */
  good: number[];
  /**
   * Each good part's offset in the merged content (code points), whether its
   * content joins it (a part with no rows adds no row break), and whether its
   * first table goes on with the table before it (a part of a page: after a
   * line break, its table element joined to that table's).
   */
  offsets: Map<number, PartPlace>;
  tables: OutputTable[];
  metadata: DocumentMetadata;
  separator: string;
  hasElements: boolean;
  pages: number;
  partial: boolean;
}

interface PartPlace {
  offset: number;
  joins: boolean;
  tableShift: number;
  rowBreak: boolean;
}

/** A table as the plan needs it: where it is, its header row and its widest row. */
interface TableStub {
  page?: number;
  first: string[] | undefined;
  /** The widest row after the first, and the first's width: a dropped header row does not widen the table. */
  widestAfterFirst: number;
  piece: Piece;
}

const widest = (s: TableStub, dropFirst: boolean) => Math.max(s.widestAfterFirst, dropFirst ? 0 : (s.first?.length ?? 0));

/**
 * The first pass: reads every part once and keeps what the writing passes
 * need. Null when no part could be read (nothing to merge).
 */
export async function planMerge(source: PartSource, rules: MergeRules, documentMetadata: Partial<DocumentMetadata> | null, opts: { joinSeams?: boolean } = {}): Promise<MergePlan | null> {
  const joinSeams = opts.joinSeams ?? true;
  const rows = rules.oneTable === true;
  const sepLength = codePointLength(rules.separator);
  const good: number[] = [];
  const failed: FailedPageRange[] = [];
  const offsets = new Map<number, PartPlace>();
  // Output tables with the stub of each one's first piece (its header row and page) and the last piece's page.
  const out: Array<{ head: TableStub; table: OutputTable; widest: number }> = [];
  // Tables that parts of a page added rows to (as rows do throughout a file split by rows).
  const rowJoined = new Set<(typeof out)[number]>();
  let first: ExtractionResult | null = null;
  let previous: { last_page: number; content: string } | null = null;
  let offset = 0;
  let joined = 0;
  let wordsCut = 0;
  let pages = 0;
  let words = 0;
  let language: string | null = null;
  const ocr: number[] = [];
  const failedSections: NonNullable<DocumentMetadata['failed_sections']> = [];
  const pageSizes: NonNullable<DocumentMetadata['page_sizes']> = [];

  for (let position = 0; position < source.count; position++) {
    const part = await source.read(position, first ? PLAN_MEMBERS : FIRST_PLAN_MEMBERS);
    if (!part.ok) {
      failed.push({ first_page: part.first_page, last_page: part.last_page, error: part.error });
      continue;
    }
    const { result } = part;
    good.push(position);
    first ??= result;
    const rowBreak = continuesTable(part, result);
    const joins = !(rows || !countsPage(part)) || result.content !== '';
    if (joins && joined > 0) offset += rowBreak ? 1 : sepLength;
    if (previous && rules.separator === '' && cutsWord(previous.content, result.content)) wordsCut++;
    const stubs: TableStub[] = result.tables.map((t, table) => ({
      page: t.page,
      first: t.rows[0],
      widestAfterFirst: t.rows.reduce((w, r, i) => (i === 0 ? w : Math.max(w, r.length)), 0),
      piece: { part: position, table, dropFirst: false },
    }));
    const before = out.length;
    const fresh = (s: TableStub) => out.push({ head: s, table: { pieces: [s.piece], padTo: null, render: false }, widest: widest(s, false) });
    const tail = out.at(-1);
    const head = stubs[0];
    if (!previous || !tail || !head) stubs.forEach(fresh);
    else if (rows || rowBreak) {
      // appendRows: the part's first table goes on with the table before it, its header row dropped when it repeats.
      const dropFirst = head.first !== undefined && samePadded(tail.head.first ?? [], head.first);
      tail.table.pieces.push({ ...head.piece, dropFirst });
      tail.widest = Math.max(tail.widest, widest(head, dropFirst));
      stubs.slice(1).forEach(fresh);
      if (rowBreak) rowJoined.add(tail);
    } else if (rules.joinTablesAtSeams && joinSeams && joinsAtSeam(tail.head, head, previous.last_page, part.first_page)) {
      const sameRow = tail.head.first!.length === head.first!.length && tail.head.first!.every((cell, i) => cell === head.first![i]);
      tail.table.pieces.push({ ...head.piece, dropFirst: sameRow });
      tail.table.render = true;
      stubs.slice(1).forEach(fresh);
    } else stubs.forEach(fresh);
    const tableShift = before - (before + stubs.length - out.length);
    offsets.set(position, { offset, joins, tableShift, rowBreak });
    if (countsPage(part)) pages += result.metadata.pages;
    words += result.metadata.word_count;
    language ??= result.metadata.language ?? null;
    for (const p of result.metadata.ocr_pages) ocr.push(p);
    for (const f of result.metadata.failed_sections ?? []) failedSections.push(f);
    for (const s of result.metadata.page_sizes ?? []) pageSizes.push(s);
    offset += codePointLength(result.content);
    if (joins) joined++;
    previous = { last_page: part.last_page, content: result.content };
  }
  if (!first) return null;
  // finishRows: the one table of a file split by rows is padded to its widest row and rendered once all parts are in.
  if (rows && good.length > 1) for (const t of out) Object.assign(t.table, { padTo: t.widest, render: true });
  for (const t of rowJoined) Object.assign(t.table, { padTo: t.widest, render: true });

  const metadata: DocumentMetadata = {
    ...first.metadata,
    pages,
    language,
    char_count: offset,
    word_count: words - wordsCut,
    ocr_pages: ocr,
    failed_sections: failedSections,
    failed_page_ranges: failed,
    ...(pageSizes.length > 0 ? { page_sizes: pageSizes } : {}),
    ...documentMetadata,
  };
  const partial = failed.length > 0 || failedSections.length > 0;
  return { good, offsets, tables: out.map((t) => t.table), metadata, separator: rules.separator, hasElements: first.elements !== undefined, pages, partial };
}

/** joinAtSeam's test: the tables sit on the seam's two pages and have the same number of columns. */
function joinsAtSeam(tail: TableStub, head: TableStub, lastPageBefore: number, firstPageAfter: number): boolean {
  if (tail.page !== lastPageBefore || head.page !== firstPageAfter) return false;
  const width = (s: TableStub) => s.first?.length ?? 0;
  return width(tail) !== 0 && width(tail) === width(head);
}

/**
 * The merged result's JSON, in pieces of at most about `pieceChars`
 * characters, reading the parts again for each of its sections; the same
 * part is not read twice in a row.
 */
export async function* mergedJson(source: PartSource, plan: MergePlan, pieceChars = 1 << 20): AsyncGenerator<string> {
  let cached: { position: number; members: readonly ResultMember[]; result: ExtractionResult } | null = null;
  const read = async (position: number, members: readonly ResultMember[]): Promise<ExtractionResult> => {
    if (cached?.position === position && cached.members === members) return cached.result;
    const part = await source.read(position, members);
    // Read in the first pass: gone or changed since means the parts are not what was planned, and a retry starts over.
    if (!part.ok) throw new Error(`part ${position} could be read when the merge was planned but not now: ${part.error}`);
    cached = { position, members, result: part.result };
    return part.result;
  };
  const CONTENT: readonly ResultMember[] = ['content'];
  const TABLES: readonly ResultMember[] = ['tables'];
  const CHUNKS: readonly ResultMember[] = ['chunks', 'elements'];
  const ELEMENTS: readonly ResultMember[] = ['elements'];
  let pending = '';
  const flush = function* (force = false) {
    if (pending.length >= pieceChars || (force && pending !== '')) {
      yield pending;
      pending = '';
    }
  };
  const text = (s: string) => {
    pending += s;
  };

  // content
  text('{"content":"');
  let joined = 0;
  for (const position of plan.good) {
    const { joins, rowBreak } = plan.offsets.get(position)!;
    if (!joins) continue;
    const { content } = await read(position, CONTENT);
    if (joined++ > 0) text(rowBreak ? '\\n' : JSON.stringify(plan.separator).slice(1, -1));
    text(JSON.stringify(content).slice(1, -1));
    yield* flush();
  }
  text(`","metadata":${JSON.stringify(plan.metadata)},"tables":[`);

  // tables
  for (const [t, table] of plan.tables.entries()) {
    if (t > 0) text(',');
    const firstPiece = table.pieces[0]!;
    const shape = (await read(firstPiece.part, TABLES)).tables[firstPiece.table]!;
    let member = 0;
    text('{');
    for (const key of Object.keys(shape) as Array<keyof Table>) {
      const value = shape[key];
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      text(`${member++ > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      if (key === 'rows') {
        text('[');
        let n = 0;
        for await (const row of rowsOf(table, (position) => read(position, TABLES))) {
          text(`${n++ > 0 ? ',' : ''}${JSON.stringify(row)}`);
          yield* flush();
        }
        text(']');
      } else if (key === 'markdown' && table.render) {
        text('"');
        let n = 0;
        for await (const row of rowsOf(table, (position) => read(position, TABLES))) {
          // tableMarkdown: the header row, the rule under it, then the body.
          const line = n === 0 ? `${markdownRow(row)}\n${markdownRule(row.length)}` : `\n${markdownRow(row)}`;
          text(JSON.stringify(line).slice(1, -1));
          n++;
          yield* flush();
        }
        text('"');
      } else text(JSON.stringify(value));
    }
    text('}');
    yield* flush();
  }
  text('],"chunks":[');

  // chunks, their headings from the elements before them (each part's chunks knew only their own part's)
  const trail = headingTrail();
  let index = 0;
  for (const position of plan.good) {
    const { offset } = plan.offsets.get(position)!;
    const result = await read(position, CHUNKS);
    const elements = result.elements;
    if (elements) trail.enter(elements, offset);
    for (const chunk of result.chunks) {
      const char_start = chunk.char_start + offset;
      const moved: Chunk = { ...chunk, index, char_start, char_end: chunk.char_end + offset, headings: elements ? trail.at(char_start) : chunk.headings };
      text(`${index++ > 0 ? ',' : ''}${JSON.stringify(moved)}`);
      yield* flush();
    }
    if (elements) trail.finish();
  }
  text(']');

  // elements
  if (plan.hasElements) {
    text(',"elements":[');
    let n = 0;
    // A table element is held until the next: a part that goes on with its table joins its own table element to it.
    let held: Element | null = null;
    const write = (e: Element) => text(`${n++ > 0 ? ',' : ''}${JSON.stringify(e)}`);
    for (const position of plan.good) {
      const { offset, tableShift, rowBreak } = plan.offsets.get(position)!;
      for (const [i, e] of ((await read(position, ELEMENTS)).elements ?? []).entries()) {
        const moved: Element = { ...e, char_start: e.char_start + offset, char_end: e.char_end + offset, ...(e.table !== undefined ? { table: e.table + tableShift } : {}) };
        if (i === 0 && rowBreak && held && moved.type === 'table' && held.table === moved.table) {
          joinTableElements(held, moved);
          continue;
        }
        if (held) write(held);
        held = null;
        if (moved.type === 'table') held = moved;
        else write(moved);
        yield* flush();
      }
    }
    if (held) write(held);
    text(']');
  }
  text('}');
  yield* flush(true);
}

/** An output table's rows from its pieces, in order, padded when the plan says. */
async function* rowsOf(table: OutputTable, read: (position: number) => Promise<ExtractionResult>): AsyncGenerator<string[]> {
  for (const piece of table.pieces) {
    const rows = (await read(piece.part)).tables[piece.table]!.rows;
    for (let i = piece.dropFirst ? 1 : 0; i < rows.length; i++) {
      const row = rows[i]!;
      yield table.padTo !== null && row.length < table.padTo ? [...row, ...new Array<string>(table.padTo - row.length).fill('')] : row;
    }
  }
}

/**
 * headingPaths (chunks.ts) over elements that arrive a part at a time: the
 * headings in force at offsets asked in increasing order. A part's elements
 * are entered before its chunks ask and finished after, so the next part's
 * chunks see every heading before them.
 */
function headingTrail(): { enter(elements: Element[], offset: number): void; at(offset: number): string[]; finish(): void } {
  let path: Array<{ level: number; text: string }> = [];
  let current: Element[] = [];
  let shift = 0;
  let next = 0;
  const take = (upTo: number) => {
    for (; next < current.length && current[next]!.char_start + shift <= upTo; next++) {
      const e = current[next]!;
      if (e.type !== 'heading' && e.type !== 'title') continue;
      // A title stands above every heading.
      const level = e.type === 'title' ? 0 : (e.level ?? 1);
      while (path.length > 0 && path.at(-1)!.level >= level) path.pop();
      path = [...path, { level, text: e.text }];
    }
  };
  return {
    enter(elements, offset) {
      [current, shift, next] = [elements, offset, 0];
    },
    at(offset) {
      take(offset);
      return path.map((h) => h.text);
    },
    finish() {
      take(Infinity);
    },
  };
}
