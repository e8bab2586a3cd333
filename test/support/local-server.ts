// Starts `npm start`'s entry point as a real child process, the way a user
// runs it, so e2e tests can also kill and restart it.

import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
// node --import tsx, not the tsx CLI: the CLI runs the script in a second
// process, which a SIGKILL of the first would leave running.
const NODE_TSX = [process.execPath, '--import', 'tsx'] as const;

/** The variables `npm start` sets, and the options it gives node, to run bin/start.mjs (package.json; a unit test keeps them equal). */
export const START_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
export const START_NODE_OPTIONS = ['--max-semi-space-size=1'];

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** The server's process id (benchmarks read its peak memory from /proc). */
  pid: number;
  /** SIGKILL: no graceful shutdown, as a crash or a pulled plug. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** Starts the server again on the same port and data. */
  restart(): Promise<RunningServer>;
  createProject(name: string, pages?: number): Promise<{ project_id: string; api_key: string }>;
  output(): string;
}

export async function startServer(opts: { dataDir?: string; port?: number; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docex-e2e-'));
  // bin/start.mjs with npm start's environment: the server compiled, its workers without a TypeScript loader.
  const child = spawn(process.execPath, [...START_NODE_OPTIONS, 'bin/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, ...START_ENV, PORT: String(opts.port ?? 0), DOCEX_DATA_DIR: dataDir, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 60_000);
    const onData = () => {
      const match = /docex listening on (http:\/\/\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  const port = Number(new URL(url).port);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: RunningServer = {
    url,
    port,
    dataDir,
    pid: child.pid!,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    restart: async () => {
      await server.stop();
      return startServer({ ...opts, dataDir, port });
    },
    createProject: async (name, pages) => {
      const args = ['bin/admin.ts', 'create-project', '--name', name, ...(pages === undefined ? [] : ['--pages', String(pages)])];
      const { stdout } = await promisify(execFile)(NODE_TSX[0], [...NODE_TSX.slice(1), ...args], { cwd: ROOT, env: { ...process.env, PORT: String(port), DOCEX_DATA_DIR: dataDir } });
      return JSON.parse(stdout.trim().split('\n').at(-1)!);
    },
    output: () => log,
  };
  return server;
}

export { ROOT, waitFor };

/** Polls `get` once per `intervalMs` (never faster than the API's 1 s limit) until `done` holds. */
async function waitFor<T>(get: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 60_000, intervalMs = 1050 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
