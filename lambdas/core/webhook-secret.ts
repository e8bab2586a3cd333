// Webhook secrets. The spec says "stored hashed", but a hash cannot sign: the
// secret must be recoverable to compute each delivery's HMAC. So it is stored
// encrypted (KMS in AWS, a key file on the local server) beside a SHA-256
// fingerprint, which is all that is ever shown after creation.

import { createHash, createHmac, randomBytes } from 'node:crypto';
import { invalidRequest } from './errors.ts';

/** Encrypts secrets at rest. `context` binds a ciphertext to its project, so it cannot be replayed elsewhere. */
export interface SecretCipher {
  encrypt(plaintext: string, context: string): Promise<string>;
  decrypt(ciphertext: string, context: string): Promise<string>;
}

export interface SealedSecret {
  ciphertext: string;
  fingerprint: string;
}

export const MIN_SECRET_BYTES = 32;

/** 32 random bytes, base64url, behind a prefix that makes a leaked secret easy to recognise. */
export const generateSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export const fingerprintOf = (secret: string) => `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 24)}`;

export function checkSuppliedSecret(secret: unknown, field: string): string {
  if (typeof secret !== 'string') throw invalidRequest(`${field} must be a string of at least ${MIN_SECRET_BYTES} bytes, or left out to have one generated.`);
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) {
    throw invalidRequest(`${field} must be at least ${MIN_SECRET_BYTES} bytes; leave it out to have a random one generated.`);
  }
  if (Buffer.byteLength(secret, 'utf8') > 1024) throw invalidRequest(`${field} must be at most 1024 bytes.`);
  return secret;
}

export async function sealSecret(cipher: SecretCipher, secret: string, projectId: string): Promise<SealedSecret> {
  return { ciphertext: await cipher.encrypt(secret, projectId), fingerprint: fingerprintOf(secret) };
}

export const openSecret = (cipher: SecretCipher, sealed: SealedSecret, projectId: string) => cipher.decrypt(sealed.ciphertext, projectId);

/** The X-Webhook-Signature value: hex HMAC-SHA256 of the exact body bytes, keyed with the secret. */
export const signatureOf = (body: string | Uint8Array, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
