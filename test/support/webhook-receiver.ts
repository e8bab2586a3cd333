// A real webhook receiver on loopback for tests and the soak benchmark: it
// answers each request as the test scripted for its path, and records what
// arrived, byte for byte.

import { createHash } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A status code, or: 'slow' answers 200 only after `slowMs` (beyond the delivery timeout); 'huge' answers 200 with `hugeBytes` of body. */
export type ScriptedAnswer = number | 'slow' | 'huge';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  answer: ScriptedAnswer;
  /** 'huge' only: the client closed the connection before the whole body was written. */
  cutShort?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests to `path`, in order; after them, `fallback`. */
  script(path: string, answers: ScriptedAnswer[]): void;
  /** Answer for requests with no script left; a function may decide per request (the soak's random failures). */
  fallback: ScriptedAnswer | ((path: string) => ScriptedAnswer);
  at(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(opts: { slowMs?: number; hugeBytes?: number } = {}): Promise<Receiver> {
  const scripts = new Map<string, ScriptedAnswer[]>();
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const answer = scripts.get(path)?.shift() ?? (typeof receiver.fallback === 'function' ? receiver.fallback(path) : receiver.fallback);
      const record: Received = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answer };
      received.push(record);
      if (answer === 'slow') {
        const timer = setTimeout(() => res.writeHead(200).end('{"ok":true}'), opts.slowMs ?? 3000);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (answer === 'huge') {
        const total = opts.hugeBytes ?? 256 * 1024 * 1024;
        const block = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        record.cutShort = false;
        res.on('close', () => (record.cutShort = !res.writableFinished));
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        const pump = () => {
          while (sent < total) {
            sent += block.length;
            if (!res.write(block)) return res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      res.writeHead(answer, { 'Content-Type': 'application/json' }).end(JSON.stringify({ answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    fallback: 200,
    script: (path, answers) => scripts.set(path, [...answers]),
    at: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** HMAC-SHA256 built from SHA-256 by RFC 2104: independent of the createHmac the service signs with. */
export function hmacSha256Hex(key: string, message: string): string {
  const block = 64;
  let k = Buffer.from(key, 'utf8');
  if (k.length > block) k = createHash('sha256').update(k).digest();
  k = Buffer.concat([k, Buffer.alloc(block - k.length)]);
  const pad = (byte: number) => Buffer.from(k.map((b) => b ^ byte));
  const inner = createHash('sha256').update(Buffer.concat([pad(0x36), Buffer.from(message, 'utf8')])).digest();
  return createHash('sha256').update(Buffer.concat([pad(0x5c), inner])).digest('hex');
}

/** What a receiver does before trusting a payload. */
export const signatureValid = (r: Received, secret: string) => r.headers['x-webhook-signature'] === `sha256=${hmacSha256Hex(secret, r.body)}`;
