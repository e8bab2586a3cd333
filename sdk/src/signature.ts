// Verifying X-Webhook-Signature: `sha256=<hex HMAC-SHA256 of the raw body>`,
// keyed with the webhook secret. WebCrypto, so it runs in Node 20+ and browsers.

const encoder = new TextEncoder();

// A copy into a plain ArrayBuffer: WebCrypto takes no SharedArrayBuffer-backed views.
const toBytes = (value: string | Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> =>
  typeof value === 'string' ? encoder.encode(value) : new Uint8Array(value instanceof Uint8Array ? value : new Uint8Array(value));

export async function signBody(rawBody: string | Uint8Array | ArrayBuffer, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', toBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, toBytes(rawBody)));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * True when `signatureHeader` is the signature of exactly these body bytes.
 * Pass the body as received, before any JSON parsing: re-serialised JSON
 * differs byte for byte. The comparison takes the same time wherever the
 * strings differ, so it leaks nothing about the expected signature.
 */
export async function verifySignature(
  rawBody: string | Uint8Array | ArrayBuffer,
  signatureHeader: string | null | undefined,
  secret: string,
): Promise<boolean> {
  if (!signatureHeader || !secret) return false;
  const expected = await signBody(rawBody, secret);
  const given = signatureHeader.trim().toLowerCase();
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (given.charCodeAt(i) || 0);
  return diff === 0;
}
