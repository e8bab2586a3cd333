// What an image's header says before any decoding: its size in pixels (PNG,
// JPEG, TIFF), and a JPEG's colour components, so an image that would decode
// to gigabytes is refused first and a picture is wrapped for the PDF reader
// only as it is.

/** Width and height from a PNG, JPEG or TIFF header; null when the header cannot be read. */
export function imageSize(b: Uint8Array): { width: number; height: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b[0] === 0x89 && b[1] === 0x50) {
    if (b.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    const frame = jpegFrame(b);
    return frame && { width: frame.width, height: frame.height };
  }
  if ((b[0] === 0x49 && b[1] === 0x49) || (b[0] === 0x4d && b[1] === 0x4d)) {
    const le = b[0] === 0x49;
    if (b.length < 8) return null;
    const ifd = view.getUint32(4, le);
    if (ifd + 2 > b.length) return null;
    const count = view.getUint16(ifd, le);
    let width = 0;
    let height = 0;
    for (let i = 0; i < count; i++) {
      const at = ifd + 2 + i * 12;
      if (at + 12 > b.length) return null;
      const tag = view.getUint16(at, le);
      const type = view.getUint16(at + 2, le);
      const value = type === 3 ? view.getUint16(at + 8, le) : view.getUint32(at + 8, le);
      if (tag === 256) width = value;
      if (tag === 257) height = value;
    }
    return width > 0 && height > 0 ? { width, height } : null;
  }
  return null;
}

/** A JPEG's frame header: its size, how many colour components it has, and whether Adobe's mark comes before it; null when it cannot be read. */
export function jpegFrame(b: Uint8Array): { width: number; height: number; components: number; adobe: boolean } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let adobe = false;
  for (let p = 2; p + 9 < b.length; ) {
    if (b[p] !== 0xff) return null;
    const marker = b[p + 1]!;
    // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the dimensions.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(p + 5), width: view.getUint16(p + 7), components: b[p + 9]!, adobe };
    }
    // APP14 "Adobe": Photoshop's mark, whose CMYK is stored inverted.
    if (marker === 0xee && String.fromCharCode(...b.subarray(p + 4, p + 9)) === 'Adobe') adobe = true;
    p += 2 + view.getUint16(p + 2);
  }
  return null;
}

/**
 * A JPEG's Exif orientation (1 to 8, 1 when it has none): how the stored picture is turned to be shown. A phone
 * held on its side stores the page on its side and says so here (6: turn a quarter clockwise).
 */
export function jpegOrientation(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 2; p + 4 <= b.length && b[p] === 0xff; ) {
    const marker = b[p + 1]!;
    const length = view.getUint16(p + 2);
    // The Exif segments come before the frame; the scan ends the headers.
    if (marker === 0xda || (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) return 1;
    if (marker === 0xe1 && p + 10 <= b.length && String.fromCharCode(...b.subarray(p + 4, p + 10)) === 'Exif\0\0') return exifOrientation(view, p + 10, Math.min(p + 2 + length, b.length));
    p += 2 + length;
  }
  return 1;
}

/** The orientation tag (274) of the TIFF structure at `tiff` (Exif's first directory), before `end`. */
function exifOrientation(view: DataView, tiff: number, end: number): number {
  if (tiff + 8 > end) return 1;
  const le = view.getUint16(tiff) === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, le);
  if (ifd + 2 > end) return 1;
  const count = view.getUint16(ifd, le);
  for (let i = 0; i < count && ifd + 2 + (i + 1) * 12 <= end; i++) {
    const at = ifd + 2 + i * 12;
    if (view.getUint16(at, le) !== 274) continue;
    const value = view.getUint16(at + 8, le);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
