// A picture of a page as a one-page PDF holding just that picture, for the
// engine to read as it reads a scanned PDF page (OCR, then the layout
// analysis: headings, paragraphs, lists, tables). A picture says nothing
// reliable about the size of the page it shows, so its longer side is taken
// for a letter page's (11 inches): the reader renders that at about 200 dpi
// for OCR, which enlarges a small picture (a page photographed or saved at
// 72 dpi) to letters OCR reads well. A JPEG (grey, RGB or CMYK) and an
// 8-bit grey or RGB PNG without transparency or interlacing go in as
// they are; any other PNG (a screenshot's alpha channel, a palette, 16-bit
// or interlaced) is decoded to grey or RGB pixels, laid over white, first.
// TIFFs go page by page (tiff.ts); other pictures are OCR'd directly.

import { deflateSync } from 'node:zlib';
import { assemblePdf } from '../../containers/pdf-assembly.ts';
import { decodePng } from '../../containers/png-decode.ts';
import { jpegFrame } from './header.ts';

/** Bytes a picture may decode to (a PNG's filtered data and pixels, a TIFF page's samples) to be read as a page: 30 megapixels of RGB. */
export const MAX_DECODED_BYTES = 90 * 1024 * 1024;

/** Points on the page's longer side: a letter page's 11 inches. */
const LONGER_SIDE = 792;

/** Points per pixel of the picture on its page: boxes on the page divide by this to be the picture's pixels again. */
export const pointsPerPixel = (size: { width: number; height: number }) => LONGER_SIDE / Math.max(size.width, size.height, 1);

/**
 * `turn`: quarter turns clockwise the picture is shown at (a JPEG's Exif orientation): the page is turned so, and is
 * read, and its elements boxed, as shown.
 */
export function pictureAsPdf(bytes: Uint8Array, size: { width: number; height: number }, turn = 0): Uint8Array | null {
  const image = pictureXObject(bytes, size);
  if (!image) return null;
  const scale = pointsPerPixel(size);
  const [w, h] = [size.width * scale, size.height * scale];
  const content = `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`;
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}]${turn ? ` /Rotate ${90 * turn}` : ''} /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `${image.dictionary} /Length ${image.data.length} >>\nstream\n${image.data}\nendstream`,
  ]);
}

/** The image XObject's dictionary (open, for /Length to close it) and its data as a binary string; null for a picture a PDF cannot hold as it is. */
export function pictureXObject(b: Uint8Array, size: { width: number; height: number }): { dictionary: string; data: string } | null {
  const head = `<< /Type /XObject /Subtype /Image /Width ${size.width} /Height ${size.height} /BitsPerComponent 8`;
  const latin1 = (part: Uint8Array) => Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('latin1');
  if (b[0] === 0xff && b[1] === 0xd8) {
    const frame = jpegFrame(b);
    const space = { 1: '/DeviceGray', 3: '/DeviceRGB', 4: '/DeviceCMYK' }[frame?.components ?? 0];
    if (!frame || !space) return null;
    // A CMYK JPEG with Adobe's mark (Photoshop's, Pillow's) stores its inks inverted; PDF reads them as stored.
    const decode = frame.components === 4 && frame.adobe ? ' /Decode [1 0 1 0 1 0 1 0]' : '';
    return { dictionary: `${head} /ColorSpace ${space}${decode} /Filter /DCTDecode`, data: latin1(b) };
  }
  if (b[0] === 0x89 && b[1] === 0x50 && b.length >= 29) {
    const [depth, colour, interlace] = [b[24], b[25], b[28]];
    if (depth !== 8 || (colour !== 0 && colour !== 2) || interlace !== 0) {
      const image = decodePng(b, MAX_DECODED_BYTES);
      if (!image) return null;
      return {
        dictionary: `${head} /ColorSpace /Device${image.channels === 1 ? 'Gray' : 'RGB'} /Filter /FlateDecode`,
        data: latin1(deflateSync(image.pixels, { level: 1 })),
      };
    }
    // PNG's IDAT data is what FlateDecode with PNG predictors reads.
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const idat: Uint8Array[] = [];
    for (let at = 8; at + 8 <= b.length; ) {
      const length = view.getUint32(at);
      if (String.fromCharCode(...b.subarray(at + 4, at + 8)) === 'IDAT') idat.push(b.subarray(at + 8, at + 8 + length));
      at += 12 + length;
    }
    const colours = colour === 0 ? 1 : 3;
    return {
      dictionary: `${head} /ColorSpace /Device${colours === 1 ? 'Gray' : 'RGB'} /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${colours} /BitsPerComponent 8 /Columns ${size.width} >>`,
      data: latin1(Buffer.concat(idat)),
    };
  }
  return null;
}
