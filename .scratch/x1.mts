import fs from 'node:fs';
import { extract } from '../lambdas/extract/engine/extract.ts';
import { DEFAULT_CONFIG } from '../lambdas/extract/engine/types.ts';
const bytes = new Uint8Array(fs.readFileSync(process.argv[2]!));
const t = performance.now();
const r = await extract({ bytes, filename: process.argv[2]!.split('/').pop()!, config: { ...DEFAULT_CONFIG, ocr: 'never' } });
const ms = performance.now() - t;
const json = JSON.stringify(r);
console.log({ ms: Math.round(ms), text: r.text?.length, json: json.length, tables: r.tables?.length, elements: (r as any).elements?.length, chunks: (r as any).chunks?.length, peak: Math.round(process.resourceUsage().maxRSS / 1024), heap: Math.round(process.memoryUsage().heapUsed/2**20) });
