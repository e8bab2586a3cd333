// Turning what callers have (paths, Buffers, Blobs, streams) into named Blobs
// for a multipart body, with nothing beyond the platform.

export type FileData = Blob | Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A path (Node), a File (browser or Node 20+), or data with a name. */
export type FileInput = string | File | { name: string; data: FileData; type?: string };

export interface NamedBlob {
  name: string;
  blob: Blob;
}

export async function toNamedBlob(input: FileInput): Promise<NamedBlob> {
  if (typeof input === 'string') return readPath(input);
  if (typeof File !== 'undefined' && input instanceof File) return { name: input.name, blob: input };
  const { name, data, type } = input as { name: string; data: FileData; type?: string };
  if (!name) throw new TypeError('Each file needs a name: pass { name, data }.');
  return { name, blob: await toBlob(data, type) };
}

async function toBlob(data: FileData, type?: string): Promise<Blob> {
  const options = type ? { type } : {};
  if (data instanceof Blob) return type ? new Blob([data], options) : data;
  if (data instanceof Uint8Array) return new Blob([new Uint8Array(data)], options);
  if (data instanceof ArrayBuffer) return new Blob([data], options);
  const parts: Uint8Array[] = [];
  if (typeof (data as ReadableStream).getReader === 'function') {
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  } else {
    for await (const chunk of data as AsyncIterable<Uint8Array>) parts.push(chunk);
  }
  return new Blob(parts.map((p) => new Uint8Array(p)), options);
}

async function readPath(path: string): Promise<NamedBlob> {
  const { readFile } = await import('node:fs/promises');
  const { basename } = await import('node:path');
  return { name: basename(path), blob: new Blob([new Uint8Array(await readFile(path))]) };
}
