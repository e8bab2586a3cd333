import fs from 'node:fs'; import path from 'node:path'; import { createHash } from 'node:crypto';
import { extract } from '../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';
const re = new RegExp(process.argv[2]!, 'i');
const root = '/work/shared/corpus';
const files: string[] = [];
const walk = (d: string) => { for (const f of fs.readdirSync(d)) { const p = path.join(d, f); if (fs.statSync(p).isDirectory()) walk(p); else if (re.test(f)) files.push(p); } };
walk(root);
for (const f of files.sort()) {
  const out: string[] = [];
  for (const output of ['markdown', 'text'] as const) {
    try { const r = await extract({ bytes: new Uint8Array(fs.readFileSync(f)), filename: path.basename(f), config: { ...DEFAULT_CONFIG, ocr: 'never', output } });
      out.push(createHash('sha1').update(JSON.stringify(r)).digest('hex').slice(0, 10)); } catch (e) { out.push('ERR ' + (e as Error).message.slice(0, 60)); }
  }
  console.log(path.relative(root, f), out.join(' '));
}
