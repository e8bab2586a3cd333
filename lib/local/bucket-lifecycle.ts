// The bucket's lifecycle rules (lib/wiring.ts bucketExpiry), played on the
// local server: s3rver has no lifecycle, so a sweep deletes what S3 would
// expire. In AWS, S3 itself applies the same rules to the bucket.

import { DeleteObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { BucketExpirySpec } from '../wiring.ts';

const DAY_MS = 24 * 3600 * 1000;

/** Deletes every object under a rule's prefix written more than its days before `now` (scaled by `timeScale`); returns how many. */
export async function sweepExpired(s3: S3Client, bucket: string, rules: BucketExpirySpec[], now: number, timeScale = 1): Promise<number> {
  let deleted = 0;
  for (const rule of rules) {
    const cutoff = now - rule.days * DAY_MS * timeScale;
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: rule.prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified && object.LastModified.getTime() <= cutoff) {
          await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
          deleted++;
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return deleted;
}

/** Sweeps at start and then every `everyMs` (an hour, scaled); errors are logged and the next sweep tries again. */
export function startLifecycleSweeps(
  s3: S3Client,
  bucket: string,
  rules: BucketExpirySpec[],
  opts: { timeScale: number; log: (message: string) => void },
): { stop(): Promise<void> } {
  const everyMs = Math.max(1000, 3600 * 1000 * opts.timeScale);
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = sweepExpired(s3, bucket, rules, Date.now(), opts.timeScale).catch((error) => opts.log(`bucket lifecycle sweep: ${String(error)}`));
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
