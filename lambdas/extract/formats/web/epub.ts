// EPUB: the chapters in spine order (each a section), with the package's
// Dublin Core metadata. Chapters are XHTML, read with the HTML reader, which
// neither resolves DTDs nor fetches anything.

import { posix } from 'node:path';
import { Blocks, type OutputMode } from '../../engine/blocks.ts';
import { htmlInto } from '../../containers/html.ts';
import { isoDate } from '../../engine/iso-date.ts';
import { child, descendants, elements, readXml, textContent } from '../../containers/xml.ts';
import { isDamage, lossMetadata, missingPart, SafeZip, type InflateBudget } from '../../containers/zip.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';

export function extractEpub(bytes: Uint8Array, mode: OutputMode, budget?: InflateBudget): FormatOutput {
  const zip = new SafeZip(bytes, budget);
  const container = readXml(zip, 'META-INF/container.xml');
  const opfPath = container && descendants(container, 'rootfile')[0]?.attrs['full-path'];
  const opf = opfPath ? readXml(zip, opfPath) : null;
  if (!opf || !opfPath) {
    if (zip.damage) return survivingChapters(zip, mode);
    throw new ExtractionError('corrupt_file', 'The EPUB could not be read: its package document (OPF) is missing.');
  }
  const dir = posix.dirname(opfPath);
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of elements(child(opf, 'manifest') ?? opf, 'item')) {
    const href = decodeURIComponent(item.attrs.href ?? '');
    manifest.set(item.attrs.id ?? '', { href: posix.normalize(posix.join(dir, href)), type: item.attrs['media-type'] ?? '' });
  }
  const spine = elements(child(opf, 'spine') ?? opf, 'itemref').flatMap((ref) => {
    const item = manifest.get(ref.attrs.idref ?? '');
    return item && /html|xml/.test(item.type) ? [item.href] : [];
  });
  // A package document cut short before its spine names no chapter: the book is read as one without it.
  if (spine.length === 0 && zip.damage) return survivingChapters(zip, mode);
  const out = new Blocks(mode);
  for (const href of spine) {
    const html = chapterText(zip, href);
    if (html === null) continue;
    out.section();
    htmlInto(out, html, { xhtml: true });
  }
  const metadata = child(opf, 'metadata');
  const dc = (name: string) => {
    const values = metadata ? elements(metadata, name).map((e) => textContent(e).trim()).filter(Boolean) : [];
    return values.length > 0 ? values.join(', ') : null;
  };
  const language = dc('language');
  return out.output({
    title: dc('title'),
    author: dc('creator'),
    subject: dc('description') ?? dc('subject'),
    creator: dc('publisher'),
    created_at: isoDate(dc('date')),
    ...lossMetadata(zip),
    ...(language ? { language: language.split(/[-,]/)[0]!.trim().toLowerCase() } : {}),
  });
}

/**
 * A book cut short before its package document's spine (some tools write the
 * package document last) keeps the chapters stored ahead of it: read in the
 * archive's order, which is the order writers store a book's spine in.
 */
function survivingChapters(zip: SafeZip, mode: OutputMode): FormatOutput {
  const chapters = zip.names().filter((n) => /\.x?html?$/i.test(n));
  if (chapters.length === 0) throw missingPart(zip, 'EPUB', 'its package document (OPF)');
  const out = new Blocks(mode);
  for (const name of chapters) {
    out.section();
    htmlInto(out, chapterText(zip, name) ?? '', { xhtml: true });
  }
  return out.output(lossMetadata(zip));
}

/** A chapter's markup; null where the book has no such part, or where its data does not inflate (left out and noted in the book's losses: the other chapters are still read). */
function chapterText(zip: SafeZip, name: string): string | null {
  try {
    return zip.readText(name);
  } catch (err) {
    if (!isDamage(err)) throw err;
    zip.lose(name, err.message);
    return null;
  }
}
