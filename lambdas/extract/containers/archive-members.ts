// An archive's member files, whichever container holds them (a ZIP, or a TAR
// as arXiv serves a paper's sources), without what archivers and file
// managers add beside the files someone meant to send (macOS resource forks
// and folder settings, Windows thumbnail caches).

import { isTar, SafeTar } from './tar.ts';
import type { FailedSection } from '../engine/types.ts';
import { type InflateBudget, lostSections, SafeZip } from './zip.ts';

/** A member nobody means to submit: `__MACOSX/...`, `.DS_Store`, `Thumbs.db`. */
export const isArchiveJunk = (name: string): boolean => name.startsWith('__MACOSX/') || /(^|\/)\.DS_Store$/.test(name) || /(^|\/)Thumbs\.db$/i.test(name);

export interface ArchiveMembers {
  kind: 'ZIP' | 'TAR';
  /** The member files in the archive's order: no folders, no archivers' junk. */
  names: string[];
  /** A member's bytes (a ZIP's inflated within `budget`); null for a name the archive does not hold. */
  read(name: string): Uint8Array | null;
  /** What a ZIP cut short lost (see SafeZip.damage); empty for a whole archive. */
  lost: FailedSection[];
}

export function openArchive(bytes: Uint8Array, budget: InflateBudget): ArchiveMembers {
  const archive = isTar(bytes) ? new SafeTar(bytes) : new SafeZip(bytes, budget);
  const names = archive.entries.filter((e) => !e.isDirectory && !isArchiveJunk(e.name)).map((e) => e.name);
  return { kind: archive instanceof SafeTar ? 'TAR' : 'ZIP', names, read: (name) => archive.read(name), lost: archive instanceof SafeZip ? lostSections(archive) : [] };
}
