import { describe, expect, it } from 'vitest';
import { decodePng } from '../../../lambdas/extract/containers/png-decode.ts';
import { writePng, type PngSpec } from '../../support/png-writer.ts';

const [W, H] = [13, 9];
/** A level from 0 to 1 that differs from pixel to pixel, so a pixel put in the wrong place shows. */
const level = (x: number, y: number) => ((x * 7 + y * 13) % 17) / 16;
const MB = 1024 * 1024;

/** Every pixel of `spec` decoded: each sample's 8-bit value, channels as decoded. */
function decoded(spec: Omit<PngSpec, 'width' | 'height'>) {
  const image = decodePng(writePng({ width: W, height: H, ...spec }), MB);
  expect(image).not.toBeNull();
  expect(image).toMatchObject({ width: W, height: H });
  return image!;
}

describe('PNG decoding, for pictures a PDF cannot hold as they are', () => {
  for (const interlaced of [false, true]) {
    const how = interlaced ? 'interlaced (Adam7)' : 'not interlaced';
    it(`reads gray at 1, 2, 4, 8 and 16 bits, ${how}, every row filter undone`, () => {
      for (const depth of [1, 2, 4, 8, 16] as const) {
        const max = 2 ** depth - 1;
        const image = decoded({ colour: 0, depth, interlaced, pixel: (x, y) => [Math.round(level(x, y) * max)] });
        expect(image.channels).toBe(1);
        for (let y = 0; y < H; y++)
          for (let x = 0; x < W; x++) {
            const v = Math.round(level(x, y) * max);
            const want = depth === 16 ? v >> 8 : Math.round((v * 255) / max);
            expect(image.pixels[y * W + x], `${depth}-bit (${x}, ${y})`).toBe(want);
          }
      }
    });

    it(`reads RGB at 8 and 16 bits and a palette at 1 to 8 bits as RGB, ${how}`, () => {
      for (const depth of [8, 16] as const) {
        const image = decoded({ colour: 2, depth, interlaced, pixel: (x, y) => [x * 19, y * 23, Math.round(level(x, y) * 255)].map((v) => (depth === 16 ? v * 257 : v)) });
        expect(image.channels).toBe(3);
        expect([...image.pixels.subarray((4 * W + 5) * 3, (4 * W + 5) * 3 + 3)]).toEqual([5 * 19, 4 * 23, Math.round(level(5, 4) * 255)]);
      }
      for (const depth of [1, 2, 4, 8] as const) {
        const colours = 2 ** depth;
        const palette = Uint8Array.from({ length: colours * 3 }, (_, i) => (i * 37) % 256);
        const image = decoded({ colour: 3, depth, interlaced, palette, pixel: (x, y) => [(x + y) % colours] });
        const i = (6 + 3) % colours;
        expect([...image.pixels.subarray((3 * W + 6) * 3, (3 * W + 6) * 3 + 3)], `${depth}-bit palette`).toEqual([...palette.subarray(i * 3, i * 3 + 3)]);
      }
    });
  }

  it('lays transparent pixels over white: an alpha channel, a palette\'s alpha and tRNS\'s colour key', () => {
    // A screenshot's clear background: black, wholly transparent; half-transparent black is mid gray.
    const rgba = decoded({ colour: 6, depth: 8, pixel: (x) => (x === 0 ? [0, 0, 0, 0] : x === 1 ? [0, 0, 0, 128] : [10, 20, 30, 255]) });
    expect([...rgba.pixels.subarray(0, 9)]).toEqual([255, 255, 255, 127, 127, 127, 10, 20, 30]);
    const grayAlpha = decoded({ colour: 4, depth: 16, pixel: (x) => (x === 0 ? [0, 0] : [0, 65535]) });
    expect([...grayAlpha.pixels.subarray(0, 2)]).toEqual([255, 0]);
    const keyed = decoded({ colour: 0, depth: 8, transparency: Uint8Array.of(0, 7), pixel: (x) => [x === 0 ? 7 : 8] });
    expect([...keyed.pixels.subarray(0, 2)]).toEqual([255, 8]);
    const palette = decoded({ colour: 3, depth: 8, palette: Uint8Array.of(0, 0, 0, 200, 0, 0), transparency: Uint8Array.of(0), pixel: (x) => [x === 0 ? 0 : 1] });
    expect([...palette.pixels.subarray(0, 6)]).toEqual([255, 255, 255, 200, 0, 0]);
  });

  it('refuses what would decode past its budget, a damaged file and an unknown depth, rather than guessing', () => {
    const big = writePng({ width: 2000, height: 1000, colour: 6, depth: 8, pixel: () => [0, 0, 0, 255] });
    expect(decodePng(big, MB)).toBeNull();
    expect(decodePng(big, 16 * MB)).not.toBeNull();
    const png = writePng({ width: W, height: H, colour: 2, depth: 8, pixel: () => [1, 2, 3] });
    expect(decodePng(png.subarray(0, png.length - 30), MB)).toBeNull();
    const odd = Uint8Array.from(png);
    odd[24] = 3; // RGB at 3 bits: no such depth
    expect(decodePng(odd, MB)).toBeNull();
    expect(decodePng(Uint8Array.of(1, 2, 3), MB)).toBeNull();
  });
});
