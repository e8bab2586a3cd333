// npm run bench:memory: how much memory extracting a whole document takes
// per megabyte of it, format by format, and so the largest document of each
// format the extraction worker's memory holds: the upload limits in the
// format descriptors (engine/format.ts maxBytes) come from these figures.
//
// Only the formats read whole are measured. PDF, CSV, TSV, plain text and
// Markdown over 10 MB are split into chunks read one by one (bench:large
// measures them); an image's cost is its pixels, not its bytes (OCR limits
// those).
//
// Documents are made by real tools at two sizes: python-docx, openpyxl and
// python-pptx write DOCX, XLSX and PPTX; LibreOffice converts those to ODT,
// RTF, DOC, EPUB and HTML, ODS and XLS, and PPT; Python's email and zipfile
// modules write an EML and a ZIP of them. No tool here writes Outlook MSG
// files: that one is written by the tests' own writer (test/support). Each is extracted in a fresh
// process through the extractor pool the worker uses, at the worker's
// memory setting (lib/wiring.ts), with the default config; the figure is the
// process's peak RSS. A line through the two sizes (RSS = base + slope *
// size) gives the read limit (format.ts ReadLimit): what 80% of the worker's
// memory holds, at most the upload limit. The size is the file's for flat
// files and, for ZIP packages, what their parts inflate to (pictures stay
// packed, so a package's file size says little of its cost).
//
//   npm run bench:memory [-- --only FORMAT]   (cached under .bench-cache/memory)

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { functions } from '../lib/wiring.ts';
import { limits } from '../lambdas/core/limits.ts';
import { descriptorOf, type Format } from '../lambdas/extract/engine/registry.ts';
import { isZip, SafeZip } from '../lambdas/extract/containers/zip.ts';
import { makeMsg } from '../test/support/msg-fixture.ts';
import { extractFresh } from './fresh-extraction.ts';
import { benchTools } from './tools.ts';

const ROOT = join(import.meta.dirname, '..');
const CACHE = join(ROOT, '.bench-cache', 'memory');
const MB = 1e6;
const WORKER_MB = functions['extract-worker'].memoryMb;
/** Of the worker's memory, what the limits leave unused: the measured documents are regular, real ones are not. */
const USABLE = 0.8;

const { values: args } = parseArgs({ options: { only: { type: 'string' } } });
const log = (s: string) => console.log(`bench:memory: ${s}`);
const tools = benchTools(CACHE, log);
mkdirSync(CACHE, { recursive: true });

// Two sizes per family: the larger about eight times the smaller.
const SCALES = { small: 1, large: 8 } as const;
type Scale = keyof typeof SCALES;

const PYTHON_WRITERS = `
import random, string, sys, datetime, zipfile
from email.message import EmailMessage
random.seed(11)
words = [''.join(random.choice(string.ascii_lowercase) for _ in range(random.randint(2, 11))) for _ in range(8000)]
def sentence(n=30): return ' '.join(random.choice(words) for _ in range(n)).capitalize() + '.'
kind, scale, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if kind == 'docx':
    from docx import Document
    d = Document()
    for i in range(5000 * scale):
        if i % 25 == 0: d.add_heading(sentence(6), level=1 + (i // 25) % 2)
        if i % 100 == 50:
            t = d.add_table(rows=5, cols=4)
            for row in t.rows:
                for cell in row.cells: cell.text = sentence(3)
        d.add_paragraph(sentence(), style='List Bullet' if i % 10 == 3 else None)
    d.save(out)
elif kind == 'xlsx':
    from openpyxl import Workbook
    wb = Workbook(write_only=True)
    for s in range(2):
        ws = wb.create_sheet('Sheet%d' % (s + 1))
        ws.append(['id', 'amount', 'date', 'name', 'note'])
        for i in range(12500 * scale):
            ws.append([i, round(random.random() * 10000, 2), datetime.date(2020, 1, 1) + datetime.timedelta(days=i % 2000), random.choice(words), sentence(4)])
    wb.save(out)
elif kind == 'pptx':
    from pptx import Presentation
    p = Presentation()
    for i in range(400 * scale):
        s = p.slides.add_slide(p.slide_layouts[1])
        s.shapes.title.text = sentence(5)
        s.placeholders[1].text = '\\n'.join(sentence(12) for _ in range(6))
        s.notes_slide.notes_text_frame.text = sentence(20)
    p.save(out)
elif kind == 'eml':
    m = EmailMessage()
    m['From'] = 'a@example.com'; m['To'] = 'b@example.com'; m['Subject'] = sentence(5)
    paragraphs = [sentence() for _ in range(5000 * scale)]
    m.set_content('\\n\\n'.join(paragraphs))
    m.add_alternative('<html><body>' + ''.join('<p>%s</p>' % p for p in paragraphs) + '</body></html>', subtype='html')
    m.add_attachment(open(sys.argv[4], 'rb').read(), maintype='application', subtype='vnd.openxmlformats-officedocument.wordprocessingml.document', filename='attached.docx')
    open(out, 'wb').write(bytes(m))
elif kind == 'zip':
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        for member in sys.argv[4:]: z.write(member, member.split('/')[-1])
`;

interface Sample {
  format: Format;
  scale: Scale;
  file: string;
}

/** The documents of one scale, made (or found in the cache) by the tools above. */
function make(scale: Scale): Sample[] {
  const dir = join(CACHE, scale);
  mkdirSync(dir, { recursive: true });
  const script = join(CACHE, 'writers.py');
  writeFileSync(script, PYTHON_WRITERS);
  const out: Sample[] = [];
  const add = (format: Format, file: string) => existsSync(file) && out.push({ format, scale, file });
  const python = (module: string, pkg: string) => tools.ensurePythonModule(module, pkg);
  const write = (py: string | null, kind: string, file: string, ...extra: string[]) => {
    if (py && !existsSync(file)) {
      log(`writing ${scale} ${kind}`);
      execFileSync(py, [script, kind, String(SCALES[scale]), file, ...extra], { stdio: 'inherit' });
    }
  };
  const docx = join(dir, 'doc.docx');
  const xlsx = join(dir, 'book.xlsx');
  const pptx = join(dir, 'deck.pptx');
  write(python('docx', 'python-docx'), 'docx', docx);
  write(python('openpyxl', 'openpyxl'), 'xlsx', xlsx);
  write(python('pptx', 'python-pptx'), 'pptx', pptx);
  add('docx', docx);
  add('xlsx', xlsx);
  add('pptx', pptx);
  const convert = (from: string, to: string, as: string, format: Format, app?: 'calc' | 'impress') => {
    const target = join(dir, from.split('/').pop()!.replace(/\.\w+$/, `.${to}`));
    if (existsSync(from) && !existsSync(target) && tools.ensureSoffice(app ? [app] : [])) {
      log(`converting ${scale} ${from.split('.').pop()} to ${to} with LibreOffice`);
      tools.soffice(as, dir, [from], 1_800_000);
    }
    add(format, target);
  };
  convert(docx, 'odt', 'odt', 'odt');
  convert(docx, 'rtf', 'rtf', 'rtf');
  convert(docx, 'doc', 'doc:MS Word 97', 'doc');
  convert(docx, 'epub', 'epub', 'epub');
  convert(docx, 'html', 'html:HTML (StarWriter)', 'html');
  convert(xlsx, 'ods', 'ods', 'ods', 'calc');
  convert(xlsx, 'xls', 'xls:MS Excel 97', 'xls', 'calc');
  convert(pptx, 'ppt', 'ppt:MS PowerPoint 97', 'ppt', 'impress');
  const eml = join(dir, 'mail.eml');
  if (existsSync(docx)) write('python3', 'eml', eml, docx);
  add('eml', eml);
  const msg = join(dir, 'mail.msg');
  // Small only: the writer stops at 109 FAT sectors (about 7 MB); the line then goes through the idle process.
  if (scale === 'small' && existsSync(docx) && !existsSync(msg)) {
    log(`writing ${scale} msg`);
    const paragraphs = prose(5000 * SCALES[scale]);
    writeFileSync(msg, makeMsg({ subject: 'Large message', body: paragraphs.join('\n\n'), html: `<html><body>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`, attachments: [{ name: 'attached.docx', data: new Uint8Array(readFileSync(docx)) }] }));
  }
  add('msg', msg);
  const zip = join(dir, 'bundle.zip');
  const members = [docx, xlsx, pptx].filter(existsSync);
  if (members.length > 0) write('python3', 'zip', zip, ...members);
  add('zip', zip);
  return out;
}

/** `n` sentences of made-up words, the same on every run. */
function prose(n: number): string[] {
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = Array.from({ length: 8000 }, () => Array.from({ length: 2 + Math.floor(next() * 10) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join(''));
  return Array.from({ length: n }, () => `${Array.from({ length: 30 }, () => words[Math.floor(next() * words.length)]).join(' ')}.`);
}

function measure(file: string): { seconds: number; peakMb: number; error: string } {
  const { seconds, peakRssMb, error } = extractFresh(file, { memoryMb: WORKER_MB, timeoutMs: 900_000, config: { ocr: 'never' } });
  return { seconds, peakMb: peakRssMb, error };
}

const samples = [...make('small'), ...make('large')].filter((s) => !args.only || s.format === args.only);
const idleFile = join(CACHE, 'idle.txt');
writeFileSync(idleFile, 'one line\n');
const idle = measure(idleFile);
log(`a fresh process with the pool and a one-line document: ${idle.peakMb} MB peak RSS; the worker's memory: ${WORKER_MB} MB`);

/**
 * The bytes a format's read limit counts: a ZIP package's inflated members (a
 * package inside it counted as it inflates in turn, as the reader's shared
 * budget counts it), any other file's own.
 */
function readBytes(bytes: Uint8Array): number {
  if (!isZip(bytes)) return bytes.byteLength;
  const zip = new SafeZip(bytes, { remaining: Number.POSITIVE_INFINITY });
  let total = 0;
  for (const entry of zip.entries) {
    if (entry.isDirectory || /\.(png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|bin|wdp)$/i.test(entry.name)) continue;
    // As declared: these packages are written by the tools above, and a member may be past the reader's per-member cap.
    total += entry.declaredSize;
    if (/\.(zip|docx|xlsx|pptx|odt|ods|epub)$/i.test(entry.name)) total += readBytes(zip.readEntry(entry));
  }
  return total;
}

const formats = [...new Set(samples.map((s) => s.format))];
console.log('\nformat   read MB (small / large)   peak RSS MB        s (large)   MB of RSS per MB read   read limit MB   registry');
for (const format of formats) {
  const pair = (['small', 'large'] as const).map((scale) => samples.find((s) => s.format === format && s.scale === scale)).filter((s) => s !== undefined);
  const sizes = pair.map((s) => readBytes(new Uint8Array(readFileSync(s.file))) / MB);
  const runs = pair.map((s) => measure(s.file));
  // A size that fails (past the ZIP member cap, say) says nothing of memory: the line goes through the idle process instead.
  const points = runs.map((r, i) => ({ size: sizes[i]!, peak: r.peakMb, error: r.error })).filter((p) => !p.error);
  if (points.length === 0) {
    console.log(`${format.padEnd(8)} failed at every size: ${runs[0]?.error.slice(0, 100)}`);
    continue;
  }
  const [a, b] = points.length >= 2 ? points : [{ size: 0, peak: idle.peakMb }, points[0]!];
  const slope = (b!.peak - a!.peak) / (b!.size - a!.size);
  const base = a!.peak - slope * a!.size;
  const limit = slope > 0 ? Math.min(limits.uploadBytes / MB, Math.floor((USABLE * WORKER_MB - base) / slope)) : limits.uploadBytes / MB;
  const registry = descriptorOf(format).readLimit?.bytes;
  console.log(
    [
      format.padEnd(8),
      sizes.map((s) => s.toFixed(1)).join(' / ').padStart(20),
      runs.map((r) => String(r.peakMb)).join(' / ').padStart(20),
      runs.at(-1)!.seconds.toFixed(1).padStart(12),
      slope.toFixed(1).padStart(23),
      String(limit).padStart(15),
      (registry === undefined ? '-' : String(Math.round(registry / MB))).padStart(10),
      runs.some((r) => r.error) ? `  failed: ${runs.find((r) => r.error)!.error.slice(0, 100)}` : '',
    ].join(''),
  );
}
console.log(`\nread limit: (${USABLE} x ${WORKER_MB} MB - base) / slope, at most the ${limits.uploadBytes / MB} MB upload limit; registry: the descriptor's readLimit.`);
