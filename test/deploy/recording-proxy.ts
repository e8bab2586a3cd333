// An HTTP proxy in front of the emulator that every function's SDK calls go
// through (their AWS_ENDPOINT_URL names it). It records each request with the
// access key it was signed with, which the harness hands out one per function,
// so each call can be checked against the role of the function that made it.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './aws-call.ts';

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method!, url: req.url!, headers: { ...req.headers }, body });
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      forward.end(body);
    });
  });
  // Long polls and large PUTs are the emulator's to time out, not Node's defaults.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // `localhost`, as the emulator's own URLs name it.
    url: `http://localhost:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
