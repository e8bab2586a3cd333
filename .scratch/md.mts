import fs from 'node:fs'; import path from 'node:path';
import { extract } from '../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';
const f = process.argv[2]!;
const r = await extract({ bytes: new Uint8Array(fs.readFileSync(f)), filename: path.basename(f), config: { ...DEFAULT_CONFIG, ocr: 'never', output: 'markdown' } });
console.log(r.content.slice(0, Number(process.argv[3] ?? 3000)));
if (process.env.EL) for (const e of (r as any).elements.slice(0, 40)) console.log(e.type, e.level ?? '', JSON.stringify(e.text.slice(0, 60)));
