// HTML: a web page's visible text as blocks (containers/html.ts reads the
// markup) and its title, author, description, keywords and language.

import { decodeHtml, htmlInto } from '../../containers/html.ts';
import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import type { FormatOutput } from '../../engine/types.ts';

export function extractHtml(bytes: Uint8Array, mode: OutputMode): FormatOutput {
  const { text, encoding } = decodeHtml(bytes);
  const out = new Blocks(mode);
  const meta = htmlInto(out, text);
  return out.output({
    title: meta.title,
    author: meta.author,
    subject: meta.description,
    keywords: meta.keywords,
    encoding,
    ...(meta.language ? { language: meta.language } : {}),
  });
}
