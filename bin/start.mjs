// npm start: compiles the local server once with esbuild, then runs it.
//
// Plain JavaScript so that it runs without a TypeScript loader. Under
// `node --import tsx` every extraction and page-counting worker thread would
// register tsx again, each with a loader thread of its own, and compile the
// sources it imports as it meets them: about 100 MB more memory on an idle
// server (four workers) and slower first documents. Compiled, the server and
// its workers are plain modules. Only our own code is bundled; packages stay
// imports, resolved from node_modules as before, so the bundles live under
// node_modules/.cache, inside the project.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'docex-start');

const output = await build({
  absWorkingDir: ROOT,
  entryPoints: { local: 'bin/local.ts', worker: 'lambdas/extract/engine/worker-entry.ts' },
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // esbuild rewrites a regular expression with `\p{...}` into `new RegExp(...)` for any Node target, built anew at
  // each call (lambdas/extract/engine/letters.ts); Node has had Unicode property escapes since 10.
  supported: { 'regexp-unicode-property-escapes': true },
  outdir: 'out',
  write: false,
  sourcemap: 'linked',
  // How bin/local.ts knows it runs compiled and where its workers' module is.
  define: { 'process.env.DOCEX_COMPILED_WORKER': JSON.stringify('./worker.mjs') },
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
});

// One folder per distinct build, named by its content: servers started at once
// (the e2e tests) never write into a folder another is running from.
const hash = createHash('sha256');
for (const file of output.outputFiles) hash.update(path.basename(file.path)).update(file.contents);
const name = hash.digest('hex').slice(0, 16);
const dir = path.join(CACHE, name);
if (!fs.existsSync(dir)) {
  fs.mkdirSync(CACHE, { recursive: true });
  const staging = fs.mkdtempSync(path.join(CACHE, 'staging-'));
  for (const file of output.outputFiles) fs.writeFileSync(path.join(staging, path.basename(file.path)), file.contents);
  try {
    fs.renameSync(staging, dir);
  } catch (error) {
    // Another server built the same folder first.
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw error;
  }
}
// Marked as used now, so that pruning by another server's start spares it.
const now = new Date();
fs.utimesSync(dir, now, now);
pruneOldBuilds(name);

await import(pathToFileURL(path.join(dir, 'local.mjs')).href);

/** Builds of earlier sources, a day unused: a running server may still be using a younger one. */
function pruneOldBuilds(current) {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of fs.readdirSync(CACHE)) {
    if (entry === current) continue;
    const full = path.join(CACHE, entry);
    try {
      if (fs.statSync(full).mtimeMs < dayAgo) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Removed by another server's pruning meanwhile.
    }
  }
}
