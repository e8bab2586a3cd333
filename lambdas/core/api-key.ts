import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const LIVE_PREFIX = 'kz_';
export const SANDBOX_PREFIX = 'sk_sandbox_';
const LIVE_BODY = 29;
const SANDBOX_BODY = 32;

const LIVE_FORMAT = /^kz_[0-9A-Za-z]{29}$/;
const SANDBOX_FORMAT = /^sk_sandbox_[0-9A-Za-z]{32}$/;

export type KeyTier = 'live' | 'sandbox';

/**
 * Base62 from a CSPRNG without modulo bias: bytes >= 248 (4 * 62) are thrown
 * away, so every remaining byte maps onto the alphabet uniformly.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const generateLiveKey = () => LIVE_PREFIX + randomBase62(LIVE_BODY);
export const generateSandboxKey = () => SANDBOX_PREFIX + randomBase62(SANDBOX_BODY);

/** The tier a well-formed key belongs to, or null when it is not a docex key at all. */
export function keyTier(key: string): KeyTier | null {
  if (LIVE_FORMAT.test(key)) return 'live';
  if (SANDBOX_FORMAT.test(key)) return 'sandbox';
  return null;
}

/** Keys are stored and looked up only by this hash; the plaintext is never persisted. */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');
