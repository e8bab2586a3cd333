import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretCipher } from '../core/webhook-secret.ts';

/**
 * Webhook secrets under the stack's KMS key. The encryption context binds each
 * ciphertext to its project: KMS refuses to decrypt it under any other.
 */
export class KmsSecretCipher implements SecretCipher {
  constructor(
    private readonly kms: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: string): Promise<string> {
    const { CiphertextBlob } = await this.kms.send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: encryptionContext(context) }),
    );
    if (!CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return Buffer.from(CiphertextBlob).toString('base64');
  }

  async decrypt(ciphertext: string, context: string): Promise<string> {
    const { Plaintext } = await this.kms.send(
      new DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(ciphertext, 'base64'), EncryptionContext: encryptionContext(context) }),
    );
    if (!Plaintext) throw new Error('KMS Decrypt returned no plaintext');
    return Buffer.from(Plaintext).toString('utf8');
  }
}

const encryptionContext = (projectId: string) => ({ purpose: 'docex-webhook-secret', project_id: projectId });
