// DynamoDB: its client, and the records on the stack's table.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { env } from '../../lib/wiring.ts';
import type { Infrastructure } from './compose.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { DynamoStore } from './dynamo-store.ts';

export const dynamoClient = (options: ClientOptions = {}) =>
  withoutSdkLogger(new DynamoDBClient({ endpoint: options.dynamodbEndpoint, region: options.region, credentials: options.credentials }));

export const awsTable = {
  records: () => new DynamoStore(dynamoClient(), requiredEnv(env.table)),
} satisfies Partial<Infrastructure>;
