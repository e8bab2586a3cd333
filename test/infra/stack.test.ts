import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocexStack } from '../../lib/docex-stack.ts';
import { pascal } from '../../lib/constructs/naming.ts';
import {
  env,
  bucketNotifications,
  functions,
  queues,
  routes,
  tableSchema,
  type FunctionName,
  type FunctionSpec,
  type QueueName,
  type QueueSpec,
} from '../../lib/wiring.ts';

type Json = Record<string, any>;
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

const functionEntries = Object.entries(functions) as [FunctionName, FunctionSpec][];
const queueEntries = Object.entries(queues) as [QueueName, QueueSpec][];

let outdir: string;
let stack: DocexStack;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Same feature flags as `cdk synth`, so the template under test is the deployed one.
  const { context } = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'));
  outdir = mkdtempSync(join(tmpdir(), 'docex-cdk-'));
  stack = new DocexStack(new App({ context, outdir }), 'Test');
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
});

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

// --- helpers -----------------------------------------------------------------

const logicalId = (c: IConstruct) => stack.getLogicalId(c.node.defaultChild as CfnElement);
const fnId = (name: FunctionName) => logicalId(stack.functions.byName[name]);
const queueId = (name: QueueName) => logicalId(stack.pipeline.queues[name]);
const dlqId = (name: QueueName) => logicalId(stack.pipeline.deadLetterQueues[name]);
const tableId = () => logicalId(stack.storage.table);
const bucketId = () => logicalId(stack.storage.bucket);
const keyId = () => logicalId(stack.storage.webhookKey);
const topicId = () => logicalId(stack.alarms.topic);
const ref = (id: string) => ({ Ref: id });
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

const props = (id: string): Json => {
  const r = resources[id];
  if (!r) throw new Error(`no resource ${id}`);
  return r.Properties;
};
const ofType = (type: string): [string, Json][] =>
  Object.entries(resources)
    .filter(([, r]) => r.Type === type)
    .map(([id, r]) => [id, r.Properties ?? {}]);
/** True when a CloudFormation value (a Join, a GetAtt...) mentions the resource. */
const mentions = (value: unknown, id: string) => JSON.stringify(value).includes(`"${id}"`);
const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Full path of an API Gateway resource, walking ParentId up to the root. */
function pathOf(resourceId: Json): string {
  if (!resourceId.Ref) return ''; // the root: Fn::GetAtt RootResourceId
  const r = props(resourceId.Ref);
  return `${pathOf(r.ParentId)}/${r.PathPart}`;
}

/** Every statement of every policy in the template: role policies and resource policies alike. */
function allStatements(): Json[] {
  const docs = [
    ...ofType('AWS::IAM::Policy').map(([, p]) => p.PolicyDocument),
    ...ofType('AWS::IAM::Role').flatMap(([, p]) => (p.Policies ?? []).map((x: Json) => x.PolicyDocument)),
    ...ofType('AWS::S3::BucketPolicy').map(([, p]) => p.PolicyDocument),
    ...ofType('AWS::SQS::QueuePolicy').map(([, p]) => p.PolicyDocument),
  ];
  return docs.flatMap((d) => d.Statement);
}

/** Statements of the policies attached to a function's execution role. */
function roleStatements(name: FunctionName): Json[] {
  const roleId = props(fnId(name)).Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Roles.some((r: Json) => r.Ref === roleId))
    .flatMap(([, p]) => p.PolicyDocument.Statement);
}
const actionsOf = (statements: Json[]) => statements.flatMap((s) => asList(s.Action));

/** The bundle CDK built for a function: `<outdir>/asset.<hash>/`, named by the S3 key of its code. */
function bundleOf(name: FunctionName): { code: string; sources: string[] } {
  const s3Key: string = props(fnId(name)).Code.S3Key;
  const dir = join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);
  const map = JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
  return { code: readFileSync(join(dir, 'index.mjs'), 'utf8'), sources: map.sources };
}

function alarmsOn(metricName: string, dimension: Json): Json[] {
  return ofType('AWS::CloudWatch::Alarm')
    .map(([, p]) => p)
    .filter((p) => p.MetricName === metricName && JSON.stringify(p.Dimensions) === JSON.stringify([dimension]));
}

function gatewayResponse(type: string): Json {
  const found = ofType('AWS::ApiGateway::GatewayResponse').find(([, p]) => p.ResponseType === type);
  if (!found) throw new Error(`no gateway response ${type}`);
  return found[1];
}

// --- functions ---------------------------------------------------------------

describe('functions', () => {
  it("creates exactly one Lambda per wiring entry, besides CDK's own bucket-notification handler", () => {
    // BucketNotificationsHandler is the singleton CDK deploys to write the bucket's notification configuration.
    const ours = ofType('AWS::Lambda::Function').filter(([id]) => !id.startsWith('BucketNotificationsHandler'));
    expect(ours).toHaveLength(functionEntries.length);
  });

  it.each(functionEntries)('%s: runtime, architecture, size and handler', (name, spec) => {
    expect(props(fnId(name))).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: spec.memoryMb,
      Timeout: spec.timeoutSeconds,
      Handler: 'index.handler',
    });
    expect(props(fnId(name)).Description).toContain(spec.entry);
  });

  it.each(functionEntries)('%s: deploys a bundle built from its wiring entry, exporting `handler`', (name, spec) => {
    const { code, sources } = bundleOf(name);
    // The source map names every file esbuild bundled: exactly one handler, the one wiring declares.
    const handlers = sources.filter((s) => s.includes('lambdas/handlers/'));
    expect(handlers).toHaveLength(1);
    expect(handlers[0]!.endsWith(spec.entry)).toBe(true);
    expect(code).toMatch(/export\s*\{[^}]*\bas handler\b[^}]*\}/);
  });

  it.each(functionEntries)('%s: leaves the SDK service clients to the runtime and carries everything else', (name) => {
    const { code, sources } = bundleOf(name);
    const packages = [...code.matchAll(/\bfrom\s*["'](@[^"'/]+\/[^"'/]+)["']/g)].map((m) => m[1]!);
    expect(packages.filter((p) => !p.startsWith('@aws-sdk/client-'))).toEqual([]);
    // A library that hooks into a client's middleware (lib-dynamodb) must not be bundled against the runtime's client.
    expect(sources.filter((s) => /node_modules\/@aws-sdk\/(client-|lib-dynamodb)/.test(s))).toEqual([]);
  });

  it.each(functionEntries)('%s: environment holds the table, the bucket, its own queue URLs, the key and the state machine only if it uses them', (name, spec) => {
    const queueUrls = Object.fromEntries((spec.uses.sendsTo ?? []).map((q) => [env.queueUrl(q), ref(queueId(q))]));
    expect(props(fnId(name)).Environment.Variables).toEqual({
      NODE_OPTIONS: '--enable-source-maps',
      ...(spec.uses.table ? { [env.table]: ref(tableId()) } : {}),
      ...(spec.uses.bucket ? { [env.bucket]: ref(bucketId()) } : {}),
      ...queueUrls,
      ...(spec.uses.webhookKey ? { [env.webhookKeyId]: arnOf(keyId()) } : {}),
      ...(spec.uses.aggregation ? { [env.aggregationStateMachineArn]: ref(logicalId(stack.aggregation.stateMachine)) } : {}),
    });
  });

  it.each(functionEntries)('%s: logs to its own group kept one month', (name) => {
    const groupId = props(fnId(name)).LoggingConfig.LogGroup.Ref;
    expect(props(groupId).RetentionInDays).toBe(30);
  });

  it.each(functionEntries)('%s: grants follow `uses`', (name, { uses }) => {
    const statements = roleStatements(name);
    const actions = actionsOf(statements);
    // Named actions only: no Scan, batch, stream or DescribeTable that grantReadWriteData would add.
    const tableActions = [...new Set(actionsOf(statements.filter((s) => mentions(s.Resource, tableId()))))].sort();
    const named = { read: ['dynamodb:GetItem', 'dynamodb:Query'], readwrite: ['dynamodb:DeleteItem', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:UpdateItem'] };
    expect(tableActions).toEqual(uses.table ? named[uses.table] : []);
    // A producer sends; GetQueueAttributes and GetQueueUrl come only with consuming (the event-source mapping).
    const sqsActions = [...new Set(actionsOf(statements).filter((a) => a.startsWith('sqs:')))];
    const consumes = Object.values(queues).some((q) => q.consumer === name);
    if (!consumes) expect(sqsActions).toEqual(uses.sendsTo?.length ? ['sqs:SendMessage'] : []);
    const reads = uses.bucket === 'read' || uses.bucket === 'readwrite';
    expect(actions.includes('s3:GetObject')).toBe(reads);
    // Without ListBucket S3 answers a missing key with 403 instead of 404.
    expect(actions.includes('s3:ListBucket')).toBe(reads);
    expect(actions.includes('s3:PutObject')).toBe(uses.bucket === 'write' || uses.bucket === 'readwrite');
    expect(actions.includes('s3:DeleteObject')).toBe(uses.bucket === 'readwrite' || uses.bucket === 'delete');

    // minimizePolicies merges the grants of several queues into one statement with a list of resources.
    const sendTargets = statements.filter((s) => asList(s.Action).includes('sqs:SendMessage')).flatMap((s) => asList(s.Resource));
    expect(sendTargets).toEqual((uses.sendsTo ?? []).map((q) => arnOf(queueId(q))));

    const keyActions = actionsOf(statements.filter((s) => mentions(s.Resource, keyId())));
    const wanted = { encrypt: ['kms:Encrypt'], decrypt: ['kms:Decrypt'], 'encrypt-decrypt': ['kms:Decrypt', 'kms:Encrypt'] };
    expect(keyActions.sort()).toEqual(uses.webhookKey ? wanted[uses.webhookKey] : []);
  });

  it.each(functionEntries)('%s: its role writes its own log group and carries no managed policy', (name) => {
    const roleId = props(fnId(name)).Role['Fn::GetAtt'][0];
    expect(props(roleId).ManagedPolicyArns).toBeUndefined();
    const logStatements = roleStatements(name).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
    expect(logStatements).toEqual([
      expect.objectContaining({ Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: arnOf(props(fnId(name)).LoggingConfig.LogGroup.Ref) }),
    ]);
  });
});

// --- API ---------------------------------------------------------------------

describe('api', () => {
  it('is the docex REST API, passing uploads and page images as binary', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      Name: 'docex',
      BinaryMediaTypes: ['multipart/form-data', 'application/octet-stream', 'image/*'],
    });
  });

  it('renders page images in a Lambda of its own that ships PDFium and may only read the table and the bucket', () => {
    const { code } = bundleOf('get-page');
    expect(code).toContain('pdfium.wasm');
    const s3Key: string = props(fnId('get-page')).Code.S3Key;
    expect(readFileSync(join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`, 'pdfium.wasm')).byteLength).toBeGreaterThan(1_000_000);
    const actions = actionsOf(roleStatements('get-page'));
    expect(actions.filter((a) => /^(dynamodb:(Put|Update|Delete|BatchWrite)|s3:(Put|Delete))/.test(a))).toEqual([]);
    expect(actions.filter((a) => a.startsWith('sqs:') || a.startsWith('kms:') || a.startsWith('states:'))).toEqual([]);
  });

  it('deploys stage prod with throttling', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      MethodSettings: [{ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 }],
    });
  });

  it('has exactly the wiring routes', () => {
    const methods = ofType('AWS::ApiGateway::Method').map(([, p]) => `${p.HttpMethod} ${pathOf(p.ResourceId)}`);
    expect(methods.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s integrates its function', (_label, route) => {
    const method = ofType('AWS::ApiGateway::Method').find(
      ([, p]) => p.HttpMethod === route.method && pathOf(p.ResourceId) === route.path,
    )?.[1];
    expect(method?.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
    for (const [name] of functionEntries) {
      expect(mentions(method?.Integration.Uri, fnId(name)), name).toBe(name === route.fn);
    }
    const invokers = ofType('AWS::Lambda::Permission').filter(
      ([, p]) => p.Principal === 'apigateway.amazonaws.com' && mentions(p.FunctionName, fnId(route.fn)),
    );
    expect(invokers.length).toBeGreaterThan(0);
  });

  it('answers oversized bodies with payload_too_large pointing at the upload flow', () => {
    const r = gatewayResponse('REQUEST_TOO_LARGE');
    expect(r.StatusCode).toBe('413');
    const body = JSON.parse(r.ResponseTemplates['application/json']);
    expect(body.error).toBe('payload_too_large');
    expect(body.message).toContain('POST /v1/uploads');
  });

  it.each([
    ['THROTTLED', 'rate_limited'],
    ['MISSING_AUTHENTICATION_TOKEN', 'not_found'],
    ['DEFAULT_4XX', 'invalid_request'],
    ['DEFAULT_5XX', 'internal_error'],
  ])('%s answers the JSON error shape with %s', (type, code) => {
    const template = gatewayResponse(type).ResponseTemplates['application/json'] as string;
    expect(template).toMatch(new RegExp(`^\\{"error":"${code}","message":.+\\}$`));
  });
});

// --- queues ------------------------------------------------------------------

describe('queues', () => {
  it.each(queueEntries)('%s: encrypted, visibility and retention from wiring', (name, spec) => {
    expect(props(queueId(name))).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: spec.visibilityTimeoutSeconds,
      MessageRetentionPeriod: spec.retentionDays * 86_400,
      RedrivePolicy: { deadLetterTargetArn: arnOf(dlqId(name)), maxReceiveCount: spec.maxReceiveCount },
    });
    expect(props(dlqId(name))).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86_400 });
  });

  it.each(queueEntries)('%s: TLS-only, queue and DLQ', (name) => {
    for (const id of [queueId(name), dlqId(name)]) {
      const [, policy] = ofType('AWS::SQS::QueuePolicy').find(([, p]) => p.Queues.some((q: Json) => q.Ref === id)) ?? [];
      expect(policy?.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it.each(queueEntries)('%s: feeds its consumer, reporting partial batch failures', (name, spec) => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(([, p]) => mentions(p.EventSourceArn, queueId(name)));
    expect(mappings).toHaveLength(1);
    const mapping = mappings[0]![1];
    expect(mapping).toMatchObject({
      FunctionName: ref(fnId(spec.consumer)),
      BatchSize: spec.batchSize,
      ScalingConfig: { MaximumConcurrency: spec.maxConcurrency },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // Against the deployed consumer's timeout, not wiring's arithmetic.
    expect(props(queueId(name)).VisibilityTimeout).toBeGreaterThanOrEqual(6 * props(fnId(spec.consumer)).Timeout);
  });
});

// --- storage -----------------------------------------------------------------

describe('storage', () => {
  it('table: keys, index, TTL, PITR, on-demand, retained', () => {
    const { partitionKey, sortKey, ttlAttribute, indexes } = tableSchema;
    expect(props(tableId())).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      GlobalSecondaryIndexes: indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
      })),
    });
    expect(resources[tableId()]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('bucket: encrypted, private, retained, with expiring prefixes', () => {
    expect(props(bucketId())).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    const rules: Json[] = props(bucketId()).LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'documents/', ExpirationInDays: 1, Status: 'Enabled' }));
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'results/', ExpirationInDays: 2, Status: 'Enabled' }));
    // A completed PDF's or image's document, kept for its page images.
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: 'pages/', ExpirationInDays: 1, Status: 'Enabled' }));
    expect(rules).toContainEqual(
      expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }),
    );
    expect(resources[bucketId()]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('bucket: accepts browser PUTs to presigned URLs (CORS), and nothing else cross-origin', () => {
    expect(props(bucketId()).CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], ExposedHeaders: ['ETag'] }),
    ]);
  });

  it('webhook secrets key: one, rotated, retained', () => {
    expect(ofType('AWS::KMS::Key')).toHaveLength(1);
    expect(props(keyId())).toMatchObject({ EnableKeyRotation: true });
    expect(resources[keyId()]).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('bucket: TLS-only policy', () => {
    const [, policy] = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Bucket.Ref === bucketId()) ?? [];
    expect(policy?.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });
});

// --- alarms ------------------------------------------------------------------

describe('bucket notifications', () => {
  it.each(bucketNotifications)('objects created under $prefix invoke $fn', ({ prefix, fn }) => {
    const [[, config]] = ofType('Custom::S3BucketNotifications') as [[string, Json]];
    const lambdas = config.NotificationConfiguration.LambdaFunctionConfigurations as Json[];
    expect(lambdas).toContainEqual({
      Events: ['s3:ObjectCreated:*'],
      Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: prefix }] } },
      LambdaFunctionArn: arnOf(fnId(fn)),
    });
  });

  it('expires uploads that never became jobs', () => {
    const [[, bucket]] = ofType('AWS::S3::Bucket') as [[string, Json]];
    expect(bucket.LifecycleConfiguration.Rules).toContainEqual(expect.objectContaining({ Prefix: 'uploads/', ExpirationInDays: 1, Status: 'Enabled' }));
  });
});

describe('alarms', () => {
  const notifiesTopic = (alarm: Json) => expect(alarm.AlarmActions).toEqual([ref(topicId())]);

  it.each(queueEntries)('%s: a message in the DLQ raises an alarm at once', (name) => {
    const [alarm, ...more] = alarmsOn('ApproximateNumberOfMessagesVisible', { Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId(name), 'QueueName'] } });
    expect(more).toEqual([]);
    expect(alarm).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, Period: 60 });
    notifiesTopic(alarm!);
  });

  it.each(functionEntries)('%s: errors and throttles raise alarms', (name) => {
    for (const metric of ['Errors', 'Throttles']) {
      const found = alarmsOn(metric, { Name: 'FunctionName', Value: ref(fnId(name)) });
      expect(found, metric).toHaveLength(1);
      expect(found[0]).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
      notifiesTopic(found[0]!);
    }
  });

  it('has no alarm beyond those', () => {
    // Plus one for failed aggregation executions.
    expect(ofType('AWS::CloudWatch::Alarm')).toHaveLength(queueEntries.length + 2 * functionEntries.length + 1);
  });
});

// --- the aggregation state machine ---------------------------------------------

describe('aggregation state machine', () => {
  const machineId = () => logicalId(stack.aggregation.stateMachine);
  /** The definition with each Lambda ARN (a GetAtt inside the Fn::Join) replaced by its function's logical id. */
  function definition(): Json {
    const body = props(machineId()).DefinitionString;
    const parts: unknown[] = body['Fn::Join'] ? body['Fn::Join'][1] : [body];
    const text = parts.map((p) => (typeof p === 'string' ? p : `LOGICAL:${(p as Json)['Fn::GetAtt'][0]}`)).join('');
    return JSON.parse(text);
  }

  it('maps over batches of the manifest\'s parts with aggregate-part, then finishes with aggregate-finish', () => {
    const def = definition();
    const map = def.States[def.StartAt];
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.batches', ResultPath: '$.measured', ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' } } });
    expect(map.ItemSelector).toMatchObject({ 'manifest.$': '$.manifest', 'batch.$': '$$.Map.Item.Value' });
    const inner = map.ItemProcessor.States[map.ItemProcessor.StartAt];
    expect(inner).toMatchObject({ Type: 'Task', Resource: `LOGICAL:${fnId('aggregate-part')}`, End: true });
    const finish = def.States[map.Next];
    expect(finish).toMatchObject({ Type: 'Task', Resource: `LOGICAL:${fnId('aggregate-finish')}`, End: true });
    expect(Object.keys(def.States)).toHaveLength(4);
  });

  it('catches a Map or merge that fails after its retries, fails the job with aggregate-fail, then ends the execution failed', () => {
    const def = definition();
    const map = def.States[def.StartAt];
    const finish = def.States[map.Next];
    // Retried first (the Map's part task, the merge), caught only once the retries are spent.
    const part = map.ItemProcessor.States[map.ItemProcessor.StartAt];
    for (const task of [part, finish]) expect(task.Retry).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'] })]);
    for (const state of [map, finish]) {
      expect(state.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'FailJob' }]);
    }
    expect(def.States.FailJob).toMatchObject({ Type: 'Task', Resource: `LOGICAL:${fnId('aggregate-fail')}`, Next: 'Failed', Retry: [expect.objectContaining({ ErrorEquals: ['States.ALL'] })] });
    expect(def.States.FailJob.Catch).toBeUndefined();
    expect(def.States.Failed).toMatchObject({ Type: 'Fail', Error: 'docex.AggregationFailed' });
  });

  it('runs as a role that may invoke its three functions and nothing else', () => {
    const roleId = props(machineId()).RoleArn['Fn::GetAtt'][0];
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Roles.some((r: Json) => r.Ref === roleId))
      .flatMap(([, p]) => p.PolicyDocument.Statement);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ Effect: 'Allow', Action: 'lambda:InvokeFunction' });
    expect(statements[0].Resource).toHaveLength(3);
    expect(statements[0].Resource).toEqual(expect.arrayContaining(['aggregate-part', 'aggregate-finish', 'aggregate-fail'].map((f) => arnOf(fnId(f as FunctionName)))));
  });

  it('may be started by the chunk worker and stopped by cancel, and by no other function', () => {
    for (const [name] of functionEntries) {
      const states = roleStatements(name).filter((st) => asList(st.Action).some((a: string) => a.startsWith('states:')));
      if (name === 'chunk-worker') expect(states).toEqual([{ Effect: 'Allow', Action: 'states:StartExecution', Resource: ref(machineId()) }]);
      else if (name === 'cancel-job') {
        expect(states).toHaveLength(1);
        expect(states[0]).toMatchObject({ Effect: 'Allow', Action: 'states:StopExecution' });
        expect(mentions(states[0]!.Resource, machineId())).toBe(true);
      } else expect(states, name).toEqual([]);
    }
  });

  it('tells the functions that start or stop executions where the state machine is', () => {
    for (const name of ['chunk-worker', 'cancel-job'] as FunctionName[]) {
      expect(props(fnId(name)).Environment.Variables[env.aggregationStateMachineArn]).toEqual(ref(machineId()));
    }
    expect(props(fnId('extract-worker')).Environment.Variables[env.aggregationStateMachineArn]).toBeUndefined();
  });

  it('raises an alarm when an execution fails', () => {
    const found = alarmsOn('ExecutionsFailed', { Name: 'StateMachineArn', Value: ref(machineId()) });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Namespace: 'AWS/States', Threshold: 1, AlarmActions: [ref(topicId())] });
  });

  it('is named in the outputs', () => {
    expect((template.toJSON().Outputs as Json).StateMachineArn.Value).toEqual(ref(machineId()));
  });
});

describe('dashboard', () => {
  it('shows the metrics of every function, queue, DLQ and the state machine', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    expect(dashboards.length).toBe(1);
    const body = dashboards[0]![1].DashboardBody;
    for (const [name] of functionEntries) expect(mentions(body, fnId(name)), name).toBe(true);
    for (const [q] of queueEntries) {
      expect(mentions(body, queueId(q))).toBe(true);
      expect(mentions(body, dlqId(q))).toBe(true);
    }
    expect(mentions(body, logicalId(stack.aggregation.stateMachine))).toBe(true);
  });

  it("graphs docex's own metrics, searched by the dimension sets the functions write", () => {
    const text = JSON.stringify(ofType('AWS::CloudWatch::Dashboard')[0]![1].DashboardBody).replaceAll('\\', '');
    for (const [dimensions, metric] of [
      ['service,status,format', 'JobsFinished'],
      ['service,format', 'PagesExtracted'],
      ['service,format', 'ExtractionTime'],
      ['service,outcome', 'WebhookAttempts'],
    ]) {
      expect(text, metric).toContain(`SEARCH('{Docex,${dimensions}} MetricName="${metric}"'`);
    }
  });
});

// --- IAM and outputs ---------------------------------------------------------

describe('security', () => {
  it('no Allow statement grants a wildcard action', () => {
    // Deny statements (the TLS-only policies) may be broad: that is the safe direction. The
    // KMS key policy is not among these: its kms:* for the account root is what lets IAM
    // policies, like the grants checked here, work for the key at all.
    const allowed = actionsOf(allStatements().filter((s) => s.Effect === 'Allow'));
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.filter((a) => typeof a !== 'string' || a.includes('*'))).toEqual([]);
  });
});

describe('outputs', () => {
  it('names the API URL, table, bucket, and each queue with its DLQ', () => {
    const outputs = template.toJSON().Outputs as Json;
    expect(Object.keys(outputs).sort()).toEqual(
      ['ApiUrl', 'TableName', 'BucketName', 'AlarmTopicArn', 'DashboardName', 'StateMachineArn', ...queueEntries.flatMap(([q]) => [`${pascal(q)}QueueUrl`, `${pascal(q)}DlqUrl`])].sort(),
    );
    expect(mentions(outputs.ApiUrl.Value, logicalId(stack.api.restApi.deploymentStage))).toBe(true);
    expect(outputs.TableName.Value).toEqual(ref(tableId()));
    expect(outputs.BucketName.Value).toEqual(ref(bucketId()));
    for (const [q] of queueEntries) {
      expect(outputs[`${pascal(q)}QueueUrl`].Value).toEqual(ref(queueId(q)));
      expect(outputs[`${pascal(q)}DlqUrl`].Value).toEqual(ref(dlqId(q)));
    }
  });
});
