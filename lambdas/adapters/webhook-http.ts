// The HTTP client of webhook deliveries. Every address a connection is about
// to use is checked against the address rules inside the socket's own DNS
// lookup, so what is checked is what is connected to (a rebinding answer
// cannot slip in between a check and the connect). No redirects are followed,
// no connection is reused, and at most a capped excerpt of the answer is read.

import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRefusal, ipLiteral, isLoopbackAddress, type AddressPolicy, type LookupHost } from '../core/webhook-address.ts';
import { ATTEMPT_TIMEOUT_MS, MAX_RESPONSE_BYTES, type SendOutcome, type WebhookSender } from '../core/webhook-delivery.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** For the checks at registration and submission. */
export const systemLookupHost: LookupHost = async (hostname) => (await systemResolver(hostname)).map((a) => a.address);

export interface SenderOptions extends AddressPolicy {
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** DNS; tests substitute answers to play rebinding and private records. */
  resolve?: Resolver;
}

class RefusedAddress extends Error {}

export function createWebhookSender(options: SenderOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const resolve = options.resolve ?? systemResolver;

  return {
    post(rawUrl, body, headers) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const url = new URL(rawUrl);
      // Plain http exists only for development receivers on loopback (the local server).
      const plain = url.protocol === 'http:';
      const refusal = (address: string) => {
        if (plain && !(options.allowLoopback && isLoopbackAddress(address))) return `${address} is not loopback, and plain http:// is only for loopback receivers on the local server`;
        return addressRefusal(address, options);
      };
      if (url.protocol !== 'https:' && !plain) {
        return Promise.resolve({ kind: 'refused', durationMs: 0, message: `Refused: ${url.protocol} is not a webhook scheme; use https://.` });
      }
      const literal = ipLiteral(url.hostname);
      const literalRefusal = literal && refusal(literal);
      if (literalRefusal) return Promise.resolve({ kind: 'refused', durationMs: 0, message: `Refused: ${literalRefusal}.` });

      const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
        resolve(hostname).then(
          (addresses) => {
            const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
            const usable = addresses.filter((a) => family === 0 || a.family === family);
            for (const a of usable) {
              const why = refusal(a.address);
              if (why) return callback(new RefusedAddress(`${hostname} resolves to ${why}`), '', 0);
            }
            if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
            if (lookupOptions.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
            callback(null, usable[0]!.address, usable[0]!.family);
          },
          (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
        );
      };

      return new Promise<SendOutcome>((settle) => {
        let done = false;
        /** Set once the status line is in: from then on the time limit only cuts the reading of the body. */
        let answered: (() => void) | null = null;
        const finish = (outcome: SendOutcome) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          settle(outcome);
        };
        const request = (plain ? http : https).request(
          url,
          {
            method: 'POST',
            headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
            agent: false,
            lookup,
          },
          (response) => {
            const status = response.statusCode ?? 0;
            const chunks: Buffer[] = [];
            let read = 0;
            const answer = () =>
              finish({ kind: 'response', status, durationMs: elapsed(), excerpt: Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim() });
            answered = answer;
            response.on('data', (chunk: Buffer) => {
              if (read < maxBytes) chunks.push(chunk.subarray(0, maxBytes - read));
              read += chunk.length;
              // Enough is read to know the answer; the rest is not our business.
              if (read >= maxBytes) {
                answer();
                response.destroy();
              }
            });
            response.on('end', answer);
            response.on('error', answer);
            response.on('close', answer);
          },
        );
        const timer = setTimeout(() => {
          if (answered) answered();
          else finish({ kind: 'timeout', durationMs: elapsed(), message: `No answer within ${timeoutMs / 1000} s` });
          request.destroy();
        }, timeoutMs);
        request.on('error', (error: NodeJS.ErrnoException) => {
          // A connection lost while the body is read does not undo a status that was already given.
          if (answered) return answered();
          if (error instanceof RefusedAddress) return finish({ kind: 'refused', durationMs: elapsed(), message: `Refused: ${error.message}.` });
          finish({ kind: 'connection', durationMs: elapsed(), message: `Connection failed: ${error.code ?? error.message}` });
        });
        request.end(body);
      });
    },
  };
}
