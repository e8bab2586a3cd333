import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { UploadUrls } from '../core/ports.ts';

export class S3UploadUrls implements UploadUrls {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  presignPut(key: string, _contentType: string | null, expiresInSeconds: number): Promise<string> {
    // No Content-Type is signed: a client sending another one would get a bare 403 from S3, and detection reads the bytes anyway.
    return getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}
