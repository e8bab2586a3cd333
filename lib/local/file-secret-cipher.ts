// The local server's stand-in for KMS: AES-256-GCM under a key file in the
// data directory, readable by its owner only. The context (the project id) is
// authenticated data, so a ciphertext moved to another project fails to open,
// as KMS's encryption context makes it fail in AWS.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretCipher } from '../../lambdas/core/webhook-secret.ts';

export const secretKeyFile = (dataDir: string) => path.join(dataDir, 'webhook-secrets.key');

export class FileSecretCipher implements SecretCipher {
  private constructor(private readonly key: Buffer) {}

  /** Creates the key file on first use (mode 0600, never overwritten). */
  static open(dataDir: string): FileSecretCipher {
    const file = secretKeyFile(dataDir);
    try {
      fs.writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const key = fs.readFileSync(file);
    if (key.length !== 32) throw new Error(`${file} is not a 32-byte key; restore it from a backup (secrets encrypted under it cannot be read otherwise).`);
    return new FileSecretCipher(key);
  }

  async encrypt(plaintext: string, context: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
  }

  async decrypt(ciphertext: string, context: string): Promise<string> {
    const [version, iv, tag, sealed] = ciphertext.split('.');
    if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('not a ciphertext of the local secret cipher');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
  }
}
