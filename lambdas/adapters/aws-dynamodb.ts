// DynamoDB: its client, and the store on the stack's table.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { env } from '../../lib/wiring.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { DynamoStore } from './dynamo-store.ts';

export const dynamoClient = (options: ClientOptions = {}) =>
  withoutSdkLogger(new DynamoDBClient({ endpoint: options.dynamodbEndpoint, region: options.region, credentials: options.credentials }));

export const awsStore = () => new DynamoStore(dynamoClient(), requiredEnv(env.table));
