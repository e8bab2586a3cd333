// DynamoDB and S3 served in-process by dynalite and s3rver, persisted under
// the data directory, so the local server runs the very adapter code that
// runs in AWS. Like their AWS counterparts they answer only requests signed
// (AWS Signature V4) with credentials they know: here, a key pair generated
// once per data directory and kept in its 0600 local-credentials.json.

import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';
import { tableSchema } from '../wiring.ts';
import { sha256Hex, signatureRefusal, type Credentials } from './sigv4.ts';

const BUCKET_CORS =
  '<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader>' +
  '<ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>';

export const LOCAL_REGION = 'us-east-1';

/** Where a data directory keeps the key pair its embedded DynamoDB and S3 accept. */
export const credentialsFile = (dataDir: string) => path.join(dataDir, 'local-credentials.json');

/**
 * The data directory's key pair: generated on first use (random, never a
 * well-known default), then read back, so `npm run admin` and a restarted
 * server sign as the running one does. Only who can read the data directory
 * can sign.
 */
export function localCredentials(dataDir: string): Credentials {
  const file = credentialsFile(dataDir);
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Credentials>;
    if (typeof stored.accessKeyId === 'string' && typeof stored.secretAccessKey === 'string') return { accessKeyId: stored.accessKeyId, secretAccessKey: stored.secretAccessKey };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const credentials = { accessKeyId: `DOCEXLOCAL${randomBytes(8).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(30).toString('base64url') };
  // wx: two processes starting at once cannot each write a different pair.
  try {
    fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return localCredentials(dataDir);
    throw error;
  }
  return credentials;
}

export interface EmbeddedAws {
  /** The only credentials the embedded DynamoDB and S3 accept. */
  credentials: Credentials;
  /** s3rver's S3-shaped notification of every created object, as the bucket notification delivers it in AWS. */
  onObjectCreated(listener: (event: S3Event) => void): void;
  dynamodbEndpoint: string;
  s3Endpoint: string;
  table: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startEmbeddedAws(dataDir: string, names = { table: 'docex', bucket: 'docex-local' }): Promise<EmbeddedAws> {
  const credentials = localCredentials(dataDir);
  const dynamo = dynalite({ path: path.join(dataDir, 'dynamodb'), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  requireDynamoSignature(dynamo as unknown as Server, credentials);
  await new Promise<void>((resolve, reject) => dynamo.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve())));
  const dynamodbEndpoint = `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`;

  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: path.join(dataDir, 's3'),
    silent: true,
    // The stack's CORS rule (lib/constructs/storage.ts): browsers (the dashboard's playground) PUT to presigned URLs.
    configureBuckets: [{ name: names.bucket, configs: [BUCKET_CORS] }],
  });
  // s3rver formats a koa-logger line for every request even when silent (chalk,
  // sizes, timings), about 1% of the local server's CPU under load; it is
  // s3rver's first middleware, and Koa composes the list when the server starts.
  const koa = s3 as unknown as { middleware: Array<{ name: string }> };
  koa.middleware = koa.middleware.filter((middleware) => middleware.name !== 'logger');
  // First of all, the signature; s3rver itself takes any unsigned request, and a V4 one unchecked.
  (koa.middleware as unknown[]).unshift(s3SignatureMiddleware(credentials));
  s3rverAccount().createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const s3Address = (await s3.run()) as AddressInfo;
  const s3Endpoint = `http://127.0.0.1:${s3Address.port}`;

  await ensureTable(dynamodbEndpoint, names.table, credentials);
  return {
    credentials,
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

/** s3rver's one account, which must know the key pair for its own (V2-only) signature step to let V4 requests through. */
function s3rverAccount(): { createKeyPair(id: string, secret: string): void } {
  const require = createRequire(import.meta.url);
  const accountModule = require.resolve('s3rver/lib/models/account.js', { paths: [path.dirname(require.resolve('s3rver'))] });
  return (require(accountModule) as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } }).DUMMY_ACCOUNT;
}

/** A Koa middleware answering S3's 403 AccessDenied for any request not signed with `credentials`. */
function s3SignatureMiddleware(credentials: Credentials) {
  return async function requireSignature(
    ctx: { req: IncomingMessage; status: number; type: string; body: unknown },
    next: () => Promise<void>,
  ): Promise<void> {
    // A browser's CORS preflight before a presigned PUT carries no signature, in AWS too; it reads or writes nothing.
    if (ctx.req.method === 'OPTIONS') return next();
    const why = signatureRefusal({ method: ctx.req.method ?? 'GET', url: ctx.req.url ?? '/', headers: ctx.req.headers }, credentials, { service: 's3' });
    if (!why) return next();
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>' +
      `<Message>Access Denied: ${why}. The local S3 answers only requests signed with this data directory's credentials (local-credentials.json), or presigned URLs the docex API gave out.</Message></Error>`;
  };
}

/**
 * Puts a signature check in front of dynalite's request handler: the body is
 * read (DynamoDB signs its hash), checked, then replayed to dynalite.
 */
function requireDynamoSignature(server: Server, credentials: Credentials): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // DynamoDB's own request limit is 16 MB.
      if (size <= 16 * 1024 * 1024) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const why =
        size > 16 * 1024 * 1024
          ? 'the request is larger than 16 MB'
          : signatureRefusal({ method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers }, credentials, { service: 'dynamodb', payloadHash: sha256Hex(body) });
      if (why) {
        res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' });
        res.end(
          JSON.stringify({
            __type: 'com.amazon.coral.service#UnrecognizedClientException',
            message: `Refused: ${why}. The local DynamoDB answers only requests signed with this data directory's credentials (local-credentials.json).`,
          }),
        );
        return;
      }
      const replay = Object.assign(new PassThrough(), { headers: req.headers, rawHeaders: req.rawHeaders, method: req.method, url: req.url, socket: req.socket, httpVersion: req.httpVersion });
      for (const handler of handlers) handler(replay as unknown as IncomingMessage, res);
      replay.end(body);
    });
  });
}

async function ensureTable(endpoint: string, table: string, credentials: Credentials): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials });
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
