// Webhooks as the cloud takes and sends them: https:// to public addresses
// only, secrets sealed with the stack's KMS key (KMS serves nothing else here).

import { KMSClient } from '@aws-sdk/client-kms';
import { env } from '../../lib/wiring.ts';
import type { Infrastructure } from './compose.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { KmsSecretCipher } from './kms-secret-cipher.ts';
import { createWebhookSender, systemLookupHost } from './webhook-http.ts';

export const kmsClient = (options: ClientOptions = {}) => withoutSdkLogger(new KMSClient({ region: options.region, credentials: options.credentials }));

const kmsCipher = () => new KmsSecretCipher(kmsClient(), requiredEnv(env.webhookKeyId));

export const awsWebhooks = {
  webhookIntake: () => ({ allowLoopbackHttp: false, lookupHost: systemLookupHost, cipher: kmsCipher() }),
  webhookCipher: kmsCipher,
  deliverySender: () => createWebhookSender({ allowLoopback: false }),
  // Below API Gateway's 29 s integration limit, so a slow receiver is reported, not a gateway timeout.
  testSender: () => createWebhookSender({ allowLoopback: false, timeoutMs: 25_000 }),
} satisfies Partial<Infrastructure>;
