// ZIP and TAR archives: every member is extracted as its own document and
// becomes a section. A member that fails is named in metadata.failed_sections
// (the job ends `partial_success`); only an archive where nothing could be
// read fails. A gzip file is what it holds, read as if sent uncompressed.

import { Compound } from '../../engine/compound.ts';
import type { FormatContext } from '../../engine/extract.ts';
import { ExtractionError, type FormatOutput } from '../../engine/types.ts';
import { gunzip } from '../../containers/gzip.ts';
import { openArchive } from '../../containers/archive-members.ts';

export async function extractArchive(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const { kind, names: members, read, lost } = openArchive(bytes, ctx.budget);
  const out = new Compound(ctx.config.output);
  for (const section of lost) out.fail(section.name, section.error);
  let extracted = 0;
  for (const name of members) {
    try {
      const result = await ctx.sub({ bytes: read(name) ?? new Uint8Array(), filename: name.split('/').pop() ?? name });
      out.addResult(name, result);
      extracted++;
    } catch (err) {
      // Our own failures (a bug, memory) are not the member's fault: let them fail the job.
      if (!(err instanceof ExtractionError)) throw err;
      // A bomb or a nesting attack is the archive's problem, not one member's.
      if (err.code === 'refused_file' && /inflates/.test(err.message)) throw err;
      out.fail(name, err);
    }
  }
  if (members.length === 0) throw new ExtractionError('empty_file', `The ${kind} archive has no files in it.`);
  if (extracted === 0) {
    throw new ExtractionError('corrupt_file', `No file in the ${kind} archive could be extracted: ${out.failed.map((f) => `${f.name} (${f.error})`).join('; ')}`.slice(0, 2000));
  }
  return out.output();
}

/** What a gzip file holds, read as its own document (a TAR as an archive), named as `gzip` kept its name. */
export async function extractGzip(bytes: Uint8Array, ctx: FormatContext): Promise<FormatOutput> {
  const { data, name } = gunzip(bytes, ctx.budget);
  const out = new Compound(ctx.config.output);
  const inner = await ctx.sub({ bytes: data, filename: name ?? 'document' });
  out.addResult(null, inner);
  // The document's own description is the file's: gzip adds nothing to it.
  const { title, author, subject, keywords, language } = inner.metadata;
  return out.output(Object.fromEntries(Object.entries({ title, author, subject, keywords, language }).filter(([, v]) => v !== null && v !== undefined)));
}

