import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/local-server.ts';

it('packs an SDK that installs into a plain project and works there, CLI included', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-sdk-pack-'));
  execFileSync('npm', ['run', '--silent', 'build:sdk'], { cwd: ROOT, stdio: 'ignore' });
  const tarball = execFileSync('npm', ['pack', path.join(ROOT, 'sdk'), '--pack-destination', work], { cwd: work, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true,"type":"module"}');
  // No dependencies: the install needs no registry.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, tarball)], { cwd: app, stdio: 'ignore' });

  const secret = 's'.repeat(32);
  const signature = `sha256=${createHmac('sha256', secret).update('{"a":1}').digest('hex')}`;
  fs.writeFileSync(
    path.join(app, 'main.js'),
    `import { Docex, verifySignature, RateLimitError } from '@docex/sdk';
const docex = new Docex({ apiKey: 'kz_x', baseUrl: 'http://127.0.0.1:9' });
console.log(typeof docex.extract, typeof docex.waitForJob, new RateLimitError('m', 429, 'rate_limited', 3).retryAfter);
console.log(await verifySignature('{"a":1}', '${signature}', '${secret}'));`,
  );
  expect(execFileSync(process.execPath, ['main.js'], { cwd: app, encoding: 'utf8' })).toBe('function function 3\ntrue\n');
  expect(execFileSync(path.join(app, 'node_modules/.bin/docex'), ['--help'], { cwd: app, encoding: 'utf8' })).toContain('usage: docex <command>');
  expect(fs.existsSync(path.join(app, 'node_modules/@docex/sdk/dist/types/sdk/src/index.d.ts'))).toBe(true);
});
