// npm run build:sdk: sdk/dist, what `npm pack ./sdk` ships. The client is
// bundled for any platform with fetch (no dependencies); the CLI for Node.
// Declarations come from tsc, so the types stay the server's own.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const sdk = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(sdk, 'dist');
fs.rmSync(dist, { recursive: true, force: true });

// node: modules stay imports: only paths need them, loaded on demand, so browsers never reach them.
await build({ entryPoints: [path.join(sdk, 'src/index.ts')], outfile: path.join(dist, 'index.js'), bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', external: ['node:*'] });
await build({
  entryPoints: [path.join(sdk, 'src/cli.ts')],
  outfile: path.join(dist, 'cli.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  footer: { js: 'process.exitCode = await main(process.argv.slice(2));' },
});
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);

execFileSync(
  process.execPath,
  [
    path.join(sdk, '../node_modules/typescript/bin/tsc'),
    '--declaration', '--emitDeclarationOnly', '--allowImportingTsExtensions', '--rewriteRelativeImportExtensions',
    '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--strict', '--skipLibCheck',
    '--types', 'node', '--outDir', path.join(dist, 'types'), '--rootDir', path.join(sdk, '..'),
    path.join(sdk, 'src/index.ts'),
  ],
  { stdio: 'inherit' },
);
console.log(`built ${path.relative(process.cwd(), dist)}`);
