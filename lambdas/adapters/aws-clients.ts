// AWS clients, built once per Lambda container (or once per local server).
// Endpoints come from the SDK's standard AWS_ENDPOINT_URL(_<SERVICE>)
// variables, so the same code talks to AWS, LocalStack, moto or the
// embedded dynalite/s3rver.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { KMSClient } from '@aws-sdk/client-kms';
import { SFNClient } from '@aws-sdk/client-sfn';

export interface ClientOptions {
  /** Explicit endpoints (the local server's embedded services); otherwise the SDK's own resolution. */
  dynamodbEndpoint?: string;
  s3Endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function dynamoClient(options: ClientOptions = {}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({ endpoint: options.dynamodbEndpoint, region: options.region, credentials: options.credentials });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function s3Client(options: ClientOptions = {}): S3Client {
  const customEndpoint = options.s3Endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  return new S3Client({
    endpoint: options.s3Endpoint,
    region: options.region,
    credentials: options.credentials,
    // Emulators serve buckets by path, not by virtual-host DNS names.
    forcePathStyle: customEndpoint !== undefined,
  });
}

export const sqsClient = (options: ClientOptions = {}) => new SQSClient({ region: options.region, credentials: options.credentials });

export const sfnClient = (options: ClientOptions = {}) => new SFNClient({ region: options.region, credentials: options.credentials });

export const kmsClient = (options: ClientOptions = {}) => new KMSClient({ region: options.region, credentials: options.credentials });

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; the stack sets it on every function (lib/wiring.ts).`);
  return value;
}
