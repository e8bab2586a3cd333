// A PDF cut short (an interrupted download or upload, a truncated attachment)
// loses its end: the cross-reference table and the trailer that names the
// document's catalog. PDFium rebuilds a damaged cross-reference table by
// scanning the objects, but refuses a file without a trailer to start from.
// The objects before the cut are usually whole, so when PDFium refuses a file
// as damaged, the catalog is looked for among them, the object the cut went
// through is dropped, and a trailer naming the catalog is appended: the pages
// whose objects survived are read again. Many writers put the catalog and the
// page tree's root last, after the pages: where no catalog survived, or the
// one that did opens no page, a new page tree of the page objects found, in
// file order, and a catalog naming it are appended instead. Objects kept in a
// compressed object stream cannot be found this way; a file whose pages are
// all in one stays refused.

/** Larger files are not scanned: a latin1 string of them would exceed what V8 holds in one string. */
const MAX_SCANNED_BYTES = 200 * 1024 * 1024;
/** How far before `/Type /Catalog` (or `/Type /Page`) its `N G obj` may stand. */
const OBJECT_HEADER_REACH = 4096;

export interface Repaired {
  bytes: Uint8Array;
  /** Bytes of the file kept: the rest, from the object the cut went through, is lost. */
  kept: number;
}

/**
 * The repairs to try, in order, the file scanned once for them: a trailer
 * naming the catalog, then a new page tree and catalog. None for a file too
 * large to scan, not a PDF, or encrypted.
 */
export function* repairsOf(bytes: Uint8Array): Generator<Repaired> {
  const text = scannable(bytes);
  if (text === null) return;
  const trailer = withTrailer(bytes, text);
  if (trailer) yield trailer;
  const tree = withPageTree(bytes, text);
  if (tree) yield tree;
}

/** The bytes up to the last whole object with a trailer naming the last catalog found in them; null when there is no catalog to name. */
function withTrailer(bytes: Uint8Array, text: string): Repaired | null {
  // The last catalog wins: an incremental update writes its catalog after the one it replaces.
  const root = objectsOfType(text, 'Catalog').at(-1);
  return root ? appended(bytes, keptLength(text), `\ntrailer\n<< /Root ${root.ref} >>\n%%EOF\n`) : null;
}

/** The bytes up to the last whole object with a page tree of the page objects found in them, a catalog and a trailer; null when there is no page object. */
function withPageTree(bytes: Uint8Array, text: string): Repaired | null {
  const kept = keptLength(text);
  // An object defined again (an incremental update) stands where it was first: the page's place in the file.
  const pages = new Map<number, string>();
  for (const page of objectsOfType(text, 'Page')) if (page.at < kept && !pages.has(page.number)) pages.set(page.number, page.ref);
  if (pages.size === 0) return null;
  let highest = 0;
  for (const m of text.matchAll(/(\d{1,10})\s+\d{1,5}\s+obj\b/g)) highest = Math.max(highest, Number(m[1]));
  const tree = highest + 1;
  const catalog = highest + 2;
  return appended(
    bytes,
    kept,
    `\n${tree} 0 obj\n<< /Type /Pages /Kids [${[...pages.values()].join(' ')}] /Count ${pages.size} >>\nendobj\n` +
      `${catalog} 0 obj\n<< /Type /Catalog /Pages ${tree} 0 R >>\nendobj\ntrailer\n<< /Root ${catalog} 0 R /Size ${catalog + 1} >>\n%%EOF\n`,
  );
}

/** The file as text to scan; null for one too large, not a PDF, or encrypted (its key is derived from the trailer's /ID, which the cut took). */
function scannable(bytes: Uint8Array): string | null {
  if (bytes.byteLength > MAX_SCANNED_BYTES) return null;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return text.includes('%PDF-') && !/\/Filter\s*\/Standard\b/.test(text) ? text : null;
}

/** The objects whose dictionary says `/Type /<type>` (not a longer name: `/Page` is not `/Pages`), in file order. */
function objectsOfType(text: string, type: string): Array<{ number: number; ref: string; at: number }> {
  const out: Array<{ number: number; ref: string; at: number }> = [];
  for (const m of text.matchAll(new RegExp(`/Type\\s*/${type}(?![A-Za-z0-9])`, 'g'))) {
    const before = text.slice(Math.max(0, m.index - OBJECT_HEADER_REACH), m.index);
    const last = [...before.matchAll(/(\d{1,10})\s+(\d{1,5})\s+obj\b/g)].at(-1);
    // The object's own header: no endobj between it and its /Type.
    if (last && !before.slice(last.index).includes('endobj')) out.push({ number: Number(last[1]), ref: `${last[1]} ${last[2]} R`, at: m.index });
  }
  return out;
}

/** Where the last whole object ends: the one the cut went through is dropped, since a stream cut short would swallow what is appended after it as its data. */
function keptLength(text: string): number {
  const whole = text.lastIndexOf('endobj');
  return whole < 0 ? text.length : whole + 'endobj'.length;
}

/** The bytes' first `kept` with `tail` after them. */
function appended(bytes: Uint8Array, kept: number, tail: string): Repaired {
  const end = Buffer.from(tail, 'latin1');
  const out = new Uint8Array(kept + end.byteLength);
  out.set(bytes.subarray(0, kept));
  out.set(end, kept);
  return { bytes: out, kept };
}
