// docex: the command line on the SDK. Environment: DOCEX_API_KEY, DOCEX_URL.
// Exit codes (for scripts): 0 done, 1 a job failed or partly failed,
// 2 usage, 3 auth or forbidden, 4 quota or rate limit, 5 network or server,
// 6 gave up waiting, 7 not found, 8 result expired.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Docex } from './client.ts';
import {
  AuthError,
  DocexError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  QuotaError,
  RateLimitError,
  ResultExpiredError,
  ServerError,
  WaitTimeoutError,
} from './errors.ts';
import { verifySignature } from './signature.ts';
import type { Job } from './types.ts';

const HELP: Record<string, string> = {
  main: `docex: extract text from documents with a docex service

usage: docex <command> [options]

commands:
  extract FILE...     submit files; with --wait, collect the results
  jobs get ID         print one job
  sandbox             print a new sandbox key (50 pages, 24 h)
  verify              check a webhook signature

environment: DOCEX_API_KEY (your key), DOCEX_URL (default http://127.0.0.1:3000)
Run "docex <command> --help" for a command's options.`,
  extract: `usage: docex extract FILE... [--wait] [--format text|markdown|json] [--out DIR] [--webhook URL]

  --wait            wait for every job and print (or write) its result
  --format F        text (default): the content; markdown: the content as Markdown;
                    json: the whole job object
  --out DIR         write each result to DIR/<file name>.<txt|md|json> instead of stdout;
                    never overwrites: a name already there gets " (2)", " (3)", ...
                    (on stdout, several results come each under "==> name <==",
                    or as one JSON array with --format json)
  --webhook URL     inline webhook for these jobs

Without --wait, prints one line per file: <job id> <file name>.
Exit 1 if any job failed or partly failed.`,
  jobs: `usage: docex jobs get ID

Prints the job as JSON.`,
  sandbox: `usage: docex sandbox [--json]

Prints a new sandbox key (or the whole answer with --json).`,
  verify: `usage: docex verify --secret SECRET --signature "sha256=..." < body

Reads the raw request body on stdin; exit 0 and "valid" when the signature
matches it, exit 1 and "invalid" when it does not.`,
};

class UsageError extends Error {}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

function client(anonymous = false): Docex {
  const apiKey = process.env.DOCEX_API_KEY;
  if (!anonymous && !apiKey) throw new UsageError('Set DOCEX_API_KEY to your API key (or get a trial key with "docex sandbox").');
  return new Docex({ apiKey, baseUrl: process.env.DOCEX_URL ?? 'http://127.0.0.1:3000' });
}

async function extract(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      wait: { type: 'boolean', default: false },
      format: { type: 'string', default: 'text' },
      out: { type: 'string' },
      webhook: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return (out(HELP.extract!), 0);
  if (positionals.length === 0) throw new UsageError('Name at least one file.');
  const format = values.format!;
  if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json, not "${format}".`);
  for (const file of positionals) if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);

  const docex = client();
  const submitted = await docex.extract(positionals, {
    webhook: values.webhook ? { url: values.webhook } : undefined,
    config: format === 'markdown' ? { output: 'markdown' } : undefined,
  });
  if (!values.wait) {
    submitted.job_ids.forEach((id, i) => out(`${id} ${path.basename(positionals[i]!)}`));
    return 0;
  }

  const progress = new Progress(positionals.length);
  const jobs = await Promise.all(
    submitted.job_ids.map(async (id) => {
      const job = await docex.waitForJob(id, { onPoll: (polled) => progress.update(polled) });
      progress.finish(job);
      return job;
    }),
  );
  progress.close();
  if (values.out) fs.mkdirSync(values.out, { recursive: true });
  const extension = format === 'json' ? 'json' : format === 'markdown' ? 'md' : 'txt';
  // On stdout, several results are told apart: JSON as one array, text and Markdown each under a "==> name <==" line (as head and tail do).
  if (!values.out && format === 'json' && jobs.length > 1) out(JSON.stringify(jobs, null, 2));
  for (const job of jobs) {
    const rendered = format === 'json' ? JSON.stringify(job, null, 2) : (job.result?.content ?? '');
    if (values.out) {
      if (job.result || format === 'json') {
        const file = writeNew(values.out, path.basename(job.filename), extension, rendered);
        err(`wrote ${file}`);
      }
    } else if (format === 'json') {
      if (jobs.length === 1) out(rendered);
    } else if (job.result) {
      if (jobs.length > 1) out(`==> ${job.filename} <==`);
      out(jobs.length > 1 ? rendered.replace(/\n$/, '') : rendered);
    }
    if (job.status !== 'completed') err(`${job.filename}: ${job.status}${job.error_message ? `: ${job.error_message}` : ''}`);
  }
  return jobs.every((job) => job.status === 'completed') ? 0 : 1;
}

/** Writes DIR/<name>.<ext>, or <name> (2).<ext>, (3), ... when that exists: never overwrites a result. Returns the path written. */
function writeNew(dir: string, name: string, extension: string, content: string): string {
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? `${name}.${extension}` : `${name} (${n}).${extension}`);
    try {
      fs.writeFileSync(file, content, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** A one-line display on a terminal; plain lines, one per finished job, when stderr is piped. */
class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private readonly pages = new Map<string, number>();
  private done = 0;

  constructor(private readonly total: number) {
    this.draw();
  }

  update(job: Job): void {
    // A running job's pages so far (a large document's chunks, a PDF's pages read), its count once it is done.
    const pages = job.pages ?? job.progress?.pages_done;
    if (pages !== undefined) this.pages.set(job.id, pages);
    this.draw();
  }

  finish(job: Job): void {
    this.done += 1;
    this.update(job);
    if (!this.tty) err(`${job.status} ${job.id} ${job.filename}${job.pages !== undefined ? ` (${job.pages} pages)` : ''}`);
  }

  close(): void {
    if (this.tty) process.stderr.write('\n');
  }

  private draw(): void {
    if (!this.tty) return;
    const pages = [...this.pages.values()].reduce((a, b) => a + b, 0);
    process.stderr.write(`\r\x1b[2K${this.done}/${this.total} files done, ${pages} pages`);
  }
}

async function jobs(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { help: { type: 'boolean', default: false } } });
  if (values.help) return (out(HELP.jobs!), 0);
  if (positionals[0] !== 'get' || !positionals[1]) throw new UsageError(HELP.jobs!);
  out(JSON.stringify(await client().getJob(positionals[1]), null, 2));
  return 0;
}

async function sandbox(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } });
  if (values.help) return (out(HELP.sandbox!), 0);
  const key = await client(true).createSandboxKey();
  out(values.json ? JSON.stringify(key) : key.api_key);
  return 0;
}

async function verify(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { secret: { type: 'string' }, signature: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (values.help) return (out(HELP.verify!), 0);
  if (!values.secret || !values.signature) throw new UsageError(HELP.verify!);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const valid = await verifySignature(Buffer.concat(chunks), values.signature, values.secret);
  out(valid ? 'valid' : 'invalid');
  return valid ? 0 : 1;
}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return 2;
  if (error instanceof AuthError || error instanceof ForbiddenError) return 3;
  if (error instanceof QuotaError || error instanceof RateLimitError) return 4;
  if (error instanceof NetworkError || error instanceof ServerError) return 5;
  if (error instanceof WaitTimeoutError) return 6;
  if (error instanceof NotFoundError) return 7;
  if (error instanceof ResultExpiredError) return 8;
  if (error instanceof DocexError) return 2;
  if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) return 2;
  return 5;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const commands: Record<string, (args: string[]) => Promise<number>> = { extract, jobs, sandbox, verify };
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') return (out(HELP.main!), command ? 0 : 2);
    const run = commands[command];
    if (!run) throw new UsageError(`Unknown command "${command}".\n\n${HELP.main}`);
    return await run(rest);
  } catch (error) {
    err(error instanceof Error ? error.message : String(error));
    return exitCodeOf(error);
  }
}
