// A PDF cut short (an interrupted download or upload, a truncated attachment)
// loses its end: the cross-reference table and the trailer that names the
// document's catalog. PDFium rebuilds a damaged cross-reference table by
// scanning the objects, but refuses a file without a trailer to start from.
// The objects before the cut are usually whole, so when PDFium refuses a file
// as damaged, the catalog is looked for among them, the object the cut went
// through is dropped, and a trailer naming the catalog is appended: the pages
// whose objects survived are read again. A catalog kept in a compressed object
// stream cannot be found this way; such a file stays refused.

/** Larger files are not scanned: a latin1 string of them would exceed what V8 holds in one string. */
const MAX_SCANNED_BYTES = 200 * 1024 * 1024;
/** How far before `/Type /Catalog` its `N G obj` may stand. */
const OBJECT_HEADER_REACH = 4096;

/** The bytes up to the last whole object with a trailer naming the last catalog found in them, and how many of the bytes were kept; null when there is no catalog to name. */
export function withTrailer(bytes: Uint8Array): { bytes: Uint8Array; kept: number } | null {
  if (bytes.byteLength > MAX_SCANNED_BYTES) return null;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (!text.includes('%PDF-')) return null;
  let root: string | null = null;
  // The last catalog wins: an incremental update writes its catalog after the one it replaces.
  for (const m of text.matchAll(/\/Type\s*\/Catalog\b/g)) {
    const before = text.slice(Math.max(0, m.index - OBJECT_HEADER_REACH), m.index);
    const headers = [...before.matchAll(/(\d{1,10})\s+(\d{1,5})\s+obj\b/g)];
    const last = headers.at(-1);
    // The catalog's own object: no endobj between its header and its /Type.
    if (last && !before.slice(last.index).includes('endobj')) root = `${last[1]} ${last[2]} R`;
  }
  if (!root) return null;
  // The object the cut went through is dropped: a stream cut short would swallow the trailer after it as its data.
  const whole = text.lastIndexOf('endobj');
  const kept = whole < 0 ? bytes.byteLength : whole + 'endobj'.length;
  const trailer = Buffer.from(`\ntrailer\n<< /Root ${root} >>\n%%EOF\n`, 'latin1');
  const out = new Uint8Array(kept + trailer.byteLength);
  out.set(bytes.subarray(0, kept));
  out.set(trailer, kept);
  return { bytes: out, kept };
}
