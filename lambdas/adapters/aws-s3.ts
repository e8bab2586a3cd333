// S3: its client, and the stack's bucket as blob store and upload target.

import { S3Client } from '@aws-sdk/client-s3';
import { env } from '../../lib/wiring.ts';
import type { Infrastructure } from './compose.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { S3Blobs } from './s3-blobs.ts';
import { S3UploadUrls } from './s3-upload-urls.ts';

export function s3Client(options: ClientOptions = {}): S3Client {
  const customEndpoint = options.s3Endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  return withoutSdkLogger(new S3Client({
    endpoint: options.s3Endpoint,
    region: options.region,
    credentials: options.credentials,
    // Emulators serve buckets by path, not by virtual-host DNS names.
    forcePathStyle: customEndpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }));
}

export const awsBucket = {
  blobs: () => new S3Blobs(s3Client(), requiredEnv(env.bucket)),
  uploadUrls: () => new S3UploadUrls(s3Client(), requiredEnv(env.bucket)),
} satisfies Partial<Infrastructure>;
