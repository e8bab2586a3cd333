import { buildSync } from 'esbuild';
const [entry, target] = process.argv.slice(2);
const r = buildSync({ entryPoints: [entry!], bundle: true, minify: true, platform: 'node', target: 'node22', format: 'esm', external: ['@aws-sdk/client-*'], metafile: true, write: false, outfile: '/tmp/x/out.mjs', mainFields: ['module','main'] });
const inputs = r.metafile.inputs;
const importers = new Map<string, string[]>();
for (const [k, v] of Object.entries(inputs)) for (const i of v.imports) { if (!importers.has(i.path)) importers.set(i.path, []); importers.get(i.path)!.push(k); }
let cur = Object.keys(inputs).find((k) => k.includes(target!))!; const seen = new Set<string>();
while (cur && !seen.has(cur)) { console.log(cur); seen.add(cur); cur = (importers.get(cur) ?? [])[0]!; }
