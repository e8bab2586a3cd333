// npm start: the docex API on one machine (see README "Configuration").
import { startLocalServer } from '../lib/local/server.ts';

// The pinned SDK supports Node 20; its notice about future releases is noise on every start.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DOCEX_DATA_DIR ?? './.docex';
const timeScale = Number(process.env.DOCEX_TIME_SCALE ?? 1);
const workers = process.env.DOCEX_WORKERS ? Number(process.env.DOCEX_WORKERS) : undefined;
// Tests and benchmarks only: lowers the 10 MB size above which documents are split into chunks.
const splitBytes = process.env.DOCEX_SPLIT_BYTES ? Number(process.env.DOCEX_SPLIT_BYTES) : undefined;
if (splitBytes !== undefined && !(Number.isInteger(splitBytes) && splitBytes > 0)) {
  throw new Error(`DOCEX_SPLIT_BYTES must be a positive whole number of bytes, got "${process.env.DOCEX_SPLIT_BYTES}"`);
}
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
if (!(timeScale > 0)) throw new Error(`DOCEX_TIME_SCALE must be a positive number, got "${process.env.DOCEX_TIME_SCALE}"`);

// Set at compile time by bin/start.mjs (npm start): its worker threads then load the compiled worker
// entry. Run as TypeScript (node --import tsx bin/local.ts), workers load pool.ts through tsx.
const compiledWorker = process.env.DOCEX_COMPILED_WORKER;
const workerModule = compiledWorker ? new URL(compiledWorker, import.meta.url) : undefined;
const server = await startLocalServer({ port, host: process.env.HOST, dataDir, timeScale, workers, splitBytes, workerModule });
console.log(`docex listening on ${server.url} (data in ${dataDir}, time scale ${timeScale})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) process.exit(1);
    stopping = true;
    await server.close();
    process.exit(0);
  });
}
