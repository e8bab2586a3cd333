// S3: its client, and the stack's bucket as blob store and signer of URLs.
// One factory per part of compose()'s Infrastructure, so a function that does
// not sign URLs does not bundle the presigner.

import { S3Client } from '@aws-sdk/client-s3';
import { env } from '../../lib/wiring-runtime.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { S3Blobs } from './s3-blobs.ts';
import { S3DownloadUrls, S3UploadUrls } from './s3-signed-urls.ts';

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

let shared: S3Client | undefined;
const client = () => (shared ??= s3Client());

export const blobs = () => new S3Blobs(client(), requiredEnv(env.bucket));
export const uploadUrls = () => new S3UploadUrls(client(), requiredEnv(env.bucket));
export const downloadUrls = () => new S3DownloadUrls(client(), requiredEnv(env.bucket));
