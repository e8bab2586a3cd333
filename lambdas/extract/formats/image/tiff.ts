// A TIFF's pages as a PDF of scanned pages, for the reader to OCR and lay
// out as it does a scan: each page's strips go into the PDF as they are
// stored, under the PDF filter that reads the same coding (CCITT Group 3
// and 4 fax, LZW, Deflate, PackBits, JPEG, none), so nothing is decoded
// here. A page is sized by its resolution where the file gives one (a fax
// at 204 x 196 dpi is a letter page), else its longer side is a letter
// page's, as other pictures are (as-page.ts). Tiled, planar, 16-bit and
// alpha-channel pages, and codings PDF lacks, are not read this way.

import { deflateSync, inflateSync } from 'node:zlib';
import { assemblePdf } from '../../containers/pdf-assembly.ts';
import type { UnitLimit } from '../../engine/format.ts';
import { MAX_DECODED_BYTES, pointsPerPixel } from './as-page.ts';

/** Pages read from one TIFF at most: a longer file is refused when it is counted (TIFF_PAGE_LIMIT). */
export const MAX_TIFF_PAGES = 1000;

interface Ifd {
  tags: Map<number, number[]>;
  next: number;
}

const TAG = {
  width: 256,
  height: 257,
  bits: 258,
  compression: 259,
  photometric: 262,
  fillOrder: 266,
  stripOffsets: 273,
  samples: 277,
  rowsPerStrip: 278,
  stripBytes: 279,
  xResolution: 282,
  yResolution: 283,
  planar: 284,
  t4Options: 292,
  resolutionUnit: 296,
  predictor: 317,
  colorMap: 320,
  tileWidth: 322,
  extraSamples: 338,
  jpegTables: 347,
} as const;

/** Bytes of each TIFF field type (1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, 16 LONG8 is BigTIFF's). */
const TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

/** The directories of a classic TIFF, in order, up to MAX_TIFF_PAGES (a loop in the chain ends it); null when it cannot be read. */
function directories(b: Uint8Array, limit = MAX_TIFF_PAGES): { le: boolean; ifds: Ifd[] } | null {
  if (b.length < 8) return null;
  const le = b[0] === 0x49 && b[1] === 0x49;
  if (!le && !(b[0] === 0x4d && b[1] === 0x4d)) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (view.getUint16(2, le) !== 42) return null;
  const ifds: Ifd[] = [];
  const seen = new Set<number>();
  for (let at = view.getUint32(4, le); at !== 0 && ifds.length < limit; ) {
    if (seen.has(at) || at + 2 > b.length) break;
    seen.add(at);
    const count = view.getUint16(at, le);
    if (at + 2 + count * 12 + 4 > b.length) return ifds.length ? { le, ifds } : null;
    const tags = new Map<number, number[]>();
    for (let i = 0; i < count; i++) {
      const entry = at + 2 + i * 12;
      const [tag, type, n] = [view.getUint16(entry, le), view.getUint16(entry + 2, le), view.getUint32(entry + 4, le)];
      const size = TYPE_BYTES[type];
      if (!size) continue;
      const bytes = size * n;
      const start = bytes <= 4 ? entry + 8 : view.getUint32(entry + 8, le);
      if (start + bytes > b.length || n > 1 << 20) continue;
      const values: number[] = [];
      for (let k = 0; k < n; k++) {
        const p = start + k * size;
        if (type === 3 || type === 8) values.push(view.getUint16(p, le));
        else if (type === 4 || type === 9) values.push(view.getUint32(p, le));
        else if (type === 5) values.push(view.getUint32(p, le) / Math.max(1, view.getUint32(p + 4, le)));
        else values.push(b[p]!);
      }
      tags.set(tag, values);
    }
    ifds.push({ tags, next: view.getUint32(at + 2 + count * 12, le) });
    at = ifds.at(-1)!.next;
  }
  return ifds.length ? { le, ifds } : null;
}

/** The pages of a TIFF, for the quota and the page limit: its directories, at least 1 (a loop in the chain ends the count). */
export function countTiffPages(b: Uint8Array): number {
  if (b.length < 8 || !((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d))) return 1;
  const le = b[0] === 0x49;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const seen = new Set<number>();
  for (let at = view.getUint32(4, le); at !== 0 && at + 2 <= b.length && !seen.has(at); ) {
    seen.add(at);
    const next = at + 2 + view.getUint16(at, le) * 12;
    if (next + 4 > b.length) break;
    at = view.getUint32(next, le);
  }
  return Math.max(1, seen.size);
}

/** A TIFF of more pages is refused when it is counted. */
export const TIFF_PAGE_LIMIT: UnitLimit = { max: MAX_TIFF_PAGES, says: (n) => `The TIFF has ${n} pages` };

/** Each page's size in pixels (the OCR limit is checked page by page); empty when the file cannot be read. */
export function tiffSizes(b: Uint8Array): Array<{ width: number; height: number }> {
  return (directories(b)?.ifds ?? []).map((d) => ({ width: d.tags.get(TAG.width)?.[0] ?? 0, height: d.tags.get(TAG.height)?.[0] ?? 0 }));
}

/** A TIFF page as a one-page PDF holding its picture, with its size in pixels and on the page. */
export interface TiffPage {
  /** The page's PDF, built when asked (a long TIFF's pages are not all held at once); null where its data cannot be decoded. */
  pdf: () => Uint8Array | null;
  width: number;
  height: number;
  points: { width: number; height: number };
}

/** The TIFF's pages, each a one-page PDF of its picture; null where a page is stored in a way this does not carry over. */
export function tiffPages(b: Uint8Array): TiffPage[] | null {
  const read = directories(b);
  if (!read) return null;
  const pages: TiffPage[] = [];
  for (const ifd of read.ifds) {
    const page = pageAsPdf(b, ifd);
    if (!page) return null;
    pages.push(page);
  }
  return pages;
}

/**
 * Page `page` (from 1) of a TIFF as a one-page PDF, for the page view, with the page count: pdf null for a page it
 * does not have or stores as a PDF cannot hold; null for a file that cannot be read.
 */
export function tiffPagePdf(b: Uint8Array, page: number): { pdf: (() => Uint8Array | null) | null; pages: number } | null {
  const read = directories(b);
  if (!read) return null;
  const ifd = read.ifds[page - 1];
  return { pdf: (ifd && pageAsPdf(b, ifd)?.pdf) || null, pages: read.ifds.length };
}

/** The page as a one-page PDF to build, or null where it is stored as this does not carry over (checked without decoding). */
function pageAsPdf(b: Uint8Array, ifd: Ifd): TiffPage | null {
  const page = pageImages(b, ifd);
  if (!page) return null;
  const { width, height } = page;
  const points = pageSize(ifd, width, height);
  const pdf = () => {
    const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '', ''];
    const draws: string[] = [];
    const names: string[] = [];
    let row = 0;
    for (const strip of page.strips) {
      const data = strip.data();
      if (data === null) return null;
      names.push(`/S${names.length} ${objects.length + 1} 0 R`);
      // Strips from the top down; PDF's y runs up.
      const [y, h] = [points.height * (1 - (row + strip.rows) / height), (points.height * strip.rows) / height];
      draws.push(`q ${points.width} 0 0 ${h} 0 ${y} cm /S${names.length - 1} Do Q`);
      objects.push(`${strip.dictionary} /Length ${data.length} >>\nstream\n${data}\nendstream`);
      row += strip.rows;
    }
    const content = draws.join('\n');
    objects[2] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${points.width} ${points.height}] /Resources << /XObject << ${names.join(' ')} >> >> /Contents 4 0 R >>`;
    objects[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
    return assemblePdf(objects);
  };
  return { pdf, width, height, points };
}

/** Points a page of `width` x `height` pixels spans: by its resolution where that is plausible, else as other pictures. */
function pageSize(ifd: Ifd, width: number, height: number): { width: number; height: number } {
  const [x, y] = [ifd.tags.get(TAG.xResolution)?.[0] ?? 0, ifd.tags.get(TAG.yResolution)?.[0] ?? 0];
  const unit = ifd.tags.get(TAG.resolutionUnit)?.[0] ?? 2;
  // Unit 2 is the inch, 3 the centimetre; 1 (none) gives only the pixels' aspect.
  const perInch = unit === 3 ? 2.54 : 1;
  const [dpiX, dpiY] = [x * perInch, y * perInch];
  if (unit !== 1 && dpiX >= 50 && dpiX <= 2400 && dpiY >= 50 && dpiY <= 2400) return { width: (width / dpiX) * 72, height: (height / dpiY) * 72 };
  const scale = pointsPerPixel({ width, height });
  return { width: width * scale, height: height * scale };
}

interface Strip {
  rows: number;
  dictionary: string;
  /** The strip's data as a binary string, read when the PDF is built; null where it cannot be decoded. */
  data: () => string | null;
}

/**
 * A page's strips as image XObjects (dictionary open for /Length, data read when asked), or null where the page is
 * stored as this does not carry over.
 */
function pageImages(b: Uint8Array, ifd: Ifd): { width: number; height: number; strips: Strip[] } | null {
  const one = (tag: number, fallback: number) => ifd.tags.get(tag)?.[0] ?? fallback;
  const [width, height] = [one(TAG.width, 0), one(TAG.height, 0)];
  const samples = one(TAG.samples, 1);
  const bits = ifd.tags.get(TAG.bits) ?? [1];
  const depth = bits[0]!;
  const compression = one(TAG.compression, 1);
  const photometric = one(TAG.photometric, 0);
  const offsets = ifd.tags.get(TAG.stripOffsets);
  const counts = ifd.tags.get(TAG.stripBytes);
  if (!width || !height || !offsets || !counts || offsets.length !== counts.length) return null;
  if (ifd.tags.has(TAG.tileWidth) || (samples > 1 && one(TAG.planar, 1) !== 1)) return null;
  if (ifd.tags.has(TAG.extraSamples)) {
    const strip = withoutAlpha(b, ifd, width, height, samples, depth, compression, photometric);
    return strip && { width, height, strips: [strip] };
  }
  if (bits.some((d) => d !== depth) || ![1, 2, 4, 8].includes(depth)) return null;
  const colour = colourSpace(ifd, photometric, samples, depth);
  if (!colour) return null;
  const rowsPerStrip = Math.min(height, one(TAG.rowsPerStrip, height));
  const reversed = one(TAG.fillOrder, 1) === 2;
  const strips: Strip[] = [];
  for (let s = 0; s < offsets.length; s++) {
    const rows = Math.min(rowsPerStrip, height - s * rowsPerStrip);
    if (rows <= 0) break;
    const [start, length] = [offsets[s]!, counts[s]!];
    if (start + length > b.length) return null;
    const coding = filterFor(ifd, compression, photometric, width, rows, samples, depth);
    if (coding === null) return null;
    const data = () => {
      let stored = b.subarray(start, start + length);
      if (reversed) stored = stored.map((v) => REVERSED_BITS[v]!);
      if (compression === 7) stored = withJpegTables(stored, ifd.tags.get(TAG.jpegTables));
      return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength).toString('latin1');
    };
    const head = `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${rows} /BitsPerComponent ${compression === 3 || compression === 4 ? 1 : depth} /ColorSpace ${colour.space}`;
    strips.push({ rows, dictionary: `${head}${colour.decode}${coding}`, data });
  }
  return strips.length ? { width, height, strips } : null;
}

/**
 * A grey or RGB page with an alpha channel (ExtraSamples), uncompressed or Deflate, 8 bits a sample, as one strip of
 * its pixels laid over white (a premultiplied channel, 1, as such; an unassociated one, 2, weighting the colour);
 * null for any other.
 */
function withoutAlpha(b: Uint8Array, ifd: Ifd, width: number, height: number, samples: number, depth: number, compression: number, photometric: number): Strip | null {
  const channels = photometric === 1 ? 1 : photometric === 2 ? 3 : 0;
  const extra = ifd.tags.get(TAG.extraSamples) ?? [];
  const predictor = ifd.tags.get(TAG.predictor)?.[0] ?? 1;
  if (!channels || samples !== channels + 1 || extra.length !== 1 || depth !== 8 || ![1, 8, 32946].includes(compression) || predictor > 2) return null;
  if (width * height * samples > MAX_DECODED_BYTES) return null;
  const offsets = ifd.tags.get(TAG.stripOffsets)!;
  const counts = ifd.tags.get(TAG.stripBytes)!;
  const data = (): string | null => {
    const parts: Uint8Array[] = [];
    try {
      for (let s = 0; s < offsets.length; s++) {
        const stored = b.subarray(offsets[s]!, offsets[s]! + counts[s]!);
        parts.push(compression === 1 ? stored : inflateSync(stored, { maxOutputLength: width * height * samples }));
      }
    } catch {
      return null;
    }
    const samplesRead = Buffer.concat(parts);
    const rowBytes = width * samples;
    if (samplesRead.length < rowBytes * height) return null;
    const pixels = new Uint8Array(width * height * channels);
    const premultiplied = extra[0] === 1;
    for (let y = 0; y < height; y++) {
      const row = samplesRead.subarray(y * rowBytes, (y + 1) * rowBytes);
      // The horizontal predictor: each sample stored as its difference from the one a pixel before.
      if (predictor === 2) for (let i = samples; i < rowBytes; i++) row[i] = (row[i]! + row[i - samples]!) & 0xff;
      for (let x = 0; x < width; x++) {
        const a = extra[0] === 0 ? 255 : row[x * samples + channels]!;
        for (let c = 0; c < channels; c++) {
          const v = row[x * samples + c]!;
          pixels[(y * width + x) * channels + c] = premultiplied ? Math.min(255, v + 255 - a) : Math.round((v * a + 255 * (255 - a)) / 255);
        }
      }
    }
    return deflateSync(pixels, { level: 1 }).toString('latin1');
  };
  const space = channels === 1 ? '/DeviceGray' : '/DeviceRGB';
  return { rows: height, dictionary: `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent 8 /ColorSpace ${space} /Filter /FlateDecode`, data };
}

/** The PDF colour space of the page's samples, and a /Decode where PDF's sense of dark and light is the other way. */
function colourSpace(ifd: Ifd, photometric: number, samples: number, depth: number): { space: string; decode: string } | null {
  const compression = ifd.tags.get(TAG.compression)?.[0] ?? 1;
  if (compression === 3 || compression === 4) {
    // A fax's runs are white and black whatever the photometric tag; BlackIsZero (1) swaps the two.
    return samples === 1 ? { space: '/DeviceGray', decode: photometric === 1 ? ' /Decode [1 0]' : '' } : null;
  }
  if (photometric === 0 && samples === 1) return { space: '/DeviceGray', decode: ' /Decode [1 0]' };
  if (photometric === 1 && samples === 1) return { space: '/DeviceGray', decode: '' };
  if (photometric === 2 && samples === 3) return { space: '/DeviceRGB', decode: '' };
  if (photometric === 5 && samples === 4) return { space: '/DeviceCMYK', decode: '' };
  // YCbCr is JPEG's own: the DCT filter turns it back to RGB.
  if (photometric === 6 && samples === 3 && compression === 7) return { space: '/DeviceRGB', decode: '' };
  if (photometric === 3 && samples === 1) {
    const map = ifd.tags.get(TAG.colorMap);
    const entries = 1 << depth;
    if (!map || map.length < 3 * entries) return null;
    let hex = '';
    for (let i = 0; i < entries; i++) for (let c = 0; c < 3; c++) hex += (map[c * entries + i]! >> 8).toString(16).padStart(2, '0');
    return { space: `[/Indexed /DeviceRGB ${entries - 1} <${hex}>]`, decode: '' };
  }
  return null;
}

/** The filter (and its parameters) that reads the strip's coding, with the leading space; null for a coding PDF has no filter for. */
function filterFor(ifd: Ifd, compression: number, photometric: number, width: number, rows: number, samples: number, depth: number): string | null {
  const predictor = ifd.tags.get(TAG.predictor)?.[0] ?? 1;
  const parms = predictor === 2 ? ` /DecodeParms << /Predictor 2 /Colors ${samples} /BitsPerComponent ${depth} /Columns ${width} >>` : '';
  if (predictor !== 1 && predictor !== 2) return null;
  switch (compression) {
    case 1:
      return predictor === 1 ? '' : null;
    case 5:
      return ` /Filter /LZWDecode${parms}`;
    case 8:
    case 32946:
      return ` /Filter /FlateDecode${parms}`;
    case 32773:
      return predictor === 1 ? ' /Filter /RunLengthDecode' : null;
    case 7:
      return photometric === 6 || photometric === 1 || photometric === 2 ? ' /Filter /DCTDecode' : null;
    case 3:
    case 4: {
      const t4 = ifd.tags.get(TAG.t4Options)?.[0] ?? 0;
      // T4Options bit 0: two-dimensional coding (K > 0); bit 2: each line's EOL padded to a byte boundary.
      const k = compression === 4 ? -1 : t4 & 1 ? 1 : 0;
      if (compression === 3 && t4 & 2) return null; // uncompressed mode: no PDF filter reads it
      return ` /Filter /CCITTFaxDecode /DecodeParms << /K ${k} /Columns ${width} /Rows ${rows}${t4 & 4 ? ' /EncodedByteAlign true' : ''} /BlackIs1 false >>`;
    }
    default:
      return null;
  }
}

/** A JPEG strip whose tables the directory keeps apart (JPEGTables): the tables put back after its start marker. */
function withJpegTables(strip: Uint8Array, tables: number[] | undefined): Uint8Array {
  if (!tables || tables.length < 4 || strip[0] !== 0xff || strip[1] !== 0xd8) return strip;
  // JPEGTables is a JPEG stream of its own: its start and end markers go.
  const inner = Uint8Array.from(tables.slice(2, tables.at(-2) === 0xff && tables.at(-1) === 0xd9 ? -2 : undefined));
  const out = new Uint8Array(strip.length + inner.length);
  out.set(strip.subarray(0, 2));
  out.set(inner, 2);
  out.set(strip.subarray(2), 2 + inner.length);
  return out;
}

/** Each byte with its bits in the other order: FillOrder 2 stores a fax's bits lowest first. */
const REVERSED_BITS = Uint8Array.from({ length: 256 }, (_, v) => {
  let r = 0;
  for (let i = 0; i < 8; i++) if (v & (1 << i)) r |= 0x80 >> i;
  return r;
});
