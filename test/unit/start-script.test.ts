import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { START_ENV, START_NODE_OPTIONS } from '../support/local-server.ts';

describe('npm start', () => {
  it('runs the compiled server with the environment and node options the e2e tests start it with', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const assignments = Object.entries(START_ENV).map(([name, value]) => `${name}=${value}`);
    expect(pkg.scripts.start).toBe([...assignments, 'node', ...START_NODE_OPTIONS, 'bin/start.mjs'].join(' '));
  });
});
