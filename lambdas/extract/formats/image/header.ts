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

/** A JPEG's frame header: its size and how many colour components it has; null when it cannot be read. */
export function jpegFrame(b: Uint8Array): { width: number; height: number; components: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 2; p + 9 < b.length; ) {
    if (b[p] !== 0xff) return null;
    const marker = b[p + 1]!;
    // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the dimensions.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(p + 5), width: view.getUint16(p + 7), components: b[p + 9]! };
    }
    p += 2 + view.getUint16(p + 2);
  }
  return null;
}
