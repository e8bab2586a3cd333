// Ground truth for a real document: pandoc reads the source (DOCX, ODT, HTML)
// into its AST (`pandoc -t json`), and this writes the AST as the plain
// Markdown the structure metric reads: headings as `#` lines, each paragraph
// on one line, each list item on one line (nested ones indented), tables as
// pipe tables with every cell flattened to one line, code as fenced blocks.
// Reduced: images, raw HTML/TeX and rules are dropped; footnotes go at the
// end as paragraphs; for DOCX/ODT the title (and subtitle, authors, date,
// abstract) that pandoc moves to the metadata are put back at the top, as
// they are text of the body; HTML's <title> is not, so it stays out.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface TruthOptions {
  /** Put the metadata's title, subtitle, authors, date and abstract back at the top (DOCX, ODT). */
  metaTitle: boolean;
}

/**
 * A paragraph's text that the metric would read as a heading, list item or table row gets the escape pandoc's gfm
 * writer gives it. A typed bullet (•) is not Markdown, so it is not escaped: a paragraph typed as "• item" is a list item.
 */
function escapeLead(text: string): string {
  const n = /^(\d{1,9})([.)])/.exec(text);
  if (n) return `${n[1]}\\${text.slice(n[1]!.length)}`;
  if (/^[#\-*+|]/.test(text)) return `\\${text}`;
  return text;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function pandocToMarkdown(ast: Json, options: TruthOptions): string {
  const chunks: string[] = [];
  const notes: Json[][] = [];

  const inlines = (xs: Json[] | undefined): string => (xs ?? []).map(inline).join('');
  function inline(x: Json): string {
    switch (x.t) {
      case 'Str':
        return x.c;
      case 'Space':
      case 'SoftBreak':
      case 'LineBreak':
        return ' ';
      case 'Emph':
      case 'Strong':
      case 'Underline':
      case 'Strikeout':
      case 'Superscript':
      case 'Subscript':
      case 'SmallCaps':
        return inlines(x.c);
      case 'Quoted':
        return x.c[0].t === 'DoubleQuote' ? `“${inlines(x.c[1])}”` : `‘${inlines(x.c[1])}’`;
      case 'Cite':
        return inlines(x.c[1]);
      case 'Code':
        return x.c[1];
      case 'Math':
        return x.c[1];
      case 'Link':
        return inlines(x.c[1]);
      case 'Span':
        return inlines(x.c[1]);
      case 'Note':
        notes.push(x.c);
        return '';
      case 'Image':
      case 'RawInline':
      default:
        return '';
    }
  }

  const paragraph = (text: string) => {
    const t = oneLine(text);
    if (t !== '') chunks.push(escapeLead(t));
  };

  /** A cell, a caption: every block's text on one line. */
  function flatText(bs: Json[]): string {
    const parts: string[] = [];
    const walk = (b: Json) => {
      switch (b.t) {
        case 'Plain':
        case 'Para':
        case 'Header':
          parts.push(inlines(b.t === 'Header' ? b.c[2] : b.c));
          break;
        case 'LineBlock':
          for (const l of b.c) parts.push(inlines(l));
          break;
        case 'CodeBlock':
          parts.push(b.c[1]);
          break;
        case 'BlockQuote':
          b.c.forEach(walk);
          break;
        case 'Div':
          b.c[1].forEach(walk);
          break;
        case 'BulletList':
          for (const item of b.c) item.forEach(walk);
          break;
        case 'OrderedList':
          for (const item of b.c[1]) item.forEach(walk);
          break;
        case 'DefinitionList':
          for (const [term, defs] of b.c) {
            parts.push(inlines(term));
            for (const d of defs) d.forEach(walk);
          }
          break;
        case 'Table':
          for (const row of tableRows(b)) for (const c of row) parts.push(c);
          break;
        case 'Figure':
          b.c[2].forEach(walk);
          break;
      }
    };
    bs.forEach(walk);
    return oneLine(parts.join(' '));
  }

  /** The rows of a table (head, bodies, foot), each cell flattened; a spanned cell is followed by empty ones. */
  function tableRows(b: Json): string[][] {
    const [, , , head, bodies, foot] = b.c;
    const rows: Json[] = [...head[1]];
    for (const body of bodies) rows.push(...body[2], ...body[3]);
    rows.push(...foot[1]);
    return rows.map((row: Json) =>
      row[1].flatMap((cell: Json) => {
        const [, , , colspan, blocks] = cell;
        return [flatText(blocks), ...Array.from({ length: Math.max(0, colspan - 1) }, () => '')];
      }),
    );
  }

  function list(items: Json[][], ordered: boolean, depth: number) {
    for (let item of items) {
      // An item whose text pandoc wrapped (an indented paragraph is a BlockQuote, a styled one a Div) is still an item.
      while (item[0] && (item[0].t === 'BlockQuote' || item[0].t === 'Div')) item = [...(item[0].t === 'Div' ? item[0].c[1] : item[0].c), ...item.slice(1)];
      const [first, ...rest] = item;
      const marker = `${'  '.repeat(depth)}${ordered ? '1.' : '-'} `;
      if (first && (first.t === 'Plain' || first.t === 'Para')) {
        const t = oneLine(inlines(first.c));
        if (t !== '') chunks.push(marker + t);
      } else if (first) rest.unshift(first);
      for (const b of rest) {
        if (b.t === 'BulletList') list(b.c, false, depth + 1);
        else if (b.t === 'OrderedList') list(b.c[1], true, depth + 1);
        else block(b);
      }
    }
  }

  function block(b: Json) {
    switch (b.t) {
      case 'Plain':
      case 'Para':
        paragraph(inlines(b.c));
        break;
      case 'LineBlock':
        paragraph(b.c.map(inlines).join(' '));
        break;
      case 'CodeBlock': {
        const code = String(b.c[1]).replace(/\n+$/, '');
        if (code.trim() !== '') chunks.push(['```', code.replace(/^```/gm, ' ```'), '```'].join('\n'));
        break;
      }
      case 'Header': {
        const t = oneLine(inlines(b.c[2]));
        if (t !== '') chunks.push(`${'#'.repeat(Math.min(6, b.c[0]))} ${t}`);
        break;
      }
      case 'BlockQuote':
        b.c.forEach(block);
        break;
      case 'Div':
        b.c[1].forEach(block);
        break;
      case 'BulletList':
        list(b.c, false, 0);
        break;
      case 'OrderedList':
        list(b.c[1], true, 0);
        break;
      case 'DefinitionList':
        for (const [term, defs] of b.c) {
          paragraph(inlines(term));
          for (const d of defs) d.forEach(block);
        }
        break;
      case 'Table': {
        const caption = b.c[1]?.[1] ?? [];
        if (caption.length > 0) paragraph(flatText(caption));
        const rows = tableRows(b).filter((r) => r.some((c) => c !== ''));
        if (rows.length === 0) break;
        const width = Math.max(...rows.map((r) => r.length));
        const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => (r[i] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`;
        chunks.push([line(rows[0]!), line(Array.from({ length: width }, () => '---')), ...rows.slice(1).map(line)].join('\n'));
        break;
      }
      case 'Figure':
        b.c[2].forEach(block);
        if ((b.c[1]?.[1] ?? []).length > 0) paragraph(flatText(b.c[1][1]));
        break;
      // RawBlock, HorizontalRule, Null: no text.
    }
  }

  if (options.metaTitle) {
    const meta = ast.meta ?? {};
    const metaText = (v: Json): string => {
      if (!v) return '';
      switch (v.t) {
        case 'MetaInlines':
          return inlines(v.c);
        case 'MetaString':
          return v.c;
        case 'MetaList':
          return v.c.map(metaText).join(' ');
        case 'MetaBlocks':
          return flatText(v.c);
        default:
          return '';
      }
    };
    const title = oneLine(metaText(meta.title));
    if (title) chunks.push(`# ${title}`);
    if (meta.subtitle) paragraph(metaText(meta.subtitle));
    if (meta.author) for (const a of meta.author.t === 'MetaList' ? meta.author.c : [meta.author]) paragraph(metaText(a));
    if (meta.date) paragraph(metaText(meta.date));
    if (meta.abstract) {
      if (meta.abstract.t === 'MetaBlocks') meta.abstract.c.forEach(block);
      else paragraph(metaText(meta.abstract));
    }
  }
  for (const b of ast.blocks ?? []) block(b);
  for (let i = 0; i < notes.length; i++) notes[i]!.forEach(block);
  return chunks.join('\n\n') + '\n';
}
