// Webhook secrets at rest: the local server's key-file cipher always, and the
// KMS cipher when `npm run test:aws` points at an endpoint with KMS (moto,
// LocalStack or AWS).

import { CreateKeyCommand, ScheduleKeyDeletionCommand } from '@aws-sdk/client-kms';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kmsClient } from '../../lambdas/adapters/aws-clients.ts';
import { KmsSecretCipher } from '../../lambdas/adapters/kms-secret-cipher.ts';
import type { SecretCipher } from '../../lambdas/core/webhook-secret.ts';
import { FileSecretCipher, secretKeyFile } from '../../lib/local/file-secret-cipher.ts';
import { skipWithoutEndpoint, targetsAws } from '../support/aws-backend.ts';

const SECRET = 'whsec_an-example-secret-of-more-than-32-bytes';

async function behavesAsACipher(cipher: SecretCipher) {
  const sealed = await cipher.encrypt(SECRET, 'project-a');
  expect(sealed).not.toContain(SECRET);
  expect(await cipher.decrypt(sealed, 'project-a')).toBe(SECRET);
  expect(await cipher.encrypt(SECRET, 'project-a')).not.toBe(sealed);
  // Bound to its project: moved to another one, it does not open.
  await expect(cipher.decrypt(sealed, 'project-b')).rejects.toThrow();
}

describe('the local secret cipher', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-cipher-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('encrypts under a key file only its owner can read', async () => {
    const dir = freshDir();
    await behavesAsACipher(FileSecretCipher.open(dir));
    expect(fs.statSync(secretKeyFile(dir)).mode & 0o777).toBe(0o600);
  });

  it('opens secrets sealed before a restart, and not with another data directory', async () => {
    const dir = freshDir();
    const sealed = await FileSecretCipher.open(dir).encrypt(SECRET, 'p');
    expect(await FileSecretCipher.open(dir).decrypt(sealed, 'p')).toBe(SECRET);
    await expect(FileSecretCipher.open(freshDir()).decrypt(sealed, 'p')).rejects.toThrow();
  });
});

describe.skipIf(!targetsAws() || skipWithoutEndpoint())('the KMS secret cipher', () => {
  const kms = kmsClient({ region: process.env.AWS_REGION ?? 'us-east-1' });
  let keyId: string;
  beforeAll(async () => {
    const created = await kms.send(new CreateKeyCommand({ Description: 'docex test: webhook secrets' }));
    keyId = created.KeyMetadata!.KeyId!;
  });
  afterAll(async () => {
    if (keyId) await kms.send(new ScheduleKeyDeletionCommand({ KeyId: keyId, PendingWindowInDays: 7 }));
  });

  it('encrypts with the encryption context of the project', async () => {
    await behavesAsACipher(new KmsSecretCipher(kms, keyId));
  });
});
