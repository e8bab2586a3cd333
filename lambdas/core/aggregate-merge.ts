// The merge of aggregate-finish as one function over the stored parts' bytes:
// parsing the parts, merging them and writing the result JSON are the heavy
// part of finishing a large document, and the local server runs it in a
// worker thread of its pool (pool.ts, op 'merge') so that its API thread
// keeps answering meanwhile. In AWS, aggregate-finish is its own Lambda and
// calls it directly.

import { mergeParts, type MergeRules, type Part } from '../extract/engine/merge.ts';
import { describeRanges } from './chunk-plan.ts';
import type { OriginalMetadata } from './job.ts';
import { resultJson } from './job-result.ts';
import type { StoredPart } from './large-document.ts';
import type { PartRef } from './ports.ts';

/** One part to merge: its stored bytes, or why it is not there to read (failed when measured, or missing). */
export interface PartInput {
  ref: PartRef;
  bytes: Uint8Array | null;
  error?: string;
}

export type MergeOutcome =
  | { ok: true; json: Uint8Array; pages: number; partial: boolean }
  | { ok: false; message: string };

export interface PartMerger {
  merge(parts: PartInput[], documentMetadata: OriginalMetadata | null, rules: MergeRules): Promise<MergeOutcome>;
}

/** The merged result as JSON bytes, or why there is none (no part could be extracted). */
export function mergeStoredParts(inputs: PartInput[], documentMetadata: OriginalMetadata | null, rules: MergeRules): MergeOutcome {
  const parts: Part[] = inputs.map(({ ref, bytes, error }): Part => {
    if (error !== undefined) return { ...ref, ok: false, error };
    const stored = readPart(ref, bytes);
    return stored.ok ? { ...ref, ok: true, result: stored.result } : { ...ref, ok: false, error: stored.error };
  });
  const merged = mergeParts(parts, rules);
  if (!merged) {
    const first = parts.find((p): p is Extract<Part, { ok: false }> => !p.ok);
    return { ok: false, message: `No chunk of the document could be extracted (pages ${describeRanges(parts)}): ${first?.error ?? 'unknown error'}` };
  }
  // A cut PDF's parts carry PDFium's metadata of the cut: the result says the original's.
  if (documentMetadata) merged.metadata = { ...merged.metadata, ...documentMetadata };
  const partial = (merged.metadata.failed_page_ranges?.length ?? 0) > 0 || (merged.metadata.failed_sections?.length ?? 0) > 0;
  return { ok: true, json: resultJson(merged), pages: merged.metadata.pages, partial };
}

/** A stored part, checked to be the part the plan names. */
export function readPart(ref: PartRef, bytes: Uint8Array | null): StoredPart {
  const missing = (why: string): StoredPart => ({ ...ref, ok: false, error: why });
  if (!bytes) return missing(`The part for pages ${ref.first_page}-${ref.last_page} is missing.`);
  const stored = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as StoredPart;
  if (stored.index !== ref.index || stored.first_page !== ref.first_page || stored.last_page !== ref.last_page) {
    return missing(`The part stored for pages ${ref.first_page}-${ref.last_page} covers other pages (${stored.first_page}-${stored.last_page}).`);
  }
  return stored;
}

/** The merge in the calling thread: aggregate-finish in AWS, which has its Lambda to itself. */
export const inProcessMerger: PartMerger = { merge: async (parts, metadata, rules) => mergeStoredParts(parts, metadata, rules) };
