// Extraction quality over the shared corpus: per format, the share of files
// completed, and the word recall and precision of `content` against an
// independent reference:
//   PDF        poppler's `pdftotext` (same machine, same run)
//   DOCX/PPTX  the raw text runs (<w:t>, <a:t>) of the parts, read with `unzip -p`
//   XLSX       the shared strings and inline cell values, read with `unzip -p`
//   CSV/TSV/Markdown/text  the source text (BOM-aware UTF-8/16/32, else Latin-1)
//   XML        the text nodes, as htmlparser2's XML mode parses the source (not docex's XML reader)
//   HTML       the text nodes outside script, style, template, noscript and head, as htmlparser2 parses the
//              source (docex reads HTML with parse5)
// Formats without a reference report completion only. Words are runs of
// letters and digits, lower-cased, compared as multisets.
//
//   npm run bench:quality [-- corpus-dir]

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { createExtractorPool } from '../lambdas/extract/engine/pool.ts';
import { corpusDir, filesUnder } from './corpus.ts';

const corpus = corpusDir('bench:quality');

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function tally(list: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Multiset overlap: recall over the reference's words, precision over ours. */
function score(ours: string, reference: string): { recall: number; precision: number } | null {
  const ref = tally(words(reference));
  const got = tally(words(ours));
  const refTotal = [...ref.values()].reduce((a, b) => a + b, 0);
  const gotTotal = [...got.values()].reduce((a, b) => a + b, 0);
  if (refTotal === 0) return null;
  let common = 0;
  for (const [w, n] of ref) common += Math.min(n, got.get(w) ?? 0);
  return { recall: common / refTotal, precision: gotTotal === 0 ? 0 : common / gotTotal };
}

function unzipParts(file: string, pattern: RegExp): string[] {
  const list = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n');
  return list.filter((n) => pattern.test(n)).map((n) => execFileSync('unzip', ['-p', file, n], { encoding: 'utf8', maxBuffer: 512 << 20 }));
}

const unescape = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');

/** The text of every `tag` run, runs of one paragraph (`para`) joined as they are, paragraphs apart. */
function runs(xml: string, tag: string, para?: string): string {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, 'g');
  // Breaks and tabs between runs separate words.
  const spaced = xml.replace(/<\w+:(?:br|tab|cr)\b[^>]*\/>/g, `<${tag}> </${tag}>`);
  const paragraphs = para ? spaced.split(`</${para}>`) : [spaced];
  return paragraphs.map((p) => [...p.matchAll(re)].map((m) => unescape(m[1]!)).join(para ? '' : ' ')).join('\n');
}

function sourceText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return new TextDecoder('utf-32le' as string).decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  // UTF-16 without a BOM: every other byte of ASCII text is NUL.
  const sample = bytes.subarray(0, 4096);
  const zerosAt = (parity: number) => sample.filter((b, i) => i % 2 === parity && b === 0).length;
  if (zerosAt(1) > sample.length / 4) return new TextDecoder('utf-16le').decode(bytes);
  if (zerosAt(0) > sample.length / 4) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

function reference(file: string, ext: string): string | null {
  try {
    switch (ext) {
      case 'pdf':
        return execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 512 << 20 });
      case 'docx':
        return unzipParts(file, /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/).map((x) => runs(x, 'w:t', 'w:p')).join(' ');
      case 'pptx':
        return unzipParts(file, /^ppt\/(slides\/slide|notesSlides\/notesSlide)\d+\.xml$/).map((x) => runs(x, 'a:t', 'a:p')).join(' ');
      case 'xlsx': {
        // Every cell as stored: shared strings resolved, numbers as plain numbers (no number formats).
        const sst = unzipParts(file, /^xl\/sharedStrings\.xml$/)
          .flatMap((x) => x.split('</si>'))
          .map((si) => runs(si.replace(/<rPh\b[\s\S]*?<\/rPh>/g, ''), 't'));
        return unzipParts(file, /^xl\/worksheets\/[^/]+\.xml$/)
          .map((x) =>
            [...x.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)]
              .map(([, attrs, body = '']) => {
                const type = /\bt="(\w+)"/.exec(attrs!)?.[1];
                const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
                if (type === 's') return sst[Number(v)] ?? '';
                if (type === 'inlineStr') return runs(body, 't');
                if (v === undefined) return '';
                return type === undefined || type === 'n' ? String(Number(v)) : unescape(v);
              })
              .join(' '),
          )
          .join(' ');
      }
      case 'xml':
        return DomUtils.textContent(parseDocument(sourceText(readFileSync(file)), { xmlMode: true }));
      case 'html': {
        const dom = parseDocument(sourceText(readFileSync(file)));
        for (const hidden of DomUtils.findAll((el) => ['script', 'style', 'template', 'noscript', 'head'].includes(el.name), dom.children)) DomUtils.removeElement(hidden);
        return DomUtils.textContent(dom);
      }
      case 'csv':
      case 'tsv':
      case 'md':
      case 'txt':
        return sourceText(readFileSync(file));
      default:
        return null;
    }
  } catch {
    return null;
  }
}

interface Row {
  files: number;
  empty: number;
  completed: number;
  failures: string[];
  /** Files refused because they are encrypted: the right outcome, not a failure to extract. */
  encrypted: number;
  recall: number[];
  precision: number[];
}

const files = filesUnder(corpus).filter((f) => !/README\.md$/.test(f));
const pool = createExtractorPool({ size: 1, timeoutMs: 120_000, maxMemoryMb: 1024 });
const rows = new Map<string, Row>();
const lowRecall: string[] = [];
const started = Date.now();
for (const file of files) {
  const ext = (/\.([a-z0-9]+)$/i.exec(file)?.[1] ?? '(none)').toLowerCase().replace(/^htm$/, 'html');
  const row = rows.get(ext) ?? { files: 0, empty: 0, completed: 0, encrypted: 0, failures: [], recall: [], precision: [] };
  rows.set(ext, row);
  row.files++;
  const bytes = readFileSync(file);
  if (bytes.length === 0) {
    // The corpus holds some zero-byte placeholders: they fail as empty, correctly, and are not counted as supported files.
    row.empty++;
    continue;
  }
  const name = relative(corpus, file);
  try {
    const result = await pool.extract({ bytes: new Uint8Array(bytes), filename: name.split('/').pop()! });
    row.completed++;
    // A reference is for the format the extension names; a .txt that is an e-mail is not scored against its raw source.
    const sameFormat = !(ext === 'txt' && result.metadata.format !== 'text');
    const ref = sameFormat ? reference(file, ext) : null;
    const s = ref === null ? null : score(result.content, ref);
    if (s) {
      row.recall.push(s.recall);
      row.precision.push(s.precision);
      if (s.recall < 0.9) lowRecall.push(`${name} recall ${s.recall.toFixed(3)} precision ${s.precision.toFixed(3)}`);
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'encrypted_file') row.encrypted++;
    row.failures.push(`${name}: ${(err as Error).message.slice(0, 140)}`);
  }
}
await pool.close();

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const fmt = (x: number) => (Number.isNaN(x) ? '   -  ' : x.toFixed(3).padStart(6));
console.log(`corpus: ${corpus} (${files.length} files, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
console.log('format  files  empty  encrypted  completed  share   recall  precision  (scored)');
let supported = 0;
let done = 0;
for (const [ext, r] of [...rows.entries()].sort()) {
  const nonEmpty = r.files - r.empty - r.encrypted;
  const share = nonEmpty === 0 ? NaN : r.completed / nonEmpty;
  if (r.completed > 0) {
    supported += nonEmpty;
    done += r.completed;
  }
  console.log(
    `${ext.padEnd(7)} ${String(r.files).padStart(5)}  ${String(r.empty).padStart(5)}  ${String(r.encrypted).padStart(9)}  ${String(r.completed).padStart(9)}  ${fmt(share)}  ${fmt(mean(r.recall))}  ${fmt(mean(r.precision))}     ${r.recall.length}`,
  );
}
console.log(`\ncompleted: ${done} of ${supported} non-empty, unencrypted files in formats with any completion (${((100 * done) / Math.max(1, supported)).toFixed(1)}%)`);
console.log('\nfailures:');
for (const r of rows.values()) for (const f of r.failures) console.log(`  ${f}`);
console.log('\nrecall below 0.9:');
for (const l of lowRecall) console.log(`  ${l}`);
