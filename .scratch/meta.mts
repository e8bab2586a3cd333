import { buildSync } from 'esbuild';
const entry = process.argv[2];
const r = buildSync({ entryPoints: [entry], bundle: true, minify: true, platform: 'node', target: 'node22', format: 'esm', external: ['@aws-sdk/client-*'], metafile: true, write: false, outfile: '/tmp/x/out.mjs', mainFields: ['module','main'] });
const out = Object.values(r.metafile.outputs).find(o => o.entryPoint);
console.log('total', out.bytes);
const rows = Object.entries(out.inputs).map(([k,v]) => [v.bytesInOutput, k]).sort((a,b)=>b[0]-a[0]);
for (const [b,k] of rows.slice(0, +process.argv[3] || 40)) console.log(String(b).padStart(8), k);
