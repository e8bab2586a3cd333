import fs from 'node:fs'; import path from 'node:path'; import { createHash } from 'node:crypto';
import { extract } from '../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';
for (const f of process.argv.slice(2)) {
  const out: string[] = [];
  for (const output of ['markdown', 'text'] as const) {
    const r = await extract({ bytes: new Uint8Array(fs.readFileSync(f)), filename: path.basename(f), config: { ...DEFAULT_CONFIG, ocr: 'never', output } });
    out.push(createHash('sha1').update(JSON.stringify(r)).digest('hex').slice(0, 10));
  }
  console.log(path.basename(f), out.join(' '), Math.round(process.resourceUsage().maxRSS / 1024));
}
