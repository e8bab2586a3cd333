// Builds TAR archives and gzip files in code, as GNU tar and gzip write them,
// so no test depends on a binary fixture.

import { crc32, deflateRawSync } from 'node:zlib';

export interface TarMember {
  name: string;
  data?: string | Uint8Array;
  /** '0' a file (the default), '5' a directory, '2' a symbolic link. */
  type?: '0' | '5' | '2';
}

/** A ustar archive; a name over 100 bytes is written as GNU tar writes it (a `././@LongLink` entry), or as a pax `path` record with `pax`. */
export function makeTar(members: TarMember[], { pax = false } = {}): Uint8Array {
  const blocks: Buffer[] = [];
  const add = (name: string, type: string, data: Buffer) => {
    blocks.push(header(name.slice(0, 100), type, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  };
  for (const m of members) {
    const data = typeof m.data === 'string' ? Buffer.from(m.data, 'utf8') : Buffer.from(m.data ?? new Uint8Array());
    if (Buffer.byteLength(m.name) > 100) {
      if (pax) {
        const record = (body: string) => {
          const len = Buffer.byteLength(body) + 3;
          const n = len + String(len).length - 1;
          return `${String(n).length === String(len).length ? n : n + 1} ${body}\n`;
        };
        add('PaxHeaders/x', 'x', Buffer.from(record(`path=${m.name}`), 'utf8'));
      } else add('././@LongLink', 'L', Buffer.from(`${m.name}\0`, 'utf8'));
    }
    add(m.name, m.type ?? '0', m.type === '5' || m.type === '2' ? Buffer.alloc(0) : data);
  }
  blocks.push(Buffer.alloc(1024));
  return new Uint8Array(Buffer.concat(blocks));
}

function header(name: string, type: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  h.write('00000000000\0', 136, 'latin1');
  h.write(type, 156, 'latin1');
  h.write('ustar  \0', 257, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** A gzip file of `data`, keeping `name` in its header (FNAME) as `gzip` does, or no name, as `tar -z` writes. */
export function makeGzip(data: Uint8Array | string, name?: string): Uint8Array {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  const head = Buffer.from([0x1f, 0x8b, 0x08, name ? 0x08 : 0, 0, 0, 0, 0, 0, 0x03]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(bytes) >>> 0, 0);
  trailer.writeUInt32LE(bytes.length >>> 0, 4);
  return new Uint8Array(Buffer.concat([head, ...(name ? [Buffer.from(`${name}\0`, 'latin1')] : []), deflateRawSync(bytes), trailer]));
}
