// Where an adapter finds AWS: explicit endpoints for the local server's
// embedded services, otherwise the SDK's own resolution (AWS_ENDPOINT_URL(_<SERVICE>)
// reaches LocalStack or moto), and the resource names the stack sets (lib/wiring.ts).

export interface ClientOptions {
  /** Explicit endpoints (the local server's embedded services); otherwise the SDK's own resolution. */
  dynamodbEndpoint?: string;
  s3Endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set; the stack sets it on every function (lib/wiring.ts).`);
  return value;
}

/**
 * Takes the SDK's logger step out of a client: it runs every input and output
 * through the sensitive-data filter on each call even though the default
 * logger discards the result (about 6% of a DynamoDB call's CPU against the
 * local server's store). We log our own lines (core/log.ts).
 */
export function withoutSdkLogger<C extends { middlewareStack: { remove(name: string): boolean } }>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
