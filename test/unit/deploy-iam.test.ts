// The deploy suite's IAM check (test/deploy/): how a recorded request becomes
// actions on ARNs, and how a role's policies answer them.

import { describe, expect, it } from 'vitest';
import { accessKeyOf, awsCallOf, type RecordedRequest } from '../deploy/aws-call.ts';
import { isAllowed, withoutAction, type PolicyDocument } from '../deploy/iam-policy.ts';

const ctx = { region: 'us-east-1', account: '123456789012' };
const auth = (key: string, service: string) => ({ authorization: `AWS4-HMAC-SHA256 Credential=${key}/20261124/us-east-1/${service}/aws4_request, SignedHeaders=host, Signature=x` });
const json = (target: string, body: unknown, key = 'FN01'): RecordedRequest => ({
  method: 'POST', url: '/', headers: { ...auth(key, 'x'), 'x-amz-target': target }, body: Buffer.from(JSON.stringify(body)),
});
const table = 'arn:aws:dynamodb:us-east-1:123456789012:table/Jobs';
const role: PolicyDocument[] = [{
  Version: '2012-10-17',
  Statement: [
    { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'], Resource: [table, `${table}/index/*`] },
    { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::docs/*' },
    { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: 'arn:aws:sqs:us-east-1:123456789012:extraction' },
  ],
}];

describe('awsCallOf', () => {
  it('reads DynamoDB targets, with the index a query reads', () => {
    expect(awsCallOf(json('DynamoDB_20120810.Query', { TableName: 'Jobs', IndexName: 'gsi1' }), ctx).permissions).toEqual([{ action: 'dynamodb:Query', resource: `${table}/index/gsi1` }]);
    expect(awsCallOf(json('DynamoDB_20120810.TransactWriteItems', { TransactItems: [{ Put: { TableName: 'Jobs' } }, { ConditionCheck: { TableName: 'Jobs' } }] }), ctx).permissions.map((p) => p.action))
      .toEqual(['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']);
  });

  it('authorizes an SQS batch as its single action, on the queue its URL names', () => {
    expect(awsCallOf(json('AmazonSQS.SendMessageBatch', { QueueUrl: 'http://localhost:1/123456789012/extraction' }), ctx).permissions)
      .toEqual([{ action: 'sqs:SendMessage', resource: 'arn:aws:sqs:us-east-1:123456789012:extraction' }]);
  });

  it('finds the queue a GetQueueUrl names', () => {
    expect(awsCallOf(json('AmazonSQS.GetQueueUrl', { QueueName: 'webhooks', QueueOwnerAWSAccountId: '123456789012' }), ctx).permissions)
      .toEqual([{ action: 'sqs:GetQueueUrl', resource: 'arn:aws:sqs:us-east-1:123456789012:webhooks' }]);
  });

  it('reads S3 REST requests, presigned ones included', () => {
    const presigned: RecordedRequest = { method: 'PUT', url: '/docs/uploads/a%20b.pdf?X-Amz-Credential=FN07%2F20261124%2Fus-east-1%2Fs3%2Faws4_request', headers: {}, body: Buffer.alloc(0) };
    expect(accessKeyOf(presigned)).toBe('FN07');
    expect(awsCallOf(presigned, ctx).permissions).toEqual([{ action: 's3:PutObject', resource: 'arn:aws:s3:::docs/uploads/a b.pdf' }]);
    const del: RecordedRequest = { method: 'POST', url: '/docs?delete', headers: auth('FN01', 's3'), body: Buffer.from('<Delete><Object><Key>parts/1</Key></Object><Object><Key>parts/2</Key></Object></Delete>') };
    expect(awsCallOf(del, ctx).permissions.map((p) => p.resource)).toEqual(['arn:aws:s3:::docs/parts/1', 'arn:aws:s3:::docs/parts/2']);
  });

  it('refuses a request it cannot map rather than letting it pass', () => {
    expect(() => awsCallOf(json('AWSCognitoIdentityProviderService.SignUp', {}), ctx)).toThrow(/does not map/);
    expect(() => awsCallOf(json('TrentService.Decrypt', {}), ctx)).toThrow(/not an ARN/);
  });
});

describe('isAllowed', () => {
  it('allows what a statement names, on the resources it names', () => {
    expect(isAllowed(role, { action: 'dynamodb:GetItem', resource: table })).toBe(true);
    expect(isAllowed(role, { action: 'dynamodb:query', resource: `${table}/index/gsi1` })).toBe(true);
    expect(isAllowed(role, { action: 's3:GetObject', resource: 'arn:aws:s3:::docs/results/x.json' })).toBe(true);
  });

  it('denies an action the role lacks, and an allowed action on another resource', () => {
    expect(isAllowed(role, { action: 'dynamodb:Scan', resource: table })).toBe(false);
    expect(isAllowed(role, { action: 'dynamodb:GetItem', resource: 'arn:aws:dynamodb:us-east-1:123456789012:table/Other' })).toBe(false);
    expect(isAllowed(role, { action: 's3:GetObject', resource: 'arn:aws:s3:::other/x' })).toBe(false);
  });

  it('fails a call once the role loses the one action it needs', () => {
    const call = { action: 'dynamodb:PutItem', resource: table };
    expect(isAllowed(role, call)).toBe(true);
    expect(isAllowed(withoutAction(role, 'dynamodb:PutItem'), call)).toBe(false);
    expect(isAllowed(withoutAction(role, 'dynamodb:PutItem'), { action: 'dynamodb:GetItem', resource: table })).toBe(true);
  });

  it('lets an explicit Deny win, and refuses conditions it does not model', () => {
    const denied: PolicyDocument[] = [...role, { Statement: { Effect: 'Deny', Action: 'dynamodb:*', Resource: '*' } }];
    expect(isAllowed(denied, { action: 'dynamodb:GetItem', resource: table })).toBe(false);
    expect(() => isAllowed([{ Statement: { Effect: 'Allow', Action: '*', Resource: '*', Condition: { Bool: {} } } }], { action: 'x:Y', resource: '*' })).toThrow(/Condition/);
  });
});
