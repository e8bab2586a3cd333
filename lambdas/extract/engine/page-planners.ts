// The planners of the formats whose pages can be too large for one chunk
// (page-parts.ts): each reads the pages once and cuts those over its budget
// into parts. Kept apart from the descriptors for the reason readers.ts is:
// a literal import() here would put the readers into every bundle that reads
// the registry. Only the worker pool loads this.

import type { PlannedPage } from './page-parts.ts';
import type { Format } from './registry.ts';

export type PagePlanner = (bytes: Uint8Array, pages: number[] | null) => Promise<PlannedPage[]>;

export const PAGE_PLANNERS: Partial<Record<Format, PagePlanner>> = {
  xlsx: async (bytes, pages) => (await import('../formats/ooxml/sheet-parts.ts')).planSheetParts(bytes, pages),
};

/** The document's pages (the selected ones, or all) with their parts, or null when its format cuts no page into parts. */
export async function planPages(bytes: Uint8Array, format: string, pages: number[] | null): Promise<PlannedPage[] | null> {
  const planner = PAGE_PLANNERS[format as Format];
  return planner ? planner(bytes, pages) : null;
}
