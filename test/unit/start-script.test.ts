import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { START_ENV } from '../support/local-server.ts';

describe('npm start', () => {
  it('sets the environment the e2e tests start the server with, then runs the compiled server', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const assignments = Object.entries(START_ENV).map(([name, value]) => `${name}=${value}`);
    expect(pkg.scripts.start).toBe([...assignments, 'node bin/start.mjs'].join(' '));
  });
});
