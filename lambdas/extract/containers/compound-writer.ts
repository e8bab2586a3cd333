// Writes a compound file (OLE2 structured storage): what an object kept as
// storages of its own inside another compound file (an Excel 97 workbook
// inside a Word 97 document's ObjectPool) is, once written out as a file, so
// that it is read as any uploaded workbook is. Version 3 (512-byte sectors);
// streams under 4,096 bytes go in the mini stream, as the format requires.
// The header's own FAT slots are the only ones written (no DIFAT), which
// bounds a file to about 7 MB.

import { ExtractionError } from '../engine/types.ts';

const END_OF_CHAIN = 0xfffffffe;
const FREE = 0xffffffff;
const FAT_SECTOR = 0xfffffffd;
const SECTOR = 512;
const MINI = 64;
const MINI_CUTOFF = 4096;
const HEADER_FAT_SLOTS = 109;

export interface CfbStream {
  name: string;
  data: Uint8Array;
}

/** A storage (a folder of the compound file), as Outlook keeps recipients, attachments and attached messages. */
export interface CfbStorage {
  name: string;
  children: CfbNode[];
}

export type CfbNode = CfbStream | CfbStorage;

/** A compound file holding `nodes` at its top level. */
export function writeCompoundFile(nodes: CfbNode[]): Uint8Array {
  const sectors: Buffer[] = [];
  const fat: number[] = [];
  const alloc = (data: Uint8Array): number => {
    if (data.length === 0) return END_OF_CHAIN;
    const start = sectors.length;
    const n = Math.ceil(data.length / SECTOR);
    for (let i = 0; i < n; i++) {
      const s = Buffer.alloc(SECTOR);
      s.set(data.subarray(i * SECTOR, (i + 1) * SECTOR));
      sectors.push(s);
      fat.push(i === n - 1 ? END_OF_CHAIN : start + i + 1);
    }
    return start;
  };

  const miniParts: Buffer[] = [];
  const miniFat: number[] = [];
  const place = (data: Uint8Array): number => {
    if (data.length >= MINI_CUTOFF) return alloc(data);
    if (data.length === 0) return END_OF_CHAIN;
    const start = miniFat.length;
    const n = Math.ceil(data.length / MINI);
    const padded = Buffer.alloc(n * MINI);
    padded.set(data);
    miniParts.push(padded);
    for (let i = 0; i < n; i++) miniFat.push(i === n - 1 ? END_OF_CHAIN : start + i + 1);
    return start;
  };
  // Directory entries in order, the root first; each storage's children a right-leaning chain of siblings: a valid (if unbalanced) tree.
  const entries: { name: string; type: number; child: number; right: number; start: number; size: number }[] = [
    { name: 'Root Entry', type: 5, child: FREE, right: FREE, start: END_OF_CHAIN, size: 0 },
  ];
  const addChildren = (parent: number, children: CfbNode[]) => {
    let previous = -1;
    for (const node of children) {
      const index = entries.length;
      if ('data' in node) entries.push({ name: node.name, type: 2, child: FREE, right: FREE, start: place(node.data), size: node.data.length });
      else entries.push({ name: node.name, type: 1, child: FREE, right: FREE, start: 0, size: 0 });
      if (previous === -1) entries[parent]!.child = index;
      else entries[previous]!.right = index;
      previous = index;
      if (!('data' in node)) addChildren(index, node.children);
    }
  };
  addChildren(0, nodes);
  const miniStream = Buffer.concat(miniParts);
  const miniStart = alloc(miniStream);
  entries[0]!.start = miniStart;
  entries[0]!.size = miniStream.length;
  const miniFatBytes = u32s(miniFat, SECTOR);
  const miniFatStart = miniFat.length > 0 ? alloc(miniFatBytes) : END_OF_CHAIN;

  const dir = entries.map((e) => dirEntry(e.name, e.type, e.child, e.right, e.start, e.size));
  const dirStart = alloc(Buffer.concat(dir));

  // The FAT describes itself too: enough sectors for every sector, its own included.
  const used = sectors.length;
  const fatSectors = Math.ceil(used / (SECTOR / 4 - 1)) || 1;
  const fatStart = sectors.length;
  for (let i = 0; i < fatSectors; i++) fat.push(FAT_SECTOR);
  const fatBytes = u32s(fat, fatSectors * SECTOR);
  for (let i = 0; i < fatSectors; i++) sectors.push(fatBytes.subarray(i * SECTOR, (i + 1) * SECTOR));
  if (fatSectors > HEADER_FAT_SLOTS) throw new ExtractionError('refused_file', 'Refused: an object in the document is over 7 MB of storages of its own, more than is written out to read it.');

  const header = Buffer.alloc(SECTOR);
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(fatSectors, 44);
  header.writeUInt32LE(dirStart, 48);
  header.writeUInt32LE(MINI_CUTOFF, 56);
  header.writeUInt32LE(miniFatStart, 60);
  header.writeUInt32LE(Math.ceil(miniFatBytes.length / SECTOR) * (miniFat.length > 0 ? 1 : 0), 64);
  header.writeUInt32LE(END_OF_CHAIN, 68);
  for (let i = 0; i < HEADER_FAT_SLOTS; i++) header.writeUInt32LE(i < fatSectors ? fatStart + i : FREE, 76 + 4 * i);
  return new Uint8Array(Buffer.concat([header, ...sectors]));
}

function u32s(values: number[], minBytes: number): Buffer {
  const b = Buffer.alloc(Math.max(minBytes, Math.ceil((values.length * 4) / SECTOR) * SECTOR), 0xff);
  values.forEach((v, i) => b.writeUInt32LE(v, 4 * i));
  return b;
}

function dirEntry(name: string, type: number, child: number, right: number, start: number, size: number): Buffer {
  const e = Buffer.alloc(128);
  e.write(name, 0, 'utf16le');
  e.writeUInt16LE((name.length + 1) * 2, 64);
  e.writeUInt8(type, 66);
  e.writeUInt8(1, 67);
  e.writeUInt32LE(FREE, 68);
  e.writeUInt32LE(right, 72);
  e.writeUInt32LE(child, 76);
  e.writeUInt32LE(start, 116);
  e.writeUInt32LE(size, 120);
  return e;
}
