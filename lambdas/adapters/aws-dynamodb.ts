// DynamoDB: its client, and the record ports over the stack's table. One
// factory per port, each named for its part of compose()'s Infrastructure, so
// a handler that imports a few of them bundles only those adapters.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { env } from '../../lib/wiring-runtime.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { DynamoJobQueries } from './dynamo-job-queries.ts';
import { DynamoJobs } from './dynamo-jobs.ts';
import { DynamoApiKeys, DynamoSandboxIssues } from './dynamo-keys.ts';
import { DynamoQuotas, DynamoUsage } from './dynamo-quotas.ts';
import { DynamoTable } from './dynamo-table.ts';
import { DynamoDeliveryLog, DynamoWebhookEventClaims, DynamoWebhookRegistrations } from './dynamo-webhooks.ts';

export const dynamoClient = (options: ClientOptions = {}) =>
  withoutSdkLogger(new DynamoDBClient({ endpoint: options.dynamodbEndpoint, region: options.region, credentials: options.credentials }));

let shared: DynamoTable | undefined;
/** One client for all the ports of a function. */
const table = () => (shared ??= new DynamoTable(dynamoClient(), requiredEnv(env.table)));

export const keys = () => new DynamoApiKeys(table());
export const sandboxIssues = () => new DynamoSandboxIssues(table());
export const quotas = () => new DynamoQuotas(table());
export const jobs = () => new DynamoJobs(table());
export const jobQueries = () => new DynamoJobQueries(table());
export const webhooks = () => new DynamoWebhookRegistrations(table());
export const eventClaims = () => new DynamoWebhookEventClaims(table());
export const deliveries = () => new DynamoDeliveryLog(table());
export const usage = () => new DynamoUsage(table());
