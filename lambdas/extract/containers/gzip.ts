// gzip (RFC 1952): one file compressed, as `gzip` writes it and as arXiv
// serves a paper's sources (a TAR, or a single .tex). Inflated within the
// budget a ZIP's members share (zip.ts), so a gzip bomb is refused as one.

import { gunzipSync } from 'node:zlib';
import { ExtractionError } from '../engine/types.ts';
import { type InflateBudget, ZIP_LIMITS } from './zip.ts';

/** The gzip magic and its one compression method, deflate. */
export const isGzip = (bytes: Uint8Array) => bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08;

/** The inflated bytes, and the original file name the header keeps, where `gzip` kept it. */
export function gunzip(bytes: Uint8Array, budget: InflateBudget): { data: Uint8Array; name: string | null } {
  const room = Math.min(budget.remaining, ZIP_LIMITS.maxEntryBytes);
  const tooLarge = () => new ExtractionError('refused_file', `Refused: the gzip file inflates past ${Math.round(room / (1024 * 1024))} MB. Send the document uncompressed, or a smaller one.`);
  let data: Uint8Array;
  try {
    data = gunzipSync(bytes, { maxOutputLength: room + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || (err as Error).name === 'RangeError') throw tooLarge();
    throw new ExtractionError('corrupt_file', `The gzip file is damaged (${(err as Error).message}). Compress the document again and resubmit it.`);
  }
  if (data.length > room) throw tooLarge();
  budget.remaining -= data.length;
  return { data, name: originalName(bytes) };
}

/** FNAME (flag 0x08): a NUL-terminated Latin-1 name after the fixed header and any FEXTRA field. */
function originalName(bytes: Uint8Array): string | null {
  const flags = bytes[3]!;
  if (!(flags & 0x08)) return null;
  let at = 10;
  if (flags & 0x04) at += 2 + (bytes[10]! | (bytes[11]! << 8));
  const end = bytes.indexOf(0, at);
  if (end < 0 || end - at > 1024) return null;
  const name = Buffer.from(bytes.subarray(at, end)).toString('latin1').split(/[\\/]/).pop() ?? '';
  return name || null;
}
