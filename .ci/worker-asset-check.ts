// Runs the deployable assets of the functions that extract (extract-worker,
// chunk-worker), as `cdk synth` left them in cdk.out, the way Lambda runs
// them: each bundle started as the pool's worker
// thread, with only the asset's own files and the runtime's SDK clients to
// resolve from. A PDF, a PNG and a scanned PDF must come back with their text,
// which proves PDFium's WebAssembly and OCR's node_modules ship beside it.
//
//   node --import tsx .ci/worker-asset-check.ts cdk.out

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { makePdf } from '../test/support/pdf-fixture.ts';
import { scannedPdf, textImagePng } from '../test/support/text-image.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const cdkOut = path.resolve(process.argv[2] ?? 'cdk.out');
const template = JSON.parse(fs.readFileSync(path.join(cdkOut, 'Docex.template.json'), 'utf8')) as {
  Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }>;
};
const assets = Object.entries(template.Resources)
  .filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && /ExtractWorker|ChunkWorker/.test(id))
  .map(([id, r]) => ({ id, dir: path.join(cdkOut, `asset.${r.Properties.Code!.S3Key!.replace(/\.zip$/, '')}`) }));
if (assets.length !== 2) throw new Error(`expected the extract-worker and chunk-worker functions in the template, found ${assets.length}`);

const png = await textImagePng('Worker asset check');
const cases = [
  { filename: 'text.pdf', bytes: makePdf({ pages: ['Text layer one', 'Text layer two'] }), content: 'Text layer one\n\nText layer two', ocr: [] },
  { filename: 'scan.png', bytes: png, content: 'Worker asset check', ocr: [1] },
  { filename: 'scan.pdf', bytes: scannedPdf(png), content: 'Worker asset check', ocr: [1] },
];
let failures = 0;
for (const asset of assets) {
  console.log(asset.id);
  failures += await check(asset.dir);
}
if (failures > 0) process.exit(1);

async function check(asset: string): Promise<number> {
  // A copy outside the repository, so nothing resolves from the project's node_modules but the
  // SDK clients the Lambda runtime provides (linked beside it, as /var/runtime/node_modules is).
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-asset-'));
  fs.cpSync(asset, path.join(sandbox, 'asset'), { recursive: true });
  fs.mkdirSync(path.join(sandbox, 'node_modules'));
  for (const pkg of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (['@aws-sdk', '@smithy', '@aws-crypto', 'tslib', 'bowser', 'fast-xml-parser', 'strnum', 'uuid'].includes(pkg)) {
      fs.symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(sandbox, 'node_modules', pkg));
    }
  }
  const thread = new Worker(path.join(sandbox, 'asset', 'index.mjs'), { workerData: { docexExtractWorker: true }, env: { ...process.env, AWS_REGION: 'us-east-1' } });
  let failed = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      thread.once('error', reject);
      thread.once('message', (m: { type: string }) => (m.type === 'ready' ? resolve() : reject(new Error(`unexpected ${m.type}`))));
    });
    for (const [id, c] of cases.entries()) {
      thread.postMessage({ op: 'extract', id, bytes: c.bytes.slice(), filename: c.filename, contentType: null, config: null });
      const reply = await new Promise<{ type: string; result?: { content: string; metadata: { ocr_pages: number[] } }; message?: string }>((resolve) => thread.once('message', resolve));
      const ok = reply.type === 'done' && reply.result!.content === c.content && JSON.stringify(reply.result!.metadata.ocr_pages) === JSON.stringify(c.ocr);
      if (!ok) failed++;
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${c.filename}: ${reply.type === 'done' ? JSON.stringify(reply.result!.content) : reply.message}`);
    }
  } finally {
    await thread.terminate();
    fs.rmSync(sandbox, { recursive: true, force: true });
  }
  return failed;
}
