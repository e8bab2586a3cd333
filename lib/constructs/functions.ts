import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { env, functions as wiredFunctions, type FunctionName, type FunctionSpec, type QueueName } from '../wiring.ts';
import { lambdaBundling, lambdaRuntime } from './bundling.ts';
import { pascal } from './naming.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface FunctionsProps {
  table: ITable;
  bucket: IBucket;
  queues: Record<QueueName, IQueue>;
  /** Encrypts webhook secrets at rest. */
  webhookKey: IKey;
}

// Named actions, never the CDK grant helpers' wildcards (s3:GetObject*,
// kms:GenerateDataKey*): each function gets what its code calls and no more.
// Reading needs s3:ListBucket too, or S3 answers a missing key with 403, not 404.
const bucketObjectActions = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject'],
  // The worker deletes each document once it is extracted.
  readwrite: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
  delete: ['s3:DeleteObject'],
} as const;
// What the store calls (lambdas/adapters/dynamo-*.ts): table.grantReadWriteData would add
// Scan, the batch actions, ConditionCheckItem, DescribeTable and the stream actions.
// Queries read the gsi1 index, hence the table's index/* beside the table.
const tableActions = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  readwrite: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
} as const;
const webhookKeyActions = {
  encrypt: ['kms:Encrypt'],
  decrypt: ['kms:Decrypt'],
  'encrypt-decrypt': ['kms:Encrypt', 'kms:Decrypt'],
} as const;

/** One Lambda per wiring entry, with exactly the access its `uses` declares. */
export class Functions extends Construct {
  readonly byName = {} as Record<FunctionName, NodejsFunction>;

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    for (const [name, spec] of Object.entries(wiredFunctions) as [FunctionName, FunctionSpec][]) {
      this.byName[name] = this.create(name, spec, props);
    }
  }

  private create(name: FunctionName, spec: FunctionSpec, { table, bucket, queues, webhookKey }: FunctionsProps) {
    const id = pascal(name);
    const logGroup = new LogGroup(this, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Our own role instead of AWSLambdaBasicExecutionRole, whose log
    // permissions cover every log group in the account: this one writes to its own group only.
    const role = new Role(this, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `docex ${name}: writes its own logs and touches only what lib/wiring.ts declares`,
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn] }),
    );

    const fn = new NodejsFunction(this, id, {
      description: `docex ${name} (${spec.entry})`,
      entry: join(repoRoot, spec.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: lambdaRuntime,
      architecture: Architecture.ARM_64,
      memorySize: spec.memoryMb,
      timeout: Duration.seconds(spec.timeoutSeconds),
      role,
      logGroup,
      bundling: lambdaBundling(this, spec),
      // Each name only where its function reads it (lib/wiring.ts `uses`).
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...(spec.uses.table ? { [env.table]: table.tableName } : {}),
        ...(spec.uses.bucket ? { [env.bucket]: bucket.bucketName } : {}),
      },
    });

    if (spec.uses.table) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: [...tableActions[spec.uses.table]], resources: [table.tableArn, `${table.tableArn}/index/*`] }));
    }
    if (spec.uses.bucket) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: [...bucketObjectActions[spec.uses.bucket]], resources: [bucket.arnForObjects('*')] }));
      if (spec.uses.bucket === 'read' || spec.uses.bucket === 'readwrite') role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    }
    for (const q of spec.uses.sendsTo ?? []) {
      fn.addEnvironment(env.queueUrl(q), queues[q].queueUrl);
      // grantSendMessages would add GetQueueAttributes and GetQueueUrl, which no producer calls.
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queues[q].queueArn] }));
    }
    if (spec.uses.webhookKey) {
      fn.addEnvironment(env.webhookKeyId, webhookKey.keyArn);
      webhookKey.grant(fn, ...webhookKeyActions[spec.uses.webhookKey]);
    }

    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: `Pinned to ${lambdaRuntime.name}: esbuild targets it and the tests run against it; move runtime and target together, deliberately.`,
    });
    const arnOf = (resource: Construct) => `<${Stack.of(this).getLogicalId(resource.node.defaultChild as CfnElement)}.Arn>`;
    if (spec.uses.table) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${arnOf(table)}/index/*]`,
        reason: 'The table\'s own secondary indexes (gsi1 lists a project\'s keys and jobs); nothing outside this table.',
      });
    }
    if (spec.uses.bucket) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${arnOf(bucket)}/*]`,
        reason: 'Object keys carry project and job ids made at run time (documents/<project>/<job>, results/<project>/<job>.json), so object actions name the bucket\'s objects, with named actions only.',
      });
    }
    return fn;
  }
}
