// What IAM authorizes for one HTTP request to an AWS endpoint: the action and
// resource ARN(s) it is checked against. Covers the protocols of the services
// docex's functions call (DynamoDB, SQS, KMS and Step Functions over AWS JSON,
// S3 over REST, path-style as the emulator serves it). A request it cannot
// read is an error, never a pass: an unknown call must be looked at.

import type { Permission } from './iam-policy.ts';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface CallContext {
  region: string;
  account: string;
}

export interface AwsCall {
  /** Operation as the service names it, e.g. `DynamoDB.PutItem`, `S3.GetObject`. */
  operation: string;
  permissions: Permission[];
}

const headerOf = (r: RecordedRequest, name: string): string | undefined => {
  const v = r.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The access key a request was signed with (header or presigned query): the harness gives each function its own. */
export function accessKeyOf(r: RecordedRequest): string | undefined {
  const auth = headerOf(r, 'authorization');
  const fromHeader = auth && /Credential=([^/,\s]+)\//.exec(auth)?.[1];
  if (fromHeader) return fromHeader;
  const credential = new URL(r.url, 'http://x').searchParams.get('X-Amz-Credential');
  return credential ? credential.split('/')[0] : undefined;
}

const tableArn = (c: CallContext, table: string) => `arn:aws:dynamodb:${c.region}:${c.account}:table/${table}`;
const queueArnOfUrl = (c: CallContext, url: string) => `arn:aws:sqs:${c.region}:${c.account}:${new URL(url).pathname.split('/').filter(Boolean).pop()}`;

function dynamodb(c: CallContext, op: string, body: Record<string, any>): Permission[] {
  const on = (action: string, table: string, index?: string) => ({ action: `dynamodb:${action}`, resource: tableArn(c, table) + (index ? `/index/${index}` : '') });
  switch (op) {
    case 'GetItem': case 'PutItem': case 'UpdateItem': case 'DeleteItem': case 'DescribeTable':
      return [on(op, body.TableName)];
    case 'Query': case 'Scan':
      return [on(op, body.TableName, body.IndexName)];
    case 'BatchGetItem': case 'BatchWriteItem':
      return Object.keys(body.RequestItems ?? {}).map((t) => on(op, t));
    case 'TransactGetItems':
      return (body.TransactItems ?? []).map((i: any) => on('GetItem', i.Get.TableName));
    case 'TransactWriteItems': {
      const kinds: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };
      return (body.TransactItems ?? []).map((item: Record<string, any>) => {
        const [kind, spec] = Object.entries(item)[0]!;
        if (!kinds[kind]) throw new Error(`TransactWriteItems item of kind ${kind}`);
        return on(kinds[kind], spec.TableName);
      });
    }
    default:
      throw new Error(`DynamoDB ${op}: not mapped to its IAM resource`);
  }
}

function jsonProtocol(c: CallContext, target: string, body: Record<string, any>): AwsCall {
  const [prefix, op] = target.split('.') as [string, string];
  if (prefix.startsWith('DynamoDB_')) return { operation: `DynamoDB.${op}`, permissions: dynamodb(c, op, body) };
  if (prefix === 'AmazonSQS') {
    if (op === 'GetQueueUrl' && body.QueueName) {
      return { operation: 'SQS.GetQueueUrl', permissions: [{ action: 'sqs:GetQueueUrl', resource: `arn:aws:sqs:${c.region}:${body.QueueOwnerAWSAccountId ?? c.account}:${body.QueueName}` }] };
    }
    if (!body.QueueUrl) throw new Error(`SQS ${op} without a QueueUrl: not mapped`);
    // IAM authorizes a batch as its single action (SendMessageBatch is sqs:SendMessage).
    const action = op.replace(/Batch$/, '');
    return { operation: `SQS.${op}`, permissions: [{ action: `sqs:${action}`, resource: queueArnOfUrl(c, body.QueueUrl) }] };
  }
  if (prefix === 'TrentService') {
    const key: string | undefined = body.KeyId;
    if (!key?.startsWith('arn:')) throw new Error(`KMS ${op} names its key as ${JSON.stringify(key)}, not an ARN: not mapped`);
    return { operation: `KMS.${op}`, permissions: [{ action: `kms:${op}`, resource: key }] };
  }
  if (prefix === 'AWSStepFunctions') {
    const resource = body.stateMachineArn ?? body.executionArn;
    if (!resource) throw new Error(`Step Functions ${op}: no ARN in the request`);
    return { operation: `StepFunctions.${op}`, permissions: [{ action: `states:${op}`, resource }] };
  }
  throw new Error(`${target}: a service the suite does not map`);
}

function s3(r: RecordedRequest): AwsCall {
  const url = new URL(r.url, 'http://x');
  const [bucket, ...keyParts] = url.pathname.split('/').slice(1);
  const key = keyParts.map(decodeURIComponent).join('/');
  const q = url.searchParams;
  const object = (action: string, k = key) => ({ action: `s3:${action}`, resource: `arn:aws:s3:::${bucket}/${k}` });
  if (!bucket) throw new Error(`S3 ${r.method} ${r.url}: no bucket`);
  if (key) {
    switch (r.method) {
      case 'GET': case 'HEAD':
        return { operation: r.method === 'GET' ? 'S3.GetObject' : 'S3.HeadObject', permissions: [object('GetObject')] };
      case 'PUT': {
        const copy = headerOf(r, 'x-amz-copy-source');
        if (copy) {
          const source = decodeURIComponent(copy.replace(/^\//, ''));
          return { operation: 'S3.CopyObject', permissions: [object('PutObject'), { action: 's3:GetObject', resource: `arn:aws:s3:::${source}` }] };
        }
        return { operation: q.has('partNumber') ? 'S3.UploadPart' : 'S3.PutObject', permissions: [object('PutObject')] };
      }
      case 'POST':
        if (q.has('uploads') || q.has('uploadId')) return { operation: 'S3.MultipartUpload', permissions: [object('PutObject')] };
        break;
      case 'DELETE':
        return { operation: q.has('uploadId') ? 'S3.AbortMultipartUpload' : 'S3.DeleteObject', permissions: [object(q.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject')] };
    }
  } else {
    if (r.method === 'GET' && (q.has('list-type') || q.has('prefix') || [...q.keys()].length === 0)) {
      return { operation: 'S3.ListObjects', permissions: [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${bucket}` }] };
    }
    if (r.method === 'POST' && q.has('delete')) {
      const keys = [...r.body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
      return { operation: 'S3.DeleteObjects', permissions: keys.map((k) => object('DeleteObject', k)) };
    }
  }
  throw new Error(`S3 ${r.method} ${r.url}: not mapped to its IAM action`);
}

/** The IAM view of one request; throws for any request it cannot read. */
export function awsCallOf(r: RecordedRequest, c: CallContext): AwsCall {
  const target = headerOf(r, 'x-amz-target');
  if (target) return jsonProtocol(c, target, JSON.parse(r.body.toString('utf8') || '{}'));
  const auth = headerOf(r, 'authorization') ?? new URL(r.url, 'http://x').searchParams.get('X-Amz-Credential') ?? '';
  const service = /Credential=[^/]+\/\d+\/[^/]+\/([^/]+)\//.exec(auth)?.[1] ?? auth.split('/')[3];
  if (service === 's3') return s3(r);
  throw new Error(`${r.method} ${r.url} signed for ${service ?? 'no service'}: not mapped`);
}
