// The leading-bytes part of a signature (format.ts): a header in the first
// bytes, or magic bytes at the start. Detection asks it, and so does the
// page view, which must know a PDF or an image without detecting the rest.

import type { Signature } from './format.ts';

export function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

export function hasHeader(bytes: Uint8Array, { pattern, window }: NonNullable<Signature['header']>): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, window));
  return pattern.test(head.toString('latin1'));
}

export const hasMagic = (bytes: Uint8Array, { magic }: Signature) => magic?.some((m) => startsWith(bytes, m)) ?? false;
