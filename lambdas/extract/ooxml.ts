// What DOCX, XLSX and PPTX share: relationships between parts and the
// document properties in docProps/.

import { posix } from 'node:path';
import { child, elements, parseXml, textContent, type XmlElement } from './xml.ts';
import type { SafeZip } from './zip.ts';
import type { FormatOutput } from './types.ts';

export function readXml(zip: SafeZip, name: string): XmlElement | null {
  const text = zip.readText(name);
  return text === null ? null : parseXml(text, `the part ${name}`);
}

/** Relationship id to the target part's name, resolved against `part`'s folder. */
export function relationships(zip: SafeZip, part: string): Map<string, { target: string; type: string }> {
  const dir = posix.dirname(part);
  const rels = readXml(zip, posix.join(dir, '_rels', posix.basename(part) + '.rels'));
  const out = new Map<string, { target: string; type: string }>();
  if (!rels) return out;
  for (const rel of elements(rels, 'Relationship')) {
    if (rel.attrs.TargetMode === 'External') continue;
    const target = rel.attrs.Target ?? '';
    const resolved = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir, target));
    out.set(rel.attrs.Id ?? '', { target: resolved, type: (rel.attrs.Type ?? '').split('/').pop() ?? '' });
  }
  return out;
}

/** docProps/core.xml and app.xml. */
export function coreProperties(zip: SafeZip): FormatOutput['metadata'] {
  const core = readXml(zip, 'docProps/core.xml');
  const app = readXml(zip, 'docProps/app.xml');
  const get = (el: XmlElement | null, name: string) => {
    const found = el && child(el, name);
    const s = found ? textContent(found).trim() : '';
    return s === '' ? null : s;
  };
  return {
    title: get(core, 'title'),
    author: get(core, 'creator'),
    subject: get(core, 'subject') ?? get(core, 'description'),
    keywords: get(core, 'keywords'),
    creator: get(app, 'Application'),
    created_at: isoDate(get(core, 'created')),
    modified_at: isoDate(get(core, 'modified')),
  };
}

export function isoDate(s: string | null | undefined): string | null {
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace('.000Z', 'Z');
}

/**
 * Children to read, in order: markup-compatibility blocks offer the same
 * content twice (Choice and Fallback), so only the Choice is kept.
 */
export function contentChildren(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === 'AlternateContent') {
      const choice = child(c, 'Choice') ?? child(c, 'Fallback');
      if (choice) out.push(...contentChildren(choice));
    } else out.push(c);
  }
  return out;
}
