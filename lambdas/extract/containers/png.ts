// A minimal PNG encoder for 8-bit grayscale, which is all OCR of a rendered
// page needs: the renderer hands over raw pixels and tesseract reads files.

import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** A PNG chunk: length, type, data and the CRC over type and data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.byteLength, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  // A chunk's CRC covers its type and data (zlib's CRC-32, the one PNG specifies).
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))));
  return Buffer.concat([head, data, crc]);
}

/** `pixels` holds `height` rows of `width` gray bytes, each row starting `stride` bytes after the last. */
export function encodeGrayPng(pixels: Uint8Array, width: number, height: number, stride = width, dpi?: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grayscale
  // Each row is prefixed with filter type 0 (none); deflate does the work.
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * stride, y * stride + width), y * (width + 1) + 1);
  // pHYs (pixels per metre): a reader told the resolution need not guess it (tesseract prints its guess on every page).
  const physical = dpi ? [pngChunk('pHYs', physicalChunk(dpi))] : [];
  return Buffer.concat([SIGNATURE, pngChunk('IHDR', header), ...physical, pngChunk('IDAT', deflateSync(raw, { level: 6 })), pngChunk('IEND', new Uint8Array(0))]);
}

function physicalChunk(dpi: number): Uint8Array {
  const perMetre = Math.round(dpi / 0.0254);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(perMetre, 0);
  data.writeUInt32BE(perMetre, 4);
  data[8] = 1; // unit: metre
  return data;
}
