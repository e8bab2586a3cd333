// Webhooks as the cloud takes and sends them: https:// to public addresses
// only, secrets sealed with the stack's KMS key (KMS serves nothing else here).

import { KMSClient } from '@aws-sdk/client-kms';
import { env } from '../../lib/wiring.ts';
import type { WebhookIntake } from '../core/webhook-target.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { KmsSecretCipher } from './kms-secret-cipher.ts';
import { createWebhookSender, systemLookupHost } from './webhook-http.ts';

export const kmsClient = (options: ClientOptions = {}) => withoutSdkLogger(new KMSClient({ region: options.region, credentials: options.credentials }));

export const awsSecretCipher = () => new KmsSecretCipher(kmsClient(), requiredEnv(env.webhookKeyId));
export const awsWebhookIntake = (): WebhookIntake => ({ allowLoopbackHttp: false, lookupHost: systemLookupHost, cipher: awsSecretCipher() });
export const awsWebhookSender = () => createWebhookSender({ allowLoopback: false });
