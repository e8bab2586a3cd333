// Dates in document metadata, as the result gives them: ISO 8601 in UTC,
// whatever form the format wrote them in (W3CDTF, RFC 2822, ODF's), or null.

export function isoDate(s: string | null | undefined): string | null {
  if (!s) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace('.000Z', 'Z');
}
