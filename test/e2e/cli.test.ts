import { execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type RunningServer } from '../support/local-server.ts';
import { makePdf } from '../support/pdf-fixture.ts';

const CLI = path.join(ROOT, 'sdk/bin/docex.mjs');
let server: RunningServer;
let key: string;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  key = (await server.createProject('cli')).api_key;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-cli-'));
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'notes from the cli');
  fs.writeFileSync(path.join(dir, 'report.pdf'), makePdf({ pages: ['Report page one', 'Report page two'] }));
  fs.writeFileSync(path.join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 255, 254, 0, 0, 9]));
});
afterAll(async () => server?.stop());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function docex(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], {
      cwd: dir,
      env: { ...process.env, DOCEX_URL: server.url, DOCEX_API_KEY: key, ...opts.env },
    }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }));
    child.stdin!.end(opts.stdin ?? '');
  });
}

describe('the docex CLI, piped', () => {
  it('extracts and waits, printing contents on stdout and one plain line per job on stderr', async () => {
    const run = await docex(['extract', 'notes.txt', 'report.pdf', '--wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('notes from the cli');
    expect(run.stdout).toContain('Report page two');
    expect(run.stderr).toMatch(/^completed [0-9a-f-]{36} notes\.txt/m);
    expect(run.stderr).toMatch(/^completed [0-9a-f-]{36} report\.pdf \(2 pages\)/m);
    expect(run.stderr).not.toContain('\x1b[');
  });

  it('writes results to --out as JSON, and prints job ids without --wait', async () => {
    const out = path.join(dir, 'out');
    const run = await docex(['extract', 'notes.txt', '--wait', '--format', 'json', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'notes.txt.json'), 'utf8'))).toMatchObject({ status: 'completed', result: { content: 'notes from the cli' } });
    const quick = await docex(['extract', 'notes.txt']);
    expect(quick.stdout.trim()).toMatch(/^[0-9a-f-]{36} notes\.txt$/);
    const job = await docex(['jobs', 'get', quick.stdout.split(' ')[0]!]);
    expect(JSON.parse(job.stdout)).toMatchObject({ filename: 'notes.txt' });
  });

  it('never overwrites a result in --out, and separates several results on stdout (issue #18 item 12)', async () => {
    fs.mkdirSync(path.join(dir, 'a'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'same.txt'), 'first of the same name');
    fs.writeFileSync(path.join(dir, 'b', 'same.txt'), 'second of the same name');
    const out = path.join(dir, 'same-out');
    const run = await docex(['extract', 'a/same.txt', 'b/same.txt', '--wait', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const written = fs.readdirSync(out).sort();
    expect(written).toEqual(['same.txt (2).txt', 'same.txt.txt']);
    expect(written.map((f) => fs.readFileSync(path.join(out, f), 'utf8')).sort()).toEqual(['first of the same name', 'second of the same name']);
    // A second run adds, never replaces.
    await docex(['extract', 'a/same.txt', '--wait', '--out', out]);
    expect(fs.readdirSync(out)).toHaveLength(3);

    const text = await docex(['extract', 'notes.txt', 'a/same.txt', '--wait']);
    expect(text.stdout).toMatch(/^==> notes\.txt <==\nnotes from the cli\n==> same\.txt <==\nfirst of the same name\n/);
    const json = await docex(['extract', 'notes.txt', 'a/same.txt', '--wait', '--format', 'json']);
    expect(JSON.parse(json.stdout).map((j: { filename: string }) => j.filename)).toEqual(['notes.txt', 'same.txt']);
  });

  it('exits 1 when a job fails, naming the reason', async () => {
    const run = await docex(['extract', 'blob.bin', '--wait']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/blob\.bin: failed: .*Supported formats/);
  });

  it('exits 2 on usage mistakes and 3 on a bad key', async () => {
    expect((await docex(['extract'])).code).toBe(2);
    expect((await docex(['extract', 'missing.pdf'])).code).toBe(2);
    expect((await docex(['frobnicate'])).code).toBe(2);
    const noKey = await docex(['extract', 'notes.txt'], { env: { DOCEX_API_KEY: undefined } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('DOCEX_API_KEY');
    expect((await docex(['extract', 'notes.txt'], { env: { DOCEX_API_KEY: `kz_${'b'.repeat(29)}` } })).code).toBe(3);
  });

  it('has --help on every command', async () => {
    for (const command of ['extract', 'jobs', 'sandbox', 'verify']) {
      const run = await docex([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^usage: docex /);
    }
  });

  it('prints a sandbox key', async () => {
    const run = await docex(['sandbox'], { env: { DOCEX_API_KEY: undefined } });
    expect(run.stdout.trim()).toMatch(/^sk_sandbox_[0-9A-Za-z]{32}$/);
  });

  it('verifies a webhook body from stdin', async () => {
    const body = '{"event_id":"e","status":"completed"}';
    const signature = `sha256=${createHmac('sha256', 's'.repeat(32)).update(body).digest('hex')}`;
    const good = await docex(['verify', '--secret', 's'.repeat(32), '--signature', signature], { stdin: body });
    expect([good.code, good.stdout.trim()]).toEqual([0, 'valid']);
    const bad = await docex(['verify', '--secret', 's'.repeat(32), '--signature', signature], { stdin: `${body} ` });
    expect([bad.code, bad.stdout.trim()]).toEqual([1, 'invalid']);
  });
});

describe('the docex CLI on a terminal', () => {
  it('draws a one-line progress display of files and pages', async () => {
    // util-linux `script` gives the CLI a real pseudo-terminal.
    const command = `${process.execPath} ${CLI} extract report.pdf notes.txt --wait`;
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        cwd: dir,
        env: { ...process.env, DOCEX_URL: server.url, DOCEX_API_KEY: key, TERM: 'xterm' },
      });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', reject);
      child.on('exit', () => resolve(text));
    });
    expect(output).toContain('\x1b[2K');
    expect(output).toContain('0/2 files done');
    expect(output).toMatch(/2\/2 files done, \d+ pages/);
    expect(output).toContain('Report page one');
  });
});
