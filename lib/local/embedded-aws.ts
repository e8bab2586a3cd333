// DynamoDB and S3 served in-process by dynalite and s3rver, persisted under
// the data directory, so the local server runs the very adapter code that
// runs in AWS.

import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';
import { tableSchema } from '../wiring.ts';

export const LOCAL_REGION = 'us-east-1';
// s3rver checks signatures against these; dynalite accepts anything.
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface EmbeddedAws {
  /** s3rver's S3-shaped notification of every created object, as the bucket notification delivers it in AWS. */
  onObjectCreated(listener: (event: S3Event) => void): void;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  table: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startEmbeddedAws(dataDir: string, names = { table: 'docex', bucket: 'docex-local' }): Promise<EmbeddedAws> {
  const dynamo = dynalite({ path: path.join(dataDir, 'dynamodb'), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => dynamo.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve())));
  const dynamodbEndpoint = `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`;

  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: path.join(dataDir, 's3'),
    silent: true,
    configureBuckets: [{ name: names.bucket, configs: [] }],
  });
  // s3rver formats a koa-logger line for every request even when silent (chalk,
  // sizes, timings), about 1% of the local server's CPU under load; it is
  // s3rver's first middleware, and Koa composes the list when the server starts.
  const koa = s3 as unknown as { middleware: Array<{ name: string }> };
  koa.middleware = koa.middleware.filter((middleware) => middleware.name !== 'logger');
  const s3Address = (await s3.run()) as AddressInfo;
  const s3Endpoint = `http://127.0.0.1:${s3Address.port}`;

  await ensureTable(dynamodbEndpoint, names.table);
  return {
    onObjectCreated: (listener) =>
      s3.on('event', (event: S3Event) => {
        if (event.Records?.[0]?.eventName.startsWith('ObjectCreated:')) listener(event);
      }),
    dynamodbEndpoint,
    s3Endpoint,
    ...names,
    close: async () => {
      await s3.close();
      await new Promise<void>((resolve) => dynamo.close(() => resolve()));
    },
  };
}

async function ensureTable(endpoint: string, table: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    await client.send(new CreateTableCommand(createTableInput(table)));
    // dynalite answers CreateTable while the table is still CREATING; a write before it is ACTIVE is a ResourceNotFound.
    await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 0.05, maxDelay: 0.2 }, { TableName: table });
  } finally {
    client.destroy();
  }
}

/** The table as the stack declares it, for the embedded DynamoDB and for integration tests. */
export function createTableInput(table: string) {
  const { partitionKey, sortKey, indexes } = tableSchema;
  const attributes = [partitionKey, sortKey, ...indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: table,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
