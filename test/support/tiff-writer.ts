// TIFFs written here, for the ways of storing a page the committed fixtures
// (Pillow's Group 4 fax and LZW: test/fixtures/README.md) leave out: no
// compression with WhiteIsZero, PackBits, Deflate with the horizontal
// predictor, a palette, an alpha channel, several strips. Little-endian, one directory per page.

import { deflateSync } from 'node:zlib';

export interface TiffPageSpec {
  width: number;
  height: number;
  /** 1 none, 8 Deflate, 32773 PackBits. */
  compression: 1 | 8 | 32773;
  /** 0 WhiteIsZero, 1 BlackIsZero, 2 RGB, 3 palette. */
  photometric: 0 | 1 | 2 | 3;
  bits: 1 | 8;
  samples: 1 | 2 | 3 | 4;
  /** ExtraSamples: 1 premultiplied alpha, 2 unassociated alpha (the last sample). */
  extraSamples?: 1 | 2;
  rowsPerStrip?: number;
  predictor?: 1 | 2;
  /** 16-bit red, then green, then blue entries, for photometric 3. */
  colorMap?: number[];
  /** The page's samples, row by row, packed as TIFF stores them before compression. */
  rows: Uint8Array[];
}

export function writeTiff(pages: TiffPageSpec[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0x49, 0x49, 42, 0, 0, 0, 0, 0])];
  let size = 8;
  const add = (b: Buffer) => {
    const at = size;
    parts.push(b);
    size += b.length;
    if (size % 2) add(Buffer.alloc(1));
    return at;
  };
  let link = 4; // where the offset of the next directory goes
  for (const page of pages) {
    const perStrip = page.rowsPerStrip ?? page.height;
    const strips: number[] = [];
    const lengths: number[] = [];
    for (let y = 0; y < page.height; y += perStrip) {
      const raw = Buffer.concat(page.rows.slice(y, y + perStrip).map((r) => (page.predictor === 2 ? differenced(r, page.samples) : Buffer.from(r))));
      const data = page.compression === 8 ? deflateSync(raw) : page.compression === 32773 ? packBits(page.rows.slice(y, y + perStrip)) : raw;
      lengths.push(data.length);
      strips.push(add(data));
    }
    const longs = (values: number[]) => {
      const b = Buffer.alloc(4 * values.length);
      values.forEach((v, i) => b.writeUInt32LE(v, 4 * i));
      return b;
    };
    const shorts = (values: number[]) => {
      const b = Buffer.alloc(2 * values.length);
      values.forEach((v, i) => b.writeUInt16LE(v, 2 * i));
      return b;
    };
    // [tag, type, count, value or offset]
    const entries: Array<[number, number, number, number]> = [
      [256, 4, 1, page.width],
      [257, 4, 1, page.height],
      [258, 3, 1, page.bits],
      [259, 3, 1, page.compression],
      [262, 3, 1, page.photometric],
      [273, 4, strips.length, strips.length === 1 ? strips[0]! : add(longs(strips))],
      [277, 3, 1, page.samples],
      [278, 4, 1, perStrip],
      [279, 4, lengths.length, lengths.length === 1 ? lengths[0]! : add(longs(lengths))],
      ...(page.predictor === 2 ? [[317, 3, 1, 2] as [number, number, number, number]] : []),
      ...(page.colorMap ? [[320, 3, page.colorMap.length, add(shorts(page.colorMap))] as [number, number, number, number]] : []),
      ...(page.extraSamples ? [[338, 3, 1, page.extraSamples] as [number, number, number, number]] : []),
    ];
    entries.sort((a, b) => a[0] - b[0]);
    const ifd = Buffer.alloc(2 + 12 * entries.length + 4);
    ifd.writeUInt16LE(entries.length, 0);
    entries.forEach(([tag, type, count, value], i) => {
      const at = 2 + 12 * i;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(count, at + 4);
      if (type === 3 && count === 1) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    const at = add(ifd);
    const all = Buffer.concat(parts);
    all.writeUInt32LE(at, link);
    parts.length = 0;
    parts.push(all);
    link = at + 2 + 12 * entries.length;
  }
  return Buffer.concat(parts);
}

/** Each sample less the one before it in its row (Predictor 2), for 8-bit samples. */
function differenced(row: Uint8Array, samples: number): Buffer {
  const out = Buffer.from(row);
  for (let i = row.length - 1; i >= samples; i--) out[i] = (row[i]! - row[i - samples]!) & 0xff;
  return out;
}

/** PackBits, row by row (TIFF's runs never cross a row): literal runs only where no byte repeats. */
function packBits(rows: Uint8Array[]): Buffer {
  const out: number[] = [];
  for (const row of rows) {
    let i = 0;
    while (i < row.length) {
      let run = 1;
      while (i + run < row.length && run < 128 && row[i + run] === row[i]) run++;
      if (run > 1) {
        out.push(257 - run, row[i]!);
        i += run;
      } else {
        let n = 1;
        while (i + n < row.length && n < 128 && row[i + n] !== row[i + n - 1]) n++;
        out.push(n - 1, ...row.subarray(i, i + n));
        i += n;
      }
    }
  }
  return Buffer.from(out);
}
