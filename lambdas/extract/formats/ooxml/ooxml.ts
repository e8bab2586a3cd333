// What DOCX, XLSX and PPTX share: relationships between parts and the
// document properties in docProps/.

import { posix } from 'node:path';
import { child, descendants, elements, readXml, textContent, type XmlElement } from '../../containers/xml.ts';
import { lossMetadata, type SafeZip } from '../../containers/zip.ts';
import type { Blocks } from '../../engine/blocks.ts';
import { type ChartText, writeChart } from '../../engine/charts.ts';
import { isoDate } from '../../engine/iso-date.ts';
import type { FormatOutput } from '../../engine/types.ts';

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

/** docProps/core.xml and app.xml, and what a package cut short lost (the job is then a partial success). */
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
    ...lossMetadata(zip),
  };
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

// ---- Charts and SmartArt, shared by DOCX, XLSX and PPTX ----------------------

/** All a:t text of a DrawingML text body (rich text), paragraphs joined by a space. */
function richText(el: XmlElement): string {
  const paras = descendants(el, 'p');
  const from = paras.length > 0 ? paras : [el];
  return from
    .map((p) => descendants(p, 't').map(textContent).join(''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The points of a chart's string or number reference (its cached values), in index order. */
function cachedPoints(el: XmlElement | undefined): string[] {
  if (!el) return [];
  const pts = descendants(el, 'pt');
  if (pts.length === 0) {
    const v = descendants(el, 'v')[0];
    return v ? [textContent(v).trim()] : [];
  }
  // A multi-level category axis lists one level after another; the first level is the innermost.
  const lvl = descendants(el, 'lvl');
  const use = lvl.length > 0 ? descendants(lvl[0]!, 'pt') : pts;
  const out: string[] = [];
  for (const pt of use) {
    const idx = Number(pt.attrs.idx ?? out.length);
    const v = child(pt, 'v');
    if (idx >= 0 && idx < 10000) out[idx] = v ? textContent(v).trim() : '';
  }
  return Array.from(out, (s) => s ?? '');
}

/** The title text of a chart element (chart or axis): its rich text or the cell it refers to. */
function titleText(el: XmlElement | undefined): string {
  if (!el) return '';
  const title = child(el, 'title');
  if (!title) return '';
  const tx = child(title, 'tx');
  if (!tx) return '';
  const rich = child(tx, 'rich');
  return rich ? richText(rich) : cachedPoints(child(tx, 'strRef')).join(' ').trim();
}

/** What a reader sees of a chart part: its title, axis titles, series names and categories (with the cached values). */
export function readChart(zip: SafeZip, part: string): ChartText | null {
  const root = readXml(zip, part);
  const chart = root && child(root, 'chart');
  if (!chart) return null;
  const plot = child(chart, 'plotArea');
  const title = chart.attrs.autoTitleDeleted === '1' ? '' : titleText(chart);
  const axisTitles = plot ? elements(plot).filter((e) => /Ax$/.test(e.name)).map(titleText).filter(Boolean) : [];
  const series = plot ? descendants(plot, 'ser') : [];
  const names: string[] = [];
  const columns: string[][] = [];
  let categories: string[] = [];
  for (const ser of series) {
    const tx = child(ser, 'tx');
    names.push(tx ? cachedPoints(tx).join(' ').trim() : '');
    const cat = child(ser, 'cat') ?? child(ser, 'xVal');
    const points = cachedPoints(cat);
    if (points.length > categories.length) categories = points;
    columns.push(cachedPoints(child(ser, 'val') ?? child(ser, 'yVal')));
  }
  const rows: string[][] = [];
  if (series.length > 0) {
    rows.push(['', ...names]);
    const n = Math.max(categories.length, ...columns.map((c) => c.length));
    for (let i = 0; i < Math.min(n, 1000); i++) rows.push([categories[i] ?? '', ...columns.map((c) => c[i] ?? '')]);
  }
  return { title, axisTitles, rows };
}

/** The text of a SmartArt diagram's data part: one entry per node that holds text, in the data model's order. */
export function readDiagram(zip: SafeZip, part: string): string[] {
  const root = readXml(zip, part);
  const list = root && child(root, 'ptLst');
  if (!list) return [];
  const out: string[] = [];
  for (const pt of elements(list, 'pt')) {
    const type = pt.attrs.type ?? 'node';
    if (type !== 'node') continue;
    const t = child(pt, 't');
    const text = t ? richText(t) : '';
    if (text) out.push(text);
  }
  return out;
}

/** A chart as a reader sees it: its title as a caption, axis titles, and its series by category as a table. */
export function chartBlocks(out: Blocks, zip: SafeZip, part: string): void {
  const chart = readChart(zip, part);
  if (!chart) return;
  writeChart(out, chart);
}
