// npm run bench:structure: how well docex's Markdown keeps a document's
// structure, scored as /work/shared/STRUCTURE-METRIC.md says (bench/structure-metric.ts):
// block F1 per kind (heading, paragraph, list item, table cell) and word F1,
// against ground truth taken from each document's SOURCE, never from docex.
//
// Sets (--only SET runs one):
//   gen-pdf         generated documents of known structure (bench/structure/docmodel.ts,
//                   seeded): DOCX written with python-docx in real Word styles, then PDF by
//                   LibreOffice; the truth is written from the model (no running headers,
//                   footers or page numbers: those must stay out of the content)
//   gen-pdf-tagged  the same documents exported as tagged PDF (UseTaggedPDF)
//   gen-pdf-latex   the same models typeset by pdflatex (bench/structure/render-latex.ts):
//                   TeX's hyphenation, fonts and page style, half with hyperref bookmarks;
//                   the models with Hebrew or Arabic text are left out (pdflatex has no RTL)
//   gen-pdf-chromium the same models as web pages printed to PDF by headless Chromium
//                   (bench/structure/render-html.ts): CSS styles, columns and right-to-left
//                   pages, tables ruled three ways, the print engine's running header and footer,
//                   half of them tagged
//   gen-pdf-slides  the gen-pptx decks exported to PDF by LibreOffice Impress, as decks are
//                   shared: slide titles, bulleted placeholders, text boxes, tables, one slide a
//                   page; the truth is the deck's without its speaker notes (not printed)
//   gen-pdf-sheets  the gen-xlsx workbooks printed to PDF by LibreOffice Calc (no grid lines, as
//                   Calc prints by default): tables of figures with empty cells; the truth is the
//                   sheets' tables (sheet names and comments are not printed)
//   gen-pdf-scanned the first English ones of gen-pdf as a scanner gives them back: each page
//                   a grayscale picture (PDFium's rendering at about 200 dpi), no text layer, so
//                   docex reads them by OCR (pdftotext reads nothing)
//   gen-docx        the same DOCX, read by docex directly
//   gen-latex       the LaTeX sources gen-pdf-latex typesets, read by docex as sources (no TeX
//                   needed): sections, lists, tables, bold and italic runs
//   gen-pptx        generated presentations (bench/structure/officemodel.ts, seeded), written
//                   with python-pptx in the default template's layouts: slide titles, bulleted
//                   content placeholders (levels 0-2), text boxes, tables, speaker notes; the
//                   truth is written from the model (officemodel.ts says how each part reads)
//   gen-xlsx        generated workbooks (same file), written with openpyxl: sheets of typed
//                   cells (strings, integers, decimals and dates with number formats) and cell
//                   comments; the truth holds each cell as Excel displays it, from the model
//   corpus-pdf      ../shared/corpus DOCX, ODT and HTML files rendered to PDF by LibreOffice;
//                   the truth is pandoc's reading of the source (bench/structure/pandoc-truth.ts)
//   corpus-docx, corpus-odt, corpus-html   the same sources, read by docex directly
//   external        only with --truth-dir DIR: documents of your own (or another project's
//                   test documents) with truth Markdown written by someone else: every file
//                   under DIR whose truth is found as FILE.md or STEM.md beside it, or in a
//                   `groundtruth` folder beside the folder it is in (the layout docling's
//                   tests/data uses); the set is scored per format too
// For the PDF sets, poppler's plain `pdftotext` is scored beside docex as a peer:
// its text cut into paragraphs at blank lines, for paragraph F1 and word F1.
//
// Extraction is in-process, one file at a time, with the default config and
// output "markdown"; pages/s is pages over the seconds extract() took (three
// untimed warm-up extractions per set first). A failed extraction scores 0.
// Generated and converted files are cached under .bench-cache/structure/, so
// a rerun only extracts. What is missing is installed: LibreOffice, pandoc,
// poppler-utils, TeX Live's recommended LaTeX and fonts with apt-get, python-docx, python-pptx and openpyxl
// with pip into a venv in the cache.
//
//   npm run bench:structure [-- --only SET] [--json FILE] [--show NAME] [--docs N] [--corpus DIR] [--truth-dir DIR]

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { extract } from '../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';
import { generateModels, truthMarkdown } from './structure/docmodel.ts';
import { latexCanTypeset, latexSource } from './structure/render-latex.ts';
import { printJob } from './structure/render-html.ts';
import { chromium } from 'playwright-core';
import { deckTruth, generateDecks, generateWorkbooks, workbookTruth, type DeckModel, type WorkbookModel } from './structure/officemodel.ts';
import { pandocToMarkdown } from './structure/pandoc-truth.ts';
import { benchTools } from './tools.ts';
import { filesUnder } from './corpus.ts';
import { scanOf } from '../test/support/text-image.ts';
import { KINDS, markdownBlocks, plainTextBlocks, scoreBlocks, type Kind, type StructureScore } from './structure-metric.ts';

const ROOT = join(import.meta.dirname, '..');
const SETS = ['gen-pdf', 'gen-pdf-tagged', 'gen-pdf-latex', 'gen-pdf-chromium', 'gen-pdf-slides', 'gen-pdf-sheets', 'gen-pdf-scanned', 'gen-docx', 'gen-latex', 'gen-pptx', 'gen-xlsx', 'corpus-pdf', 'corpus-docx', 'corpus-odt', 'corpus-html', 'external'] as const;
type SetName = (typeof SETS)[number];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'string' },
    show: { type: 'string' },
    docs: { type: 'string', default: '24' },
    corpus: { type: 'string', default: join(ROOT, '..', 'shared', 'corpus') },
    cache: { type: 'string', default: join(ROOT, '.bench-cache', 'structure') },
    'truth-dir': { type: 'string' },
  },
});
if (args.only && !SETS.includes(args.only as SetName)) {
  console.error(`bench:structure: --only takes one of ${SETS.join(', ')}`);
  process.exit(2);
}
const wanted = (s: SetName) => !args.only || args.only === s;
const CACHE = args.cache!;
const log = (s: string) => console.log(`bench:structure: ${s}`);

// ---------------------------------------------------------------- tools

const { have, aptInstall, ensureSoffice, ensurePythonModule, soffice } = benchTools(CACHE, log);
const ensurePandoc = () => have('pandoc') || (aptInstall('pandoc', ['pandoc']) && have('pandoc'));
const ensurePoppler = () => have('pdftotext') || (aptInstall('pdftotext (poppler-utils)', ['poppler-utils']) && have('pdftotext'));
const ensurePythonDocx = () => ensurePythonModule('docx', 'python-docx');

/**
 * How corpus files become PDFs; a change here redoes them. HTML goes through Writer's HTML import: left to
 * itself, LibreOffice opens an HTML fragment (no <html>, no <body>) as Writer/Web and prints an empty page.
 */
const CORPUS_PDF_RECIPE = 'v2: soffice --convert-to pdf; HTML with --infilter=HTML (StarWriter)';
const TAGGED = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}';

// ---------------------------------------------------------------- documents

interface Doc {
  /** Shown in reports and matched by --show. */
  name: string;
  file: string;
  truth: string;
}

const sets = new Map<SetName, Doc[]>();
const skipped: string[] = [];

function generated(): void {
  if (!['gen-pdf', 'gen-pdf-tagged', 'gen-pdf-scanned', 'gen-docx'].some((s) => wanted(s as SetName))) return;
  const dir = join(CACHE, 'gen');
  const models = generateModels(Number(args.docs));
  const renderer = join(import.meta.dirname, 'structure', 'render-docx.py');
  const stamp = createHash('sha256').update(JSON.stringify(models)).update(readFileSync(renderer)).digest('hex').slice(0, 16);
  const stampFile = join(dir, 'stamp');
  const fresh = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (!fresh) {
    const python = ensurePythonDocx();
    if (!python || !ensureSoffice()) {
      log('generated sets skipped.');
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`generating ${models.length} documents in ${relative(ROOT, dir)} (python-docx, then LibreOffice to PDF and tagged PDF)`);
    const jobs = models.map((m) => ({ model: m, out: join(dir, `${m.name}.docx`) }));
    writeFileSync(join(dir, 'jobs.json'), JSON.stringify(jobs));
    execFileSync(python, [renderer, join(dir, 'jobs.json')], { stdio: 'inherit' });
    for (const m of models) writeFileSync(join(dir, `${m.name}.md`), truthMarkdown(m));
    const docx = jobs.map((j) => j.out);
    soffice('pdf', join(dir, 'pdf'), docx, 600_000);
    soffice(TAGGED, join(dir, 'tagged'), docx, 600_000);
    writeFileSync(stampFile, stamp);
  }
  for (const [set, sub, ext] of [
    ['gen-pdf', 'pdf', 'pdf'],
    ['gen-pdf-tagged', 'tagged', 'pdf'],
    ['gen-docx', '.', 'docx'],
  ] as const) {
    const docs: Doc[] = [];
    for (const m of models) {
      const file = join(dir, sub, `${m.name}.${ext}`);
      if (existsSync(file)) docs.push({ name: m.name, file, truth: readFileSync(join(dir, `${m.name}.md`), 'utf8') });
      else skipped.push(`${set} ${m.name}: LibreOffice wrote no ${ext}`);
    }
    sets.set(set, docs);
  }
}

/** Documents in gen-pdf-scanned: OCR reads a page in seconds, so a few are enough to measure by. */
const SCANNED_DOCS = 6;

/** gen-pdf-scanned: the first English generated PDFs with every page turned into a picture (test/support/text-image.ts). */
async function scannedSet(): Promise<void> {
  if (!wanted('gen-pdf-scanned')) return;
  const gen = sets.get('gen-pdf') ?? [];
  const dir = join(CACHE, 'gen-scanned');
  mkdirSync(dir, { recursive: true });
  const docs: Doc[] = [];
  for (const doc of gen.filter((d) => /-en\b/.test(d.name)).slice(0, SCANNED_DOCS)) {
    const file = join(dir, `${doc.name}.pdf`);
    const source = readFileSync(doc.file);
    const stamp = createHash('sha256').update(source).digest('hex').slice(0, 16);
    if (!existsSync(`${file}.stamp`) || readFileSync(`${file}.stamp`, 'utf8') !== stamp) {
      writeFileSync(file, await scanOf(new Uint8Array(source)));
      writeFileSync(`${file}.stamp`, stamp);
    }
    docs.push({ ...doc, file });
  }
  sets.set('gen-pdf-scanned', docs);
}

/** gen-pdf-latex: the generated models typeset by pdflatex (render-latex.ts says how and why). */
function latex(): void {
  if (!wanted('gen-pdf-latex')) return;
  const dir = join(CACHE, 'gen-latex');
  const models = generateModels(Number(args.docs)).filter(latexCanTypeset);
  const writer = join(import.meta.dirname, 'structure', 'render-latex.ts');
  const stamp = createHash('sha256').update(JSON.stringify(models)).update(readFileSync(writer)).digest('hex').slice(0, 16);
  const stampFile = join(dir, 'stamp');
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    if (!have('pdflatex') && !aptInstall('pdflatex (TeX Live)', ['texlive-latex-recommended', 'texlive-fonts-recommended', 'lmodern'])) {
      log('gen-pdf-latex skipped.');
      return;
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`typesetting ${models.length} documents with pdflatex in ${relative(ROOT, dir)}`);
    for (const m of models) {
      writeFileSync(join(dir, `${m.name}.tex`), latexSource(m));
      writeFileSync(join(dir, `${m.name}.md`), truthMarkdown(m));
      // Twice, as LaTeX documents are built: hyperref's bookmarks are written on the second run.
      for (let pass = 0; pass < 2; pass++) {
        spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', `${m.name}.tex`], { cwd: dir, stdio: 'ignore', timeout: 120_000 });
      }
    }
    writeFileSync(stampFile, stamp);
  }
  const docs: Doc[] = [];
  for (const m of models) {
    const file = join(dir, `${m.name}.pdf`);
    if (existsSync(file)) docs.push({ name: m.name, file, truth: readFileSync(join(dir, `${m.name}.md`), 'utf8') });
    else skipped.push(`gen-pdf-latex ${m.name}: pdflatex wrote no PDF (see ${relative(ROOT, join(dir, `${m.name}.log`))})`);
  }
  sets.set('gen-pdf-latex', docs);
}

/** gen-latex: the sources gen-pdf-latex typesets, read as LaTeX: the same truth, without TeX in between. */
function latexSources(): void {
  if (!wanted('gen-latex')) return;
  const dir = join(CACHE, 'gen-latex-source');
  mkdirSync(dir, { recursive: true });
  const docs: Doc[] = generateModels(Number(args.docs))
    .filter(latexCanTypeset)
    .map((m) => {
      const file = join(dir, `${m.name}.tex`);
      writeFileSync(file, latexSource(m));
      return { name: m.name, file, truth: truthMarkdown(m) };
    });
  sets.set('gen-latex', docs);
}

const CHROMIUM = '/usr/bin/chromium';

/** gen-pdf-chromium: the generated models as web pages printed by Chromium (render-html.ts says how and why). */
async function printed(): Promise<void> {
  if (!wanted('gen-pdf-chromium')) return;
  const dir = join(CACHE, 'gen-chromium');
  const models = generateModels(Number(args.docs));
  const writer = join(import.meta.dirname, 'structure', 'render-html.ts');
  const stamp = createHash('sha256').update(JSON.stringify(models)).update(readFileSync(writer)).digest('hex').slice(0, 16);
  const stampFile = join(dir, 'stamp');
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    if (!existsSync(CHROMIUM) && !aptInstall('Chromium', ['chromium'])) {
      log('gen-pdf-chromium skipped.');
      return;
    }
    ensureSoffice(); // the fonts the models name come with it
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`printing ${models.length} documents with Chromium in ${relative(ROOT, dir)}`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    try {
      const page = await browser.newPage();
      for (const m of models) {
        const job = printJob(m);
        const html = join(dir, `${m.name}.html`);
        writeFileSync(html, job.html);
        writeFileSync(join(dir, `${m.name}.md`), truthMarkdown(m));
        await page.goto(`file://${html}`);
        await page.pdf({
          path: join(dir, `${m.name}.pdf`),
          format: job.format,
          margin: job.margin,
          displayHeaderFooter: true,
          // Chromium's own header and footer when no template is given: date, title, address, page n/m.
          ...(job.headerTemplate ? { headerTemplate: job.headerTemplate, footerTemplate: job.footerTemplate! } : {}),
          printBackground: true,
          tagged: job.tagged,
        });
      }
    } finally {
      await browser.close();
    }
    writeFileSync(stampFile, stamp);
  }
  const docs: Doc[] = [];
  for (const m of models) {
    const file = join(dir, `${m.name}.pdf`);
    if (existsSync(file)) docs.push({ name: m.name, file, truth: readFileSync(join(dir, `${m.name}.md`), 'utf8') });
    else skipped.push(`gen-pdf-chromium ${m.name}: Chromium printed no PDF`);
  }
  sets.set('gen-pdf-chromium', docs);
}

/**
 * gen-pptx and gen-xlsx: presentations (python-pptx) and workbooks (openpyxl) from the seeded models of
 * bench/structure/officemodel.ts, read by docex directly; the truth is written from the model.
 */
function office(): void {
  const kinds = [
    { set: 'gen-pptx', ext: 'pptx', module: 'pptx', pkg: 'python-pptx', renderer: 'render-pptx.py', models: () => generateDecks(Number(args.docs)), truth: deckTruth },
    { set: 'gen-xlsx', ext: 'xlsx', module: 'openpyxl', pkg: 'openpyxl', renderer: 'render-xlsx.py', models: () => generateWorkbooks(Number(args.docs)), truth: workbookTruth },
  ] as const;
  for (const k of kinds) {
    // The slides set is made from the decks.
    if (!wanted(k.set) && !(k.set === 'gen-pptx' && wanted('gen-pdf-slides')) && !(k.set === 'gen-xlsx' && wanted('gen-pdf-sheets'))) continue;
    const dir = join(CACHE, k.set);
    const models = k.models() as Array<{ name: string }>;
    const truth = k.truth as (m: unknown) => string;
    const renderer = join(import.meta.dirname, 'structure', k.renderer);
    const stamp = createHash('sha256').update(JSON.stringify(models)).update(readFileSync(renderer)).digest('hex').slice(0, 16);
    const stampFile = join(dir, 'stamp');
    if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
      const python = ensurePythonModule(k.module, k.pkg);
      if (!python) {
        log(`${k.set} skipped.`);
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      log(`generating ${models.length} ${k.ext.toUpperCase()} files in ${relative(ROOT, dir)} (${k.pkg})`);
      const jobs = models.map((m) => ({ model: m, out: join(dir, `${m.name}.${k.ext}`) }));
      writeFileSync(join(dir, 'jobs.json'), JSON.stringify(jobs));
      execFileSync(python, [renderer, join(dir, 'jobs.json')], { stdio: 'inherit' });
      for (const m of models) writeFileSync(join(dir, `${m.name}.md`), truth(m));
      writeFileSync(stampFile, stamp);
    }
    const docs: Doc[] = [];
    for (const m of models) {
      const file = join(dir, `${m.name}.${k.ext}`);
      if (existsSync(file)) docs.push({ name: m.name, file, truth: readFileSync(join(dir, `${m.name}.md`), 'utf8') });
      else skipped.push(`${k.set} ${m.name}: ${k.pkg} wrote no ${k.ext}`);
    }
    if (wanted(k.set)) sets.set(k.set, docs);
  }
  printedOffice();
}

/** gen-pdf-slides and gen-pdf-sheets: the gen-pptx decks and gen-xlsx workbooks as LibreOffice exports them to PDF. */
function printedOffice(): void {
  const kinds = [
    { set: 'gen-pdf-slides', from: 'gen-pptx', ext: 'pptx', app: 'impress', models: () => generateDecks(Number(args.docs)), truth: (m: unknown) => deckTruth(m as DeckModel, { notes: false }) },
    { set: 'gen-pdf-sheets', from: 'gen-xlsx', ext: 'xlsx', app: 'calc', models: () => generateWorkbooks(Number(args.docs)), truth: (m: unknown) => workbookTruth(m as WorkbookModel, { printed: true }) },
  ] as const;
  for (const k of kinds) {
    if (!wanted(k.set)) continue;
    const models = k.models() as Array<{ name: string }>;
    const source = join(CACHE, k.from);
    const dir = join(CACHE, k.set);
    const stamp = existsSync(join(source, 'stamp')) ? readFileSync(join(source, 'stamp'), 'utf8') : '';
    const stampFile = join(dir, 'stamp');
    if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
      const files = models.map((m) => join(source, `${m.name}.${k.ext}`)).filter((f) => existsSync(f));
      if (files.length === 0 || !ensureSoffice([k.app])) {
        log(`${k.set} skipped.`);
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
      log(`exporting ${files.length} ${k.ext.toUpperCase()} files to PDF with LibreOffice in ${relative(ROOT, dir)}`);
      soffice('pdf', dir, files, 600_000);
      for (const m of models) writeFileSync(join(dir, `${m.name}.md`), k.truth(m));
      writeFileSync(stampFile, stamp);
    }
    const docs: Doc[] = [];
    for (const m of models) {
      const file = join(dir, `${m.name}.pdf`);
      if (existsSync(file)) docs.push({ name: m.name, file, truth: readFileSync(join(dir, `${m.name}.md`), 'utf8') });
      else skipped.push(`${k.set} ${m.name}: LibreOffice wrote no PDF`);
    }
    sets.set(k.set, docs);
  }
}

/** An HTML file's text: a BOM, else the charset it declares, else UTF-8, else Windows-1252. */
function decodeHtml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const declared = /<meta[^>]+charset=["']?([\w-]+)/i.exec(bytes.subarray(0, 4096).toString('latin1'))?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // An unknown label: fall through.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function corpus(): void {
  if (!['corpus-pdf', 'corpus-docx', 'corpus-odt', 'corpus-html'].some((s) => wanted(s as SetName))) return;
  const root = args.corpus!;
  if (!existsSync(root)) {
    log(`no corpus at ${root}; corpus sets not measured.`);
    return;
  }
  const sources = filesUnder(root)
    .filter((f) => /\.(docx|odt|html?)$/i.test(f) && statSync(f).size > 0)
    .sort();
  const dir = join(CACHE, 'corpus');
  // The truths are redone when the writer (or pandoc) changes.
  const writer = join(import.meta.dirname, 'structure', 'pandoc-truth.ts');
  const pandocVersion = have('pandoc') ? (spawnSync('pandoc', ['--version'], { encoding: 'utf8' }).stdout ?? '').split('\n')[0]! : '';
  const stamp = createHash('sha256').update(readFileSync(writer)).update(pandocVersion).digest('hex').slice(0, 16);
  const stampFile = join(dir, 'truth', 'stamp');
  if (!existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
    rmSync(join(dir, 'truth'), { recursive: true, force: true });
    mkdirSync(join(dir, 'truth'), { recursive: true });
    writeFileSync(stampFile, stamp);
    // pandoc's failures are tried again too.
    const kept = existsSync(join(dir, 'failures.json')) ? Object.entries(JSON.parse(readFileSync(join(dir, 'failures.json'), 'utf8')) as Record<string, string>).filter(([k]) => !k.endsWith(' truth')) : [];
    writeFileSync(join(dir, 'failures.json'), JSON.stringify(Object.fromEntries(kept), null, 1));
  }
  mkdirSync(join(dir, 'truth'), { recursive: true });
  const pdfStamp = join(dir, 'pdf', 'recipe');
  if (!existsSync(pdfStamp) || readFileSync(pdfStamp, 'utf8') !== CORPUS_PDF_RECIPE) {
    rmSync(join(dir, 'pdf'), { recursive: true, force: true });
    mkdirSync(join(dir, 'pdf'), { recursive: true });
    writeFileSync(pdfStamp, CORPUS_PDF_RECIPE);
    const kept = existsSync(join(dir, 'failures.json')) ? Object.entries(JSON.parse(readFileSync(join(dir, 'failures.json'), 'utf8')) as Record<string, string>).filter(([k]) => !k.endsWith(' pdf')) : [];
    writeFileSync(join(dir, 'failures.json'), JSON.stringify(Object.fromEntries(kept), null, 1));
  }
  // What could not be converted is remembered, so a rerun does not try again.
  const failuresFile = join(dir, 'failures.json');
  const failures: Record<string, string> = existsSync(failuresFile) ? JSON.parse(readFileSync(failuresFile, 'utf8')) : {};
  const key = (src: string) => relative(root, src).replace(/[\\/]/g, '__');
  const docs: Record<'pdf' | 'docx' | 'odt' | 'html', Doc[]> = { pdf: [], docx: [], odt: [], html: [] };
  let pandocOk: boolean | null = null;
  let sofficeOk: boolean | null = null;
  for (const src of sources) {
    const name = relative(root, src);
    const raw = /\.(\w+)$/.exec(src)![1]!.toLowerCase();
    const ext = (raw === 'htm' ? 'html' : raw) as 'docx' | 'odt' | 'html';
    const truthFile = join(dir, 'truth', `${key(src)}.md`);
    const truthFailure = failures[`${name} truth`];
    if (truthFailure) {
      skipped.push(`${name}: ${truthFailure}`);
      continue;
    }
    if (!existsSync(truthFile)) {
      pandocOk ??= ensurePandoc();
      if (!pandocOk) {
        skipped.push(`${name}: no pandoc`);
        continue;
      }
      try {
        const from = ext === 'html' ? 'html' : ext;
        const json =
          ext === 'html'
            ? execFileSync('pandoc', ['-f', from, '-t', 'json'], { input: decodeHtml(readFileSync(src)), encoding: 'utf8', maxBuffer: 1 << 30, timeout: 300_000 })
            : execFileSync('pandoc', ['-f', from, '-t', 'json', src], { encoding: 'utf8', maxBuffer: 1 << 30, timeout: 300_000, stdio: ['ignore', 'pipe', 'pipe'] });
        const md = pandocToMarkdown(JSON.parse(json), { metaTitle: ext !== 'html' });
        if (markdownBlocks(md).length === 0) throw new Error('pandoc found no text');
        writeFileSync(truthFile, md);
      } catch (err) {
        failures[`${name} truth`] = `pandoc cannot convert it (${((err as { stderr?: string }).stderr || (err as Error).message).toString().trim().split('\n')[0]!.slice(0, 120)})`;
        writeFileSync(failuresFile, JSON.stringify(failures, null, 1));
        skipped.push(`${name}: ${failures[`${name} truth`]}`);
        continue;
      }
    }
    const truth = readFileSync(truthFile, 'utf8');
    docs[ext].push({ name, file: src, truth });
    if (!wanted('corpus-pdf')) continue;
    const pdf = join(dir, 'pdf', `${key(src)}.pdf`);
    const pdfFailure = failures[`${name} pdf`];
    if (pdfFailure) {
      skipped.push(`corpus-pdf ${name}: ${pdfFailure}`);
      continue;
    }
    if (!existsSync(pdf)) {
      sofficeOk ??= ensureSoffice();
      if (!sofficeOk) {
        skipped.push(`corpus-pdf ${name}: no LibreOffice`);
        continue;
      }
      // Converted one at a time under a copy named by its key, so names do not collide and one file cannot stall the rest.
      const tmp = join(dir, 'tmp');
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      const copy = join(tmp, `${key(src)}`);
      writeFileSync(copy, readFileSync(src));
      try {
        soffice('pdf', tmp, [copy], 300_000, ext === 'html' ? 'HTML (StarWriter)' : undefined);
      } catch (err) {
        failures[`${name} pdf`] = `LibreOffice cannot convert it (${(err as Error).message.split('\n')[0]!.slice(0, 100)})`;
      }
      const out = copy.replace(/\.\w+$/, '.pdf');
      if (existsSync(out)) writeFileSync(pdf, readFileSync(out));
      else failures[`${name} pdf`] ??= 'LibreOffice wrote no PDF';
      rmSync(tmp, { recursive: true, force: true });
      if (failures[`${name} pdf`]) {
        writeFileSync(failuresFile, JSON.stringify(failures, null, 1));
        skipped.push(`corpus-pdf ${name}: ${failures[`${name} pdf`]}`);
        continue;
      }
    }
    docs.pdf.push({ name, file: pdf, truth });
  }
  sets.set('corpus-pdf', docs.pdf);
  sets.set('corpus-docx', docs.docx);
  sets.set('corpus-odt', docs.odt);
  sets.set('corpus-html', docs.html);
}

/**
 * --truth-dir: every document under the folder whose truth Markdown stands
 * beside it (FILE.md, STEM.md) or in a `groundtruth` folder next to its own.
 */
function external(): void {
  const dir = args['truth-dir'];
  if (!dir || !wanted('external')) return;
  if (!existsSync(dir)) {
    skipped.push(`external: ${dir} does not exist`);
    return;
  }
  const docs: Doc[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const file = join(d, entry);
      if (statSync(file).isDirectory()) {
        if (entry !== 'groundtruth') walk(file);
        continue;
      }
      if (/\.(md|json|txt)$/i.test(entry)) continue;
      const stem = entry.replace(/\.[^.]+$/, '');
      const truth = [join(d, `${entry}.md`), join(d, `${stem}.md`), join(dirname(d), 'groundtruth', `${entry}.md`), join(dirname(d), 'groundtruth', `${stem}.md`)].find((t) => existsSync(t));
      if (truth) docs.push({ name: relative(dir, file), file, truth: readFileSync(truth, 'utf8') });
    }
  };
  walk(dir);
  if (docs.length === 0) skipped.push(`external: no document under ${dir} has truth Markdown beside it`);
  else sets.set('external', docs);
}

// ---------------------------------------------------------------- scoring

interface DocResult {
  name: string;
  pages: number;
  seconds: number;
  error?: string;
  /** The kinds the truth has (a failed extraction counts 0 for each). */
  truthKinds: Kind[];
  score: StructureScore;
  peer?: { seconds: number; paragraphF1: number | null; wordF1: number };
}

interface Figures {
  docs: number;
  failed: number;
  blockF1: number;
  /** Mean over the documents where the kind is in either text; null where it never is. */
  kinds: Record<Kind, number | null>;
  wordF1: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
}

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const ZERO: StructureScore = { blockF1: 0, kinds: {}, wordF1: 0 };

function pdfPages(file: string): number {
  const out = spawnSync('pdfinfo', [file], { encoding: 'utf8' }).stdout ?? '';
  return Number(/^Pages:\s+(\d+)/m.exec(out)?.[1] ?? 0);
}

async function run(file: string) {
  const bytes = new Uint8Array(readFileSync(file));
  const t0 = performance.now();
  const result = await extract({ bytes, filename: basename(file), config: { ...DEFAULT_CONFIG, output: 'markdown' } });
  return { result, seconds: (performance.now() - t0) / 1000 };
}

async function measure(set: SetName, docs: Doc[], peer: boolean): Promise<DocResult[]> {
  const out: DocResult[] = [];
  // Warm-up, untimed: the format's modules load and the JIT compiles the common paths.
  for (const doc of docs.slice(0, 3)) await run(doc.file).catch(() => undefined);
  for (const doc of docs) {
    const truth = markdownBlocks(doc.truth);
    const truthKinds = KINDS.filter((k) => truth.some((b) => b.kind === k));
    const isPdf = doc.file.endsWith('.pdf');
    let r: DocResult;
    try {
      const { result, seconds } = await run(doc.file);
      r = { name: doc.name, pages: isPdf ? pdfPages(doc.file) || result.metadata.pages : result.metadata.pages, seconds, truthKinds, score: scoreBlocks(markdownBlocks(result.content), truth) };
    } catch (err) {
      r = { name: doc.name, pages: isPdf ? pdfPages(doc.file) : 0, seconds: 0, error: (err as Error).message.slice(0, 160), truthKinds, score: ZERO };
    }
    if (peer && isPdf) {
      const t0 = performance.now();
      const text = spawnSync('pdftotext', ['-q', '-enc', 'UTF-8', doc.file, '-'], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout ?? '';
      const seconds = (performance.now() - t0) / 1000;
      const s = scoreBlocks(plainTextBlocks(text), truth);
      const hasParagraphs = truth.some((b) => b.kind === 'paragraph') || text.trim() !== '';
      r.peer = { seconds, paragraphF1: hasParagraphs ? (s.kinds.paragraph?.f1 ?? 0) : null, wordF1: s.wordF1 };
    }
    out.push(r);
    process.stdout.write('.');
  }
  if (docs.length > 0) process.stdout.write(` ${set}\n`);
  return out;
}

function figures(results: DocResult[]): Figures {
  const ok = results.filter((r) => !r.error);
  const kinds = Object.fromEntries(
    KINDS.map((k) => {
      // A failed document counts 0 for every kind its truth has.
      const xs = results.flatMap((r) => (r.score.kinds[k] ? [r.score.kinds[k]!.f1] : r.error && r.truthKinds.includes(k) ? [0] : []));
      return [k, xs.length === 0 ? null : mean(xs)];
    }),
  ) as Record<Kind, number | null>;
  const pages = ok.reduce((a, r) => a + r.pages, 0);
  const seconds = ok.reduce((a, r) => a + r.seconds, 0);
  return {
    docs: results.length,
    failed: results.length - ok.length,
    blockF1: mean(results.map((r) => r.score.blockF1)),
    kinds,
    wordF1: mean(results.map((r) => r.score.wordF1)),
    pages,
    seconds,
    pagesPerSecond: seconds > 0 ? pages / seconds : NaN,
  };
}

// ---------------------------------------------------------------- main

generated();
await scannedSet();
latex();
latexSources();
await printed();
office();
corpus();
external();
const needPeer = [...sets.keys()].some((s) => s.includes('pdf'));
const peerOk = needPeer ? ensurePoppler() : false;

if (args.show) {
  const q = args.show;
  const order = (args.only ? [args.only as SetName] : [...SETS]).filter((s) => sets.has(s));
  for (const set of order) {
    const doc = sets.get(set)!.find((d) => d.name === q || basename(d.name) === q || basename(d.name).replace(/\.\w+$/, '') === q);
    if (!doc) continue;
    const { result } = await run(doc.file);
    const s = scoreBlocks(markdownBlocks(result.content), markdownBlocks(doc.truth));
    const rule = (t: string) => console.log(`\n${'='.repeat(30)} ${t} ${'='.repeat(Math.max(0, 60 - t.length))}`);
    rule(`docex Markdown: ${doc.name} (${set}, ${doc.file})`);
    console.log(result.content);
    rule('truth');
    console.log(doc.truth);
    rule('score');
    console.log(`block F1 ${s.blockF1.toFixed(3)}, word F1 ${s.wordF1.toFixed(3)}`);
    for (const [k, v] of Object.entries(s.kinds)) console.log(`  ${k.padEnd(10)} predicted ${v.predicted}, true ${v.truth}, matched ${v.matched}: P ${v.precision.toFixed(3)} R ${v.recall.toFixed(3)} F1 ${v.f1.toFixed(3)}`);
    process.exit(0);
  }
  console.log(`bench:structure: no document named ${q}${args.only ? ` in ${args.only}` : ''}. Names:`);
  for (const set of order) console.log(`  ${set}: ${sets.get(set)!.map((d) => d.name).join(', ')}`);
  process.exit(1);
}

const report: Record<string, { docex: Figures; pdftotext?: { docs: number; paragraphF1: number; wordF1: number; pages: number; seconds: number; pagesPerSecond: number }; documents: DocResult[] }> = {};
const started = Date.now();
for (const set of SETS) {
  if (!wanted(set) || !sets.has(set)) continue;
  const docs = sets.get(set)!;
  const isPdf = set.includes('pdf');
  // The external set's PDFs get the peer beside them too; its other formats have none.
  const results = await measure(set, docs, (isPdf || set === 'external') && peerOk);
  const entry: (typeof report)[string] = { docex: figures(results), documents: results };
  if ((isPdf || set === 'external') && peerOk && results.some((r) => r.peer)) {
    const seconds = results.reduce((a, r) => a + (r.peer?.seconds ?? 0), 0);
    const pages = results.reduce((a, r) => a + r.pages, 0);
    entry.pdftotext = {
      docs: results.length,
      paragraphF1: mean(results.flatMap((r) => (r.peer?.paragraphF1 == null ? [] : [r.peer.paragraphF1]))),
      wordF1: mean(results.map((r) => r.peer?.wordF1 ?? 0)),
      pages,
      seconds,
      pagesPerSecond: seconds > 0 ? pages / seconds : NaN,
    };
  }
  report[set] = entry;
}

const f = (x: number | null | undefined, w = 7) => (x == null || Number.isNaN(x) ? '-' : x.toFixed(3)).padStart(w);
console.log(`\nstructure: default config, output markdown; ${((Date.now() - started) / 1000).toFixed(0)} s of extraction and scoring\n`);
console.log(`${'set'.padEnd(16)} ${'reader'.padEnd(9)} ${'docs'.padStart(4)} ${'fail'.padStart(4)}  ${'block F1'.padStart(8)} ${'heading'.padStart(7)} ${'paragr.'.padStart(7)} ${'list'.padStart(7)} ${'cell'.padStart(7)}  ${'word F1'.padStart(7)} ${'pages'.padStart(6)} ${'pages/s'.padStart(8)}`);
for (const [set, e] of Object.entries(report)) {
  const d = e.docex;
  console.log(
    `${set.padEnd(16)} ${'docex'.padEnd(9)} ${String(d.docs).padStart(4)} ${String(d.failed).padStart(4)}  ${f(d.blockF1, 8)} ${f(d.kinds.heading)} ${f(d.kinds.paragraph)} ${f(d.kinds.list_item)} ${f(d.kinds.table_cell)}  ${f(d.wordF1)} ${String(d.pages).padStart(6)} ${d.pagesPerSecond.toFixed(1).padStart(8)}`,
  );
  if (e.pdftotext) {
    const p = e.pdftotext;
    console.log(`${''.padEnd(16)} ${'pdftotext'.padEnd(9)} ${String(p.docs).padStart(4)} ${''.padStart(4)}  ${'-'.padStart(8)} ${'-'.padStart(7)} ${f(p.paragraphF1)} ${'-'.padStart(7)} ${'-'.padStart(7)}  ${f(p.wordF1)} ${String(p.pages).padStart(6)} ${p.pagesPerSecond.toFixed(1).padStart(8)}`);
  }
  if (set === 'corpus-pdf' || set === 'external') {
    // The rendered PDFs by the format of their source; the external documents by their own format.
    const formatOf = (name: string) => (/\.(\w+)$/.exec(name)?.[1] ?? '').toLowerCase().replace(/^htm$/, 'html');
    const formats = set === 'corpus-pdf' ? ['docx', 'odt', 'html'] : [...new Set(e.documents.map((r) => formatOf(r.name)))].sort();
    for (const src of formats) {
      const sub = e.documents.filter((r) => formatOf(r.name) === src);
      if (sub.length === 0) continue;
      const g = figures(sub);
      console.log(
        `${`  ${set === 'corpus-pdf' ? 'from ' : ''}${src}`.padEnd(16)} ${'docex'.padEnd(9)} ${String(g.docs).padStart(4)} ${String(g.failed).padStart(4)}  ${f(g.blockF1, 8)} ${f(g.kinds.heading)} ${f(g.kinds.paragraph)} ${f(g.kinds.list_item)} ${f(g.kinds.table_cell)}  ${f(g.wordF1)} ${String(g.pages).padStart(6)} ${g.pagesPerSecond.toFixed(1).padStart(8)}`,
      );
    }
  }
}
console.log('\nblock F1: mean over documents of the mean F1 over the kinds in either text; a kind\'s column: mean over the documents that have it.');
console.log('pages: PDF pages (pdfinfo); for DOCX/ODT/HTML what docex counts (metadata.pages).');
if (report['gen-pptx'] || report['gen-xlsx']) console.log('       for PPTX slides, for XLSX sheets (metadata.pages).');
const failed = Object.entries(report).flatMap(([set, e]) => e.documents.filter((r) => r.error).map((r) => `${set} ${r.name}: ${r.error}`));
if (failed.length > 0) {
  console.log('\nfailed extractions (scored 0):');
  for (const l of failed) console.log(`  ${l}`);
}
if (skipped.length > 0) {
  console.log('\nskipped:');
  for (const l of skipped) console.log(`  ${l}`);
}
const worst = Object.entries(report).flatMap(([set, e]) => e.documents.map((r) => ({ set, r }))).sort((a, b) => a.r.score.blockF1 - b.r.score.blockF1).slice(0, 8);
if (worst.length > 0) {
  console.log('\nlowest block F1 (inspect with --show NAME --only SET):');
  for (const { set, r } of worst) console.log(`  ${r.score.blockF1.toFixed(3)}  ${set} ${r.name}`);
}
if (args.json) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, JSON.stringify({ generated: new Date().toISOString(), corpus: args.corpus, skipped, sets: report }, null, 1));
  console.log(`\nfigures written to ${args.json}`);
}
// The engine may leave handles open (workers, timers); the benchmark is done.
process.exit(0);
