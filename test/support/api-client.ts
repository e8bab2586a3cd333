// A deliberately plain HTTP client for e2e tests: real multipart requests
// through fetch, and raw requests for the malformed cases fetch won't send.

import http from 'node:http';
import https from 'node:https';
import { checkAnswer } from './openapi-check.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface FilePart {
  name: string;
  bytes: Uint8Array | string;
  type?: string;
}

export function multipart(files: FilePart[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    const bytes = typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes);
    form.append('file', new Blob([bytes], file.type ? { type: file.type } : {}), file.name);
  }
  return form;
}

/**
 * Sends through node:http so a test can choose the source address (sandbox
 * keys are bound to it), and checks the answer against the OpenAPI document.
 */
export async function request(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: Buffer | string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  const answer = await send(base, method, path, opts);
  const contentType = answer.headers['content-type'];
  await checkAnswer(base, method, new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`).pathname, answer.status, typeof contentType === 'string' ? contentType : undefined, answer.body === '' ? null : answer.body);
  return answer;
}

function send(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: Buffer | string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  // Relative to the base's own path: a deployed stack's base ends in its stage (/prod/).
  const url = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers, localAddress: opts.localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: keep the text for the assertion message */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Encodes a FormData exactly as fetch would, so raw requests can carry it. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

export async function submit(base: string, key: string, form: FormData, localAddress?: string): Promise<Answer> {
  const { body, contentType } = await encodeForm(form);
  return request(base, 'POST', '/v1/extract', { key, body, headers: { 'content-type': contentType }, localAddress });
}
