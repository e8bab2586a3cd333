// Webhooks as the cloud takes and sends them: https:// to public addresses
// only, secrets sealed with the stack's KMS key (KMS serves nothing else
// here). One factory per part of compose()'s Infrastructure.

import { KMSClient } from '@aws-sdk/client-kms';
import { env } from '../../lib/wiring-runtime.ts';
import type { WebhookIntake } from '../core/webhook-target.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { KmsSecretCipher } from './kms-secret-cipher.ts';
import { createWebhookSender, systemLookupHost } from './webhook-http.ts';

export const kmsClient = (options: ClientOptions = {}) => withoutSdkLogger(new KMSClient({ region: options.region, credentials: options.credentials }));

export const webhookCipher = () => new KmsSecretCipher(kmsClient(), requiredEnv(env.webhookKeyId));
export const webhookIntake = (): WebhookIntake => ({ allowLoopbackHttp: false, lookupHost: systemLookupHost, cipher: webhookCipher() });
export const deliverySender = () => createWebhookSender({ allowLoopback: false });
// Below API Gateway's 29 s integration limit, so a slow receiver is reported, not a gateway timeout.
export const testSender = () => createWebhookSender({ allowLoopback: false, timeoutMs: 25_000 });
