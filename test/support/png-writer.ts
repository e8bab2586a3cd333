// PNGs of every colour type, depth and interlacing, written here so tests
// know exactly what each holds: a picture of a page (as PDFium renders one)
// re-encoded as a screenshot tool, a palette optimiser or a scanner's 16-bit
// output would store it. Rows cycle through the five filter types, so a
// reader must undo each.

import { deflateSync, inflateSync } from 'node:zlib';
import { pngChunk as chunk } from '../../lambdas/extract/containers/png.ts';
import { ADAM7 } from '../../lambdas/extract/containers/png-decode.ts';


/** The gray pixels of an 8-bit gray PNG written by the reader's own encoder (containers/png.ts: every row filter 0). */
export function grayPixels(png: Uint8Array): { width: number; height: number; pixels: Uint8Array } {
  const b = Buffer.from(png);
  const [width, height] = [b.readUInt32BE(16), b.readUInt32BE(20)];
  const idat: Buffer[] = [];
  for (let at = 8; at < b.length; ) {
    const length = b.readUInt32BE(at);
    if (b.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(b.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) pixels.set(raw.subarray(y * (width + 1) + 1, (y + 1) * (width + 1)), y * width);
  return { width, height, pixels };
}

export interface PngSpec {
  width: number;
  height: number;
  /** 0 gray, 2 RGB, 3 palette, 4 gray and alpha, 6 RGBA. */
  colour: 0 | 2 | 3 | 4 | 6;
  depth: 1 | 2 | 4 | 8 | 16;
  interlaced?: boolean;
  /** RGB triples, for colour type 3. */
  palette?: Uint8Array;
  transparency?: Uint8Array;
  /** The samples of the pixel at (x, y), each within the depth. */
  pixel(x: number, y: number): number[];
}

export function writePng(spec: PngSpec): Uint8Array {
  const samples = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[spec.colour];
  const bits = samples * spec.depth;
  const bpp = Math.max(1, bits >> 3);
  const passes = spec.interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const out: Buffer[] = [];
  let row = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((spec.width - x0) / dx);
    const h = Math.ceil((spec.height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const stride = Math.ceil((w * bits) / 8);
    let previous = new Uint8Array(stride);
    for (let r = 0; r < h; r++, row++) {
      const line = new Uint8Array(stride);
      let bit = 0;
      for (let c = 0; c < w; c++) {
        for (const v of spec.pixel(x0 + c * dx, y0 + r * dy)) {
          if (spec.depth === 16) {
            line[bit >> 3] = v >> 8;
            line[(bit >> 3) + 1] = v & 0xff;
          } else line[bit >> 3]! |= v << (8 - spec.depth - (bit & 7));
          bit += spec.depth;
        }
      }
      const filter = row % 5;
      const filtered = Buffer.alloc(stride + 1);
      filtered[0] = filter;
      for (let i = 0; i < stride; i++) {
        const [left, up, corner] = [i >= bpp ? line[i - bpp]! : 0, r > 0 ? previous[i]! : 0, r > 0 && i >= bpp ? previous[i - bpp]! : 0];
        const p = left + up - corner;
        const paeth = Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - corner) ? left : Math.abs(p - up) <= Math.abs(p - corner) ? up : corner;
        const predicted = [0, left, up, (left + up) >> 1, paeth][filter]!;
        filtered[i + 1] = (line[i]! - predicted) & 0xff;
      }
      out.push(filtered);
      previous = line;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(spec.width, 0);
  header.writeUInt32BE(spec.height, 4);
  header[8] = spec.depth;
  header[9] = spec.colour;
  header[12] = spec.interlaced ? 1 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(spec.palette ? [chunk('PLTE', spec.palette)] : []),
    ...(spec.transparency ? [chunk('tRNS', spec.transparency)] : []),
    chunk('IDAT', deflateSync(Buffer.concat(out))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
