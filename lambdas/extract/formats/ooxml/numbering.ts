// Word's list numbering (ECMA-376 Part 1, 17.9): the numbering part's
// abstract definitions (w:abstractNum, nine levels each) and the instances
// paragraphs point to (w:num, with level overrides), and the counters that
// give each numbered paragraph the label Word shows before it: "3.", "1.2.",
// "b)", "iv.", "Article 3:".

import { child, elements, type XmlElement } from '../../containers/xml.ts';
import { contentChildren } from './ooxml.ts';
import { formatNumber } from './numerals.ts';

export interface NumberingLevel {
  /** w:numFmt: decimal, lowerLetter, bullet, none, ... */
  format: string;
  /** The picture of a `custom` format ("001, 002, 003, ..."). */
  custom?: string;
  /** w:lvlText: the label with %1..%9 standing for the levels' counters; a bullet's glyph. */
  text: string;
  start: number;
  /** w:lvlRestart: the one-based level whose use restarts this one (0: never); undefined: any higher level's. */
  restart?: number;
  /** w:isLgl: every counter in the label written as decimal ("legal" numbering, 1.1.1 under I.). */
  legal: boolean;
  /** What stands between the label and the text (w:suff). */
  suffix: 'tab' | 'space' | 'nothing';
  /** The paragraph style linked to this level (numbered headings). */
  pStyle?: string;
}

interface NumInstance {
  /** Whose counters the instance counts with: its abstract numbering's, shared by every instance of it. */
  list: string;
  levels: Array<NumberingLevel | undefined>;
  /** Levels whose start the instance overrides: they restart where the instance is first used. */
  restarts: number[];
}

const LEVELS = 9;

export class Numbering {
  private constructor(private readonly nums: Map<string, NumInstance>) {}

  static empty(): Numbering {
    return new Numbering(new Map());
  }

  /**
   * `numbering` is the numbering part; `numberingStyles` maps a numbering
   * style's id to the w:num its properties name (for abstract numberings that
   * only link to a list style, w:numStyleLink).
   */
  static read(numbering: XmlElement | null, numberingStyles: Map<string, string>): Numbering {
    const nums = new Map<string, NumInstance>();
    if (!numbering) return new Numbering(nums);
    const abstracts = new Map<string, XmlElement>();
    for (const a of elements(numbering, 'abstractNum')) abstracts.set(a.attrs.abstractNumId ?? '', a);
    const numAbstract = new Map<string, string>();
    for (const num of elements(numbering, 'num')) numAbstract.set(num.attrs.numId ?? '', child(num, 'abstractNumId')?.attrs.val ?? '');
    // An abstract numbering that links to a list style takes its levels, and its counters, from the numbering that style names.
    const definition = (id: string, depth = 0): { id: string; el: XmlElement } | undefined => {
      const el = abstracts.get(id);
      const link = el && child(el, 'numStyleLink')?.attrs.val;
      if (!el || link === undefined || depth > 4) return el && { id, el };
      const numId = numberingStyles.get(link);
      const target = numId !== undefined ? numAbstract.get(numId) : undefined;
      return target !== undefined && target !== id ? (definition(target, depth + 1) ?? { id, el }) : { id, el };
    };
    for (const num of elements(numbering, 'num')) {
      const found = definition(numAbstract.get(num.attrs.numId ?? '') ?? '');
      if (!found) continue;
      const levels: Array<NumberingLevel | undefined> = new Array(LEVELS).fill(undefined);
      for (const lvl of elements(found.el, 'lvl')) {
        const i = Number(lvl.attrs.ilvl ?? 0);
        if (i >= 0 && i < LEVELS) levels[i] = readLevel(lvl, i);
      }
      const restarts: number[] = [];
      for (const o of elements(num, 'lvlOverride')) {
        const i = Number(o.attrs.ilvl ?? 0);
        if (!(i >= 0 && i < LEVELS)) continue;
        const lvl = child(o, 'lvl');
        if (lvl) levels[i] = readLevel(lvl, i, levels[i]);
        const start = child(o, 'startOverride')?.attrs.val;
        if (start !== undefined) levels[i] = { ...(levels[i] ?? readLevel({ name: 'lvl', attrs: {}, children: [] }, i)), start: Number(start) || 0 };
        if (start !== undefined || (lvl && child(lvl, 'start'))) restarts.push(i);
      }
      nums.set(num.attrs.numId ?? '', { list: found.id, levels, restarts });
    }
    return new Numbering(nums);
  }

  /** The level `ilvl` of numbering instance `numId`, if the document defines it. */
  level(numId: string, ilvl: number): NumberingLevel | undefined {
    return this.nums.get(numId)?.levels[ilvl];
  }

  /** The level of `numId` linked to paragraph style `styleId`, where a style names a list but no level. */
  levelOfStyle(numId: string, styleId: string): number | undefined {
    const i = this.nums.get(numId)?.levels.findIndex((l) => l?.pStyle === styleId);
    return i !== undefined && i >= 0 ? i : undefined;
  }

  /** A fresh set of counters over these lists (the body's, or a header's of its own). */
  counters(): ListCounters {
    return new ListCounters(this.nums);
  }
}

function readLevel(lvl: XmlElement, ilvl: number, base?: NumberingLevel): NumberingLevel {
  // Word 2010 writes zero-padded formats as a custom picture, with decimalZero as the fallback for older readers.
  const parts = contentChildren(lvl);
  const get = (name: string) => parts.find((c) => c.name === name);
  const fmt = get('numFmt');
  const format = fmt?.attrs.val ?? base?.format ?? 'decimal';
  const textEl = get('lvlText');
  const start = get('start')?.attrs.val;
  const restart = get('lvlRestart')?.attrs.val;
  const suffix = get('suff')?.attrs.val;
  return {
    format,
    custom: fmt ? fmt.attrs.format : base?.custom,
    // A level without its text is taken as the plain "N." a generator that leaves it out means; Word writes it always.
    text: textEl ? (textEl.attrs.val ?? '') : (base?.text ?? (format === 'bullet' ? '•' : `%${ilvl + 1}.`)),
    // The standard's default start is 0, but a level without one is a generator's shorthand for an ordinary list from 1.
    start: start !== undefined ? Number(start) || 0 : (base?.start ?? 1),
    restart: restart !== undefined ? Number(restart) : base?.restart,
    legal: get('isLgl') ? !['0', 'false', 'off'].includes(get('isLgl')!.attrs.val ?? 'true') : (base?.legal ?? false),
    suffix: suffix === 'space' || suffix === 'nothing' ? suffix : (base?.suffix ?? 'tab'),
    pStyle: get('pStyle')?.attrs.val ?? base?.pStyle,
  };
}

export interface NumberedLabel {
  /** The label as Word shows it ("1.2.", "b)", a bullet's glyph); empty where the level shows none. */
  label: string;
  level: NumberingLevel;
}

/**
 * The counters of the lists read so far. Each abstract numbering keeps one
 * counter per level, which every instance pointing to it advances (a list
 * split by other text, or continued under another w:num, goes on counting);
 * an instance that overrides a level's start restarts that level where it is
 * first used. Using a level restarts the levels under it, unless their
 * w:lvlRestart says otherwise (Word restarts a level when the level it names,
 * or any higher one, is used: MS-OI29500 on 17.9.11). A level above the one
 * used that has not counted since its last restart shows its start value and
 * counts from it, as Word shows "2.1.1" for a third-level item straight under
 * "2." and "2.2" for the second-level item after it.
 */
export class ListCounters {
  private readonly values = new Map<string, Array<number | undefined>>();
  private readonly used = new Set<string>();

  constructor(private readonly nums: Map<string, NumInstance>) {}

  /** Counts a paragraph numbered at level `ilvl` of instance `numId`; undefined where the document defines no such level. */
  next(numId: string, ilvl: number): NumberedLabel | undefined {
    const num = this.nums.get(numId);
    const level = num?.levels[ilvl];
    if (!num || !level) return undefined;
    let values = this.values.get(num.list);
    if (!values) {
      values = new Array(LEVELS).fill(undefined);
      this.values.set(num.list, values);
    }
    if (!this.used.has(numId)) {
      this.used.add(numId);
      for (const i of num.restarts) values[i] = undefined;
    }
    const startOf = (i: number) => num.levels[i]?.start ?? 1;
    for (let i = 0; i < ilvl; i++) values[i] ??= startOf(i);
    values[ilvl] = values[ilvl] === undefined ? startOf(ilvl) : values[ilvl] + 1;
    for (let i = ilvl + 1; i < LEVELS; i++) {
      const restart = num.levels[i]?.restart;
      // A restart naming this level or one below it is ignored (the standard's rule).
      const after = restart === undefined || restart - 1 >= i ? i : restart;
      if (after > 0 && ilvl < after) values[i] = undefined;
    }
    const label = level.text.replace(/%([1-9])/g, (_, d: string) => {
      const i = Number(d) - 1;
      const shown = num.levels[i];
      const value = values[i] ?? startOf(i);
      if (level.legal || !shown) return String(value);
      // A bullet level named in another level's text stands for its counter in decimal.
      return shown.format === 'bullet' ? String(value) : formatNumber(value, shown.format, shown.custom);
    });
    return { label: level.format === 'bullet' ? level.text : label, level };
  }
}
