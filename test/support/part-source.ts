// Parts of a split document as the aggregation's source gives them to the
// streamed merge: a copy each read, its result holding only the members the
// pass asked for, so a pass that reads a member it did not ask for fails.

import type { Part } from '../../lambdas/extract/engine/merge.ts';
import type { PartSource, ResultMember } from '../../lambdas/extract/engine/merge-stream.ts';
import type { ExtractionResult } from '../../lambdas/extract/engine/types.ts';

export function partFor(part: Part, members?: readonly ResultMember[]): Part {
  const copy = structuredClone(part);
  if (!members || !copy.ok) return copy;
  const kept = Object.fromEntries(Object.entries(copy.result).filter(([k]) => members.includes(k as ResultMember)));
  return { ...copy, result: kept as unknown as ExtractionResult };
}

/** The parts as a source; `reads` records the position of every read. */
export function partSource(parts: Part[], reads: number[] = []): PartSource {
  return { count: parts.length, read: async (i, members) => (reads.push(i), partFor(parts[i]!, members)) };
}
