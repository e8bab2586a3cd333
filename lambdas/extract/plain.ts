// Plain text and Markdown: the decoded text as it is, paged by the quota rule
// so chunks and metadata.pages match what was reserved at submission.

import { TEXT_PAGE_CHARS } from './page-count.ts';
import { decodeText } from './text.ts';
import { splitByCodePoints } from './text-stats.ts';
import type { FormatOutput } from './types.ts';

export function extractPlain(bytes: Uint8Array): FormatOutput {
  const { text, encoding } = decodeText(bytes);
  return { pages: splitByCodePoints(text, TEXT_PAGE_CHARS), pageSeparator: '', metadata: { encoding } };
}
