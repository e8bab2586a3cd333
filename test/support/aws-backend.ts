// Where the adapter suite runs: in-process dynalite and s3rver by default
// (`npm test`), or any AWS-compatible endpoint — moto, LocalStack, AWS — when
// `npm run test:aws` sets DOCEX_ADAPTER_TARGET=aws and AWS_ENDPOINT_URL is set.

import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dynamoClient, s3Client, type ClientOptions } from '../../lambdas/adapters/aws-clients.ts';
import { createTableInput, LOCAL_REGION, startEmbeddedAws } from '../../lib/local/embedded-aws.ts';

export interface Backend {
  name: string;
  clientOptions: ClientOptions;
  table: string;
  bucket: string;
  dispose(): Promise<void>;
}

export const targetsAws = () => process.env.DOCEX_ADAPTER_TARGET === 'aws';

/** True when this run should skip: `test:aws` without an endpoint. Says so loudly, once. */
export function skipWithoutEndpoint(): boolean {
  if (!targetsAws() || process.env.AWS_ENDPOINT_URL) return false;
  console.warn(
    '\n*** SKIPPING the AWS adapter suite: AWS_ENDPOINT_URL is not set. ***\n' +
      '*** Point it at moto (http://127.0.0.1:5000), LocalStack (http://localhost:4566) or AWS to run it. ***\n',
  );
  return true;
}

export async function startBackend(): Promise<Backend> {
  return targetsAws() ? remoteBackend() : embeddedBackend();
}

async function embeddedBackend(): Promise<Backend> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-adapters-'));
  const aws = await startEmbeddedAws(dir);
  return {
    name: 'dynalite+s3rver',
    clientOptions: { dynamodbEndpoint: aws.dynamodbEndpoint, s3Endpoint: aws.s3Endpoint, region: LOCAL_REGION, credentials: aws.credentials },
    table: aws.table,
    bucket: aws.bucket,
    dispose: async () => {
      await aws.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function remoteBackend(): Promise<Backend> {
  const suffix = randomUUID().slice(0, 8);
  const table = `docex-test-${suffix}`;
  const bucket = `docex-test-${suffix}`;
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
  const ddb = new DynamoDBClient({ region });
  await ddb.send(new CreateTableCommand(createTableInput(table)));
  await waitUntilTableExists({ client: ddb, maxWaitTime: 60 }, { TableName: table });
  const s3 = s3Client({ region });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    name: `endpoint ${process.env.AWS_ENDPOINT_URL}`,
    clientOptions: { region },
    table,
    bucket,
    dispose: async () => {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
      if (listed.Contents?.length) {
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: listed.Contents.map((o) => ({ Key: o.Key! })) } }));
      }
      await s3.send(new DeleteBucketCommand({ Bucket: bucket }));
      await ddb.send(new DeleteTableCommand({ TableName: table }));
      ddb.destroy();
      s3.destroy();
    },
  };
}

export const storeClient = (backend: Backend) => dynamoClient(backend.clientOptions);
export const blobClient = (backend: Backend) => s3Client(backend.clientOptions);
