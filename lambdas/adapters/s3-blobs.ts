import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { Blobs } from '../core/ports.ts';

export class S3Blobs implements Blobs {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, bytes: Uint8Array, contentType = 'application/octet-stream'): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }

  /** Parts of this size (S3 wants at least 5 MiB but for the last): 10,000 of them, S3's most, make 80 GiB. */
  static readonly PART_BYTES = 8 * 1024 * 1024;

  async putStream(key: string, pieces: AsyncIterable<string>, contentType = 'application/octet-stream'): Promise<number> {
    let buffered: Buffer[] = [];
    let size = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
    const upload = async () => {
      const body = Buffer.concat(buffered, size);
      [buffered, size] = [[], 0];
      uploadId ??= (await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }))).UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await this.s3.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: body }));
      parts.push({ ETag, PartNumber });
    };
    try {
      for await (const piece of pieces) {
        const bytes = Buffer.from(piece, 'utf8');
        buffered.push(bytes);
        size += bytes.byteLength;
        total += bytes.byteLength;
        if (size >= S3Blobs.PART_BYTES) await upload();
      }
      // Small enough for one request: no multipart upload at all.
      if (!uploadId) {
        await this.put(key, Buffer.concat(buffered, size), contentType);
        return total;
      }
      if (size > 0) await upload();
      await this.s3.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      return total;
    } catch (error) {
      // Uploaded parts are stored (and billed) until aborted; the bucket's lifecycle rule aborts any this misses.
      if (uploadId) await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) return null;
      // Read into one buffer of the object's length: collecting the chunks and joining them held a large document twice.
      const length = object.ContentLength;
      const body = object.Body as unknown as AsyncIterable<Uint8Array>;
      if (length === undefined || typeof body[Symbol.asyncIterator] !== 'function') return await object.Body.transformToByteArray();
      const bytes = new Uint8Array(length);
      let at = 0;
      for await (const chunk of body) {
        if (at + chunk.byteLength > length) throw new Error(`${key} is longer than the ${length} bytes S3 announced`);
        bytes.set(chunk, at);
        at += chunk.byteLength;
      }
      if (at !== length) throw new Error(`${key} ended after ${at} of the ${length} bytes S3 announced`);
      return bytes;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async getRange(key: string, start: number, end: number): Promise<Uint8Array | null> {
    // An empty range is not a valid Range header, and there is nothing to fetch.
    if (end <= start) return new Uint8Array(0);
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end - 1}` }));
      const bytes = object.Body ? await object.Body.transformToByteArray() : null;
      if (bytes && bytes.byteLength !== end - start) throw new Error(`asked ${key} for bytes ${start}-${end - 1} and got ${bytes.byteLength} bytes`);
      return bytes;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
