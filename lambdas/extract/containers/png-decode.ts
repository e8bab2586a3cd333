// A PNG decoded to 8-bit gray or RGB pixels, for the pictures a PDF cannot
// hold as they are (formats/image/as-page.ts): transparency (an alpha
// channel, or tRNS), a palette, 1-, 2-, 4- or 16-bit samples, Adam7
// interlacing. Transparent pixels are laid over white, as a viewer shows a
// screenshot's clear background and as OCR wants its paper. Sizes are
// checked before inflating, and the inflated data is capped, so a small
// file cannot make gigabytes.

import { inflateSync } from 'node:zlib';

export interface DecodedImage {
  width: number;
  height: number;
  /** 1: gray; 3: RGB. */
  channels: 1 | 3;
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Samples a pixel holds, by colour type: gray, RGB, palette index, gray and alpha, RGBA. */
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7's passes: first column, first row, column step, row step. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * The picture's pixels, or null where it is not a PNG this reads (damaged, an unknown colour type or depth)
 * or its filtered data or pixels would pass `maxBytes`.
 */
export function decodePng(b: Uint8Array, maxBytes: number): DecodedImage | null {
  if (b.length < 33 || SIGNATURE.some((v, i) => b[i] !== v)) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let header: { width: number; height: number; depth: number; colour: number; interlaced: boolean } | null = null;
  let palette: Uint8Array | null = null;
  let transparency: Uint8Array | null = null;
  const data: Uint8Array[] = [];
  for (let at = 8; at + 8 <= b.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    const body = b.subarray(at + 8, Math.min(b.length, at + 8 + length));
    if (type === 'IHDR' && body.length >= 13) {
      const h = new DataView(body.buffer, body.byteOffset, 13);
      header = { width: h.getUint32(0), height: h.getUint32(4), depth: body[8]!, colour: body[9]!, interlaced: body[12] === 1 };
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header || !DEPTHS[header.colour]?.includes(header.depth) || header.width === 0 || header.height === 0) return null;
  if (header.colour === 3 && !palette) return null;
  const { width, height, depth, colour } = header;
  const passes = header.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const bits = SAMPLES[colour]! * depth;
  const rowBytes = (w: number) => Math.ceil((w * bits) / 8);
  const sizes = passes.map(([x0, y0, dx, dy]) => ({ w: Math.ceil((width - x0) / dx), h: Math.ceil((height - y0) / dy) }));
  const filtered = sizes.reduce((sum, s) => sum + (s.w > 0 && s.h > 0 ? s.h * (1 + rowBytes(s.w)) : 0), 0);
  const channels = colour === 0 || colour === 4 ? 1 : 3;
  if (filtered > maxBytes || width * height * channels > maxBytes) return null;
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: filtered });
  } catch {
    return null;
  }
  if (raw.length < filtered) return null;
  const pixels = new Uint8Array(width * height * channels);
  const sample = sampleReader(colour, depth, palette, transparency);
  const rgba = new Uint8Array(4);
  let offset = 0;
  passes.forEach(([x0, y0, dx, dy], p) => {
    const { w, h } = sizes[p]!;
    if (w <= 0 || h <= 0) return;
    const stride = rowBytes(w);
    const rows = unfilter(raw.subarray(offset, offset + h * (1 + stride)), h, stride, Math.max(1, bits >> 3));
    offset += h * (1 + stride);
    for (let r = 0; r < h; r++) {
      const row = rows.subarray(r * stride, (r + 1) * stride);
      for (let c = 0; c < w; c++) {
        sample(row, c, rgba);
        const at = ((y0 + r * dy) * width + x0 + c * dx) * channels;
        // Over white: what shows through a clear pixel is the paper.
        const a = rgba[3]!;
        for (let k = 0; k < channels; k++) pixels[at + k] = a === 255 ? rgba[k]! : Math.round((rgba[k]! * a + 255 * (255 - a)) / 255);
      }
    }
  });
  return { width, height, channels, pixels };
}

/** Rows of `stride` bytes undone of their filters (PNG 9.2), without the filter bytes. */
function unfilter(data: Uint8Array, rows: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(rows * stride);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (stride + 1)]!;
    const line = data.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1));
    const at = r * stride;
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? out[at + i - bpp]! : 0;
      const up = r > 0 ? out[at - stride + i]! : 0;
      const corner = r > 0 && i >= bpp ? out[at - stride + i - bpp]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) predicted = paeth(left, up, corner);
      out[at + i] = (line[i]! + predicted) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Reads pixel `c` of a row into `out` as 8-bit RGBA (gray in the first byte for a gray picture). */
function sampleReader(colour: number, depth: number, palette: Uint8Array | null, trns: Uint8Array | null) {
  const max = (1 << depth) - 1;
  // A sample of `depth` bits, the `n`th of the row; 16-bit samples keep their full value for tRNS's comparison.
  const at = (row: Uint8Array, n: number): number => {
    if (depth === 8) return row[n]!;
    if (depth === 16) return (row[2 * n]! << 8) | row[2 * n + 1]!;
    const bit = n * depth;
    return (row[bit >> 3]! >> (8 - depth - (bit & 7))) & max;
  };
  const to8 = (v: number) => (depth === 16 ? v >> 8 : depth === 8 ? v : Math.round((v * 255) / max));
  const key = (k: number) => (trns && trns.length >= 2 * k + 2 ? (trns[2 * k]! << 8) | trns[2 * k + 1]! : -1);
  return (row: Uint8Array, c: number, out: Uint8Array): void => {
    if (colour === 0) {
      const v = at(row, c);
      out[0] = to8(v);
      out[3] = v === key(0) ? 0 : 255;
    } else if (colour === 2) {
      const [r, g, b] = [at(row, 3 * c), at(row, 3 * c + 1), at(row, 3 * c + 2)];
      [out[0], out[1], out[2]] = [to8(r), to8(g), to8(b)];
      out[3] = r === key(0) && g === key(1) && b === key(2) ? 0 : 255;
    } else if (colour === 3) {
      const i = at(row, c);
      // An index past the palette's end shows black.
      [out[0], out[1], out[2]] = [palette![3 * i] ?? 0, palette![3 * i + 1] ?? 0, palette![3 * i + 2] ?? 0];
      out[3] = trns?.[i] ?? 255;
    } else if (colour === 4) {
      out[0] = to8(at(row, 2 * c));
      out[3] = to8(at(row, 2 * c + 1));
    } else {
      [out[0], out[1], out[2], out[3]] = [to8(at(row, 4 * c)), to8(at(row, 4 * c + 1)), to8(at(row, 4 * c + 2)), to8(at(row, 4 * c + 3))];
    }
  };
}
