// Presigned URLs to the bucket, apart from S3Blobs because the presigner
// (with the SDK's signing code it brings, about 30 KB minified) belongs only
// in the functions that sign: uploads (PUT) and get-job (GET of a large result).

import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DownloadUrls, UploadUrls } from '../core/ports.ts';

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

export class S3DownloadUrls implements DownloadUrls {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  presignGet(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}
