// A small XML reader for the parts of office documents. It refuses any
// DOCTYPE, so there are no external entities and no entity expansion; it
// knows only the five predefined entities and character references.
// Element names lose their namespace prefix: each caller reads one
// vocabulary at a time, where local names are unambiguous enough.

import { ExtractionError } from '../engine/types.ts';
import { isDamage, type SafeZip } from './zip.ts';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

const MAX_DEPTH = 512;
const TAG = /<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Elements handed over one at a time as they close, then dropped from the
 * tree: a worksheet's million cells never stand as one tree in memory, only
 * the row being read (rows do not nest, so a handed row holds no other).
 */
export interface StreamedElements {
  name: string;
  visit: (el: XmlElement) => void;
  /** Inside an open element of one of these names, the element stays in its tree (a table's rows inside a cell of the sheet's). */
  notInside?: string[];
}

/**
 * The document element of `text`; `part` names the part in error messages.
 * With `onDamage`, markup that is not well-formed ends the text where it
 * stands, as a cut does, and is reported there instead of failing the parse:
 * what stands before it is read (a refused DOCTYPE, and nesting past the
 * limit, still fail).
 */
export function parseXml(text: string, part = 'an XML part', streamed?: StreamedElements, onDamage?: (why: string) => void): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  // Markup that is not well-formed: the parse fails, or, for a reader that takes what stands before it, the text ends there.
  const damaged = (why: string): void => {
    if (!onDamage) throw corrupt(part, why);
    onDamage(corrupt(part, why).message);
  };
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i && stack.length > 1) stack[stack.length - 1]!.children.push(decodeEntities(text.slice(i, end)));
    if (lt < 0) break;
    const c1 = text.charCodeAt(lt + 1);
    if (c1 === 0x3f /* ? */) {
      i = skipPast(text, lt, '?>');
      if (i < 0) {
        damaged('unterminated processing instruction');
        break;
      }
    } else if (c1 === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        i = skipPast(text, lt, '-->');
        if (i < 0) {
          damaged('unterminated comment');
          break;
        }
      } else if (text.startsWith('<![CDATA[', lt)) {
        const close = text.indexOf(']]>', lt);
        if (close < 0) {
          damaged('unterminated CDATA');
          break;
        }
        stack[stack.length - 1]!.children.push(text.slice(lt + 9, close));
        i = close + 3;
      } else if (/^<!DOCTYPE/i.test(text.slice(lt, lt + 9))) {
        throw new ExtractionError('refused_file', `Refused: ${part} declares a DOCTYPE; documents with DTDs or entity declarations are not accepted.`);
      } else {
        damaged('unexpected markup declaration');
        break;
      }
    } else if (c1 === 0x2f /* / */) {
      const close = text.indexOf('>', lt);
      if (close < 0) {
        damaged('unterminated end tag');
        break;
      }
      const name = localName(text.slice(lt + 2, close).trim());
      // Tolerant of mismatches: close up to the nearest open element of that name.
      for (let d = stack.length - 1; d > 0; d--) {
        if (stack[d]!.name === name) {
          if (streamed) handOver(stack, d, streamed);
          stack.length = d;
          break;
        }
      }
      i = close + 1;
    } else {
      TAG.lastIndex = lt;
      const m = TAG.exec(text);
      if (!m) {
        // A tag the text ends inside is where a part cut short ends (an archive read as far as it goes).
        if (text.indexOf('>', lt) >= 0) damaged(`malformed tag at offset ${lt}`);
        break;
      }
      const attrs: Record<string, string> = {};
      if (m[2]) for (const a of m[2].matchAll(ATTR)) attrs[localName(a[1]!)] = decodeEntities(a[2] ?? a[3] ?? '');
      const el: XmlElement = { name: localName(m[1]!), attrs, children: [] };
      if (m[3] && streamed?.name === el.name && !enclosed(stack, stack.length, streamed)) streamed.visit(el);
      else stack[stack.length - 1]!.children.push(el);
      if (!m[3]) {
        if (stack.length > MAX_DEPTH) throw corrupt(part, `elements nest deeper than ${MAX_DEPTH}`);
        stack.push(el);
      }
      i = TAG.lastIndex;
    }
  }
  // A truncated part's open elements are read as far as they go, streamed ones too.
  if (streamed) handOver(stack, 1, streamed);
  const doc = root.children.find((c): c is XmlElement => typeof c !== 'string');
  if (!doc) throw corrupt(part, 'no document element (the part is empty or truncated)');
  return doc;
}

/** Elements from `depth` up being closed: the streamed ones among them are handed over and taken out of their parents. */
function handOver(stack: XmlElement[], depth: number, streamed: StreamedElements): void {
  for (let d = stack.length - 1; d >= depth; d--) {
    const el = stack[d]!;
    if (el.name !== streamed.name || enclosed(stack, d, streamed)) continue;
    streamed.visit(el);
    const siblings = stack[d - 1]!.children;
    // The element closing is its parent's last child, unless text followed it before the mismatched end tag.
    const at = siblings.lastIndexOf(el);
    if (at >= 0) siblings.splice(at, 1);
  }
}

/** Whether an element below `depth` on the stack is one the streamed elements stay inside. */
function enclosed(stack: XmlElement[], depth: number, streamed: StreamedElements): boolean {
  if (!streamed.notInside) return false;
  for (let d = 1; d < depth; d++) if (streamed.notInside.includes(stack[d]!.name)) return true;
  return false;
}

/** Where the text goes on after `marker` from `from`; -1 where it never comes. */
function skipPast(text: string, from: number, marker: string): number {
  const at = text.indexOf(marker, from);
  return at < 0 ? -1 : at + marker.length;
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon < 0 ? qname : qname.slice(colon + 1);
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    return NAMED[ref] ?? whole;
  });
}

function corrupt(part: string, what: string): ExtractionError {
  return new ExtractionError('corrupt_file', `The document could not be read: ${part} is not well-formed XML (${what}).`);
}

// ---- Walking ---------------------------------------------------------------

export function elements(el: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== 'string' && (name === undefined || c.name === name)) out.push(c);
  return out;
}

export function child(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) if (typeof c !== 'string' && c.name === name) return c;
  return undefined;
}

/** Descendants named `name`, in document order, not looking inside a match. */
export function descendants(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const stack: XmlNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.name === name) out.push(node);
    else for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
  }
  return out;
}

/** All character data under `el`. */
export function textContent(el: XmlNode): string {
  if (typeof el === 'string') return el;
  let out = '';
  const stack: XmlNode[] = [el];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') out += node;
    else for (let k = node.children.length - 1; k >= 0; k--) stack.push(node.children[k]!);
  }
  return out;
}

/**
 * A ZIP package's XML part, parsed; null when the package has no such part.
 * `streamed` elements are handed over, not kept. A part that is damaged (its
 * data stops inflating, its XML stops being well-formed) is read up to the
 * damage, as Word's or PowerPoint's repair reads it, and noted in the
 * package's losses, so the job names it; a part with nothing readable before
 * its damage is null, and the document is read without it (styles, a header,
 * a slide). A reader that cannot do without the part says so (missingPart).
 * A refusal (a DOCTYPE, a bomb) still fails the document.
 */
export function readXml(zip: SafeZip, name: string, streamed?: StreamedElements): XmlElement | null {
  let damage: string | null = null;
  const damaged = (why: string) => {
    damage ??= why;
  };
  try {
    let text: string | null;
    try {
      text = zip.readText(name);
    } catch (err) {
      if (!isDamage(err)) throw err;
      damaged(err.message);
      text = new TextDecoder('utf-8').decode(zip.readUpToDamage(name));
    }
    return text === null ? null : parseXml(text, `the part ${name}`, streamed, damaged);
  } catch (err) {
    if (!isDamage(err)) throw err;
    damaged(err.message);
    return null;
  } finally {
    if (damage) zip.lose(name, damage);
  }
}

