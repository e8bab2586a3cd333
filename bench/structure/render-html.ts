// The generated documents of docmodel.ts as web pages printed to PDF by
// Chromium, the way reports, invoices and saved articles are made from HTML:
// CSS fonts, sizes, margins and spacing from the model's page style, CSS
// columns for two-column models, right-to-left pages with dir="rtl", lists
// with the browser's own markers, tables ruled three ways (a full grid, rules
// between rows, none with shaded rows), bar charts as inline SVG. The running
// header and footer are the print engine's: for half the models Chromium's
// default (the date and the page's title above, its address and "n/m"
// below), for the others the model's header text and footer as templates;
// every other one tagged, as Chrome's own print is (a headless browser
// driven by Playwright or Puppeteer prints untagged by default).
// The truth is the model's (truthMarkdown), as for LibreOffice and TeX.

import type { DocBlock, DocModel, Run } from './docmodel.ts';

export interface PrintJob {
  html: string;
  /** Chromium's templates for the running header and footer; null: its default ones (date, title, address, page n/m). */
  headerTemplate: string | null;
  footerTemplate: string | null;
  format: 'Letter' | 'A4';
  /** Page margins in inches (the header and footer print inside them). */
  margin: { top: string; bottom: string; left: string; right: string };
  /** A tagged PDF (the structure tree Chrome's own print writes; Playwright's and Puppeteer's default is untagged). */
  tagged: boolean;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const runHtml = (r: Run) => (r.bold ? `<b>${escape(r.text)}</b>` : r.italic ? `<i>${escape(r.text)}</i>` : escape(r.text));

/** The model's number (gen-07-en: 7), so the variants take turns over the set. */
const variant = (name: string): number => Number(/\d+/.exec(name)?.[0] ?? 0);

export function printJob(doc: DocModel): PrintJob {
  const v = variant(doc.name);
  const { style } = doc;
  const tables = (['grid', 'rows', 'shaded'] as const)[v % 3]!;
  const defaultFurniture = Math.floor(v / 3) % 2 === 0;
  const [h1, h2, h3] = style.headingSizes;
  const css = `
    html { font-family: '${style.bodyFont}', sans-serif; font-size: ${style.bodySize}pt; }
    body { margin: 0; line-height: ${Math.max(1.1, style.lineSpacing * 1.15).toFixed(2)}; }
    p { margin: 0 0 ${style.spaceAfter}pt 0; text-indent: ${style.firstLineIndent}in; text-align: ${style.justify ? 'justify' : 'start'}; }
    h1, h2, h3, h4 { font-family: '${style.headingFont}', sans-serif; color: #${style.headingColor}; font-weight: ${style.headingBold ? 700 : 400}; margin: 1em 0 0.4em 0; line-height: 1.2; break-after: avoid; }
    h1 { font-size: ${style.titleSize}pt; text-align: center; margin-top: 0; }
    h2 { font-size: ${h1}pt; } h3 { font-size: ${h2}pt; } h4 { font-size: ${h3}pt; }
    ul, ol { margin: 0 0 ${Math.max(4, style.spaceAfter)}pt 0; }
    li { margin: 0 0 2pt 0; }
    p.caption { text-indent: 0; text-align: center; font-size: ${Math.max(8, style.bodySize - 1)}pt; font-style: italic; margin: 4pt 0 ${Math.max(6, style.spaceAfter)}pt 0; }
    table { border-collapse: collapse; margin: 4pt auto ${Math.max(6, style.spaceAfter)}pt auto; break-inside: avoid; }
    th, td { padding: 2pt 7pt; text-align: start; vertical-align: top; }
    th { font-weight: 700; }
    ${tables === 'grid' ? 'th, td { border: 0.75pt solid #444; }' : ''}
    ${tables === 'rows' ? 'th { border-bottom: 1pt solid #000; } td { border-bottom: 0.5pt solid #999; } table { border-top: 1.2pt solid #000; }' : ''}
    ${tables === 'shaded' ? 'tr:nth-child(even) td { background: #e8e8e8; } th { background: #cfd8e3; }' : ''}
    figure { margin: 6pt 0; text-align: center; break-inside: avoid; }
    .columns { column-count: 2; column-gap: 0.3in; }
  `;
  const body: string[] = [];
  let open = false;
  let sections = 0;
  for (const b of doc.blocks) {
    // As the DOCX model does: the body after the title and the first section is set in two columns.
    if (doc.twoColumn && !open && b.type === 'heading' && b.level === 1 && ++sections === 2) {
      body.push('<div class="columns">');
      open = true;
    }
    body.push(block(b));
  }
  if (open) body.push('</div>');
  const lang = doc.language;
  const html = `<!DOCTYPE html><html lang="${lang}"${doc.rtl ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><title>${escape(title(doc))}</title><style>${css}</style></head><body>${body.join('\n')}</body></html>`;
  const m = style.margins;
  const small = `font-size: 8pt; font-family: '${style.bodyFont}', sans-serif; width: 100%; margin: 0 ${m.left}in 0 ${m.right}in; color: #333;${doc.rtl ? ' direction: rtl;' : ''}`;
  const footer = (): string => {
    const page = '<span class="pageNumber"></span>';
    switch (doc.footer) {
      case 'page-of':
        return doc.language === 'en' ? `Page ${page} of <span class="totalPages"></span>` : `${page} / <span class="totalPages"></span>`;
      case 'text-number':
        return `${escape(doc.footerText)} &nbsp;&nbsp; ${page}`;
      default:
        return page;
    }
  };
  return {
    html,
    headerTemplate: defaultFurniture ? null : `<div style="${small} text-align: center;">${doc.header ? escape(doc.header) : ''}</div>`,
    footerTemplate: defaultFurniture ? null : `<div style="${small} text-align: center;">${doc.footer ? footer() : ''}</div>`,
    format: style.pageSize === 'a4' ? 'A4' : 'Letter',
    // Room for the print engine's header and footer.
    margin: { top: `${Math.max(0.6, m.top)}in`, bottom: `${Math.max(0.6, m.bottom)}in`, left: `${m.left}in`, right: `${m.right}in` },
    tagged: v % 2 === 0,
  };
}

const title = (doc: DocModel) => (doc.blocks.find((b) => b.type === 'title') as { text: string } | undefined)?.text ?? doc.name;

function block(b: DocBlock): string {
  switch (b.type) {
    case 'title':
      return `<h1>${escape(b.text)}</h1>`;
    case 'heading':
      return `<h${b.level + 1}>${escape(b.text)}</h${b.level + 1}>`;
    case 'paragraph':
      return `<p>${b.runs.map(runHtml).join('')}</p>`;
    case 'caption':
      return `<p class="caption">${escape(b.text)}</p>`;
    case 'list':
      return list(b.items, b.ordered);
    case 'table': {
      const [head, ...rows] = b.rows;
      return `<table><thead><tr>${head!.map((c) => `<th>${escape(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
    }
    case 'figure': {
      // A bar chart without text, as a chart's plot area is.
      const w = b.bars.length * 18;
      const bars = b.bars.map((h, i) => `<rect x="${i * 18 + 3}" y="${100 - h}" width="12" height="${h}" fill="#4a6fa5"/>`).join('');
      return `<figure><svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="100" viewBox="0 0 ${w} 100">${bars}</svg></figure>`;
    }
  }
}

/** Nested lists from the model's items and their levels: each deeper item opens a list inside the item before it. */
function list(items: { text: string; level: number }[], ordered: boolean): string {
  const tag = ordered ? 'ol' : 'ul';
  let out = `<${tag}>`;
  let depth = 0;
  items.forEach((item, i) => {
    if (i > 0) {
      if (item.level > depth) {
        out += `<${tag}>`.repeat(item.level - depth);
      } else {
        out += '</li>';
        out += `</${tag}></li>`.repeat(depth - item.level);
      }
    }
    depth = item.level;
    out += `<li>${escape(item.text)}`;
  });
  out += '</li>' + `</${tag}></li>`.repeat(depth) + `</${tag}>`;
  return out;
}
