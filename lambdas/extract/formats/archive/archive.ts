// ZIP archives: every member is extracted as its own document and becomes a
// section. A member that fails is named in metadata.failed_sections (the job
// ends `partial_success`); only an archive where nothing could be read fails.

import { Compound } from '../../engine/compound.ts';
import type { FormatContext } from '../../engine/extract.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';
import { SafeZip } from '../../containers/zip.ts';

export async function extractArchive(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const zip = new SafeZip(bytes, ctx.budget);
  const out = new Compound(ctx.config.output);
  const members = zip.entries.filter((e) => !e.isDirectory && !isJunk(e.name));
  let extracted = 0;
  for (const entry of members) {
    try {
      const data = zip.readEntry(entry);
      const result = await ctx.sub({ bytes: data, filename: entry.name.split('/').pop() ?? entry.name });
      out.addResult(entry.name, result);
      extracted++;
    } catch (err) {
      // Our own failures (a bug, memory) are not the member's fault: let them fail the job.
      if (!(err instanceof ExtractionError)) throw err;
      // A bomb or a nesting attack is the archive's problem, not one member's.
      if (err.code === 'refused_file' && /inflates/.test(err.message)) throw err;
      out.fail(entry.name, err);
    }
  }
  if (members.length === 0) throw new ExtractionError('empty_file', 'The ZIP archive has no files in it.');
  if (extracted === 0) {
    throw new ExtractionError('corrupt_file', `No file in the ZIP archive could be extracted: ${out.failed.map((f) => `${f.name} (${f.error})`).join('; ')}`.slice(0, 2000));
  }
  return out.output();
}

/** Metadata that archivers add and nobody means to submit. */
function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || /(^|\/)\.DS_Store$/.test(name) || /(^|\/)Thumbs\.db$/i.test(name);
}
