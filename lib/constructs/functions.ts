import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { env, functions as wiredFunctions, type FunctionName, type FunctionSpec, type QueueName } from '../wiring.ts';
import { pascal } from './naming.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface FunctionsProps {
  table: ITable;
  bucket: IBucket;
  queues: Record<QueueName, IQueue>;
}

/** One Lambda per wiring entry, with exactly the access its `uses` declares. */
export class Functions extends Construct {
  readonly byName = {} as Record<FunctionName, NodejsFunction>;

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    for (const [name, spec] of Object.entries(wiredFunctions) as [FunctionName, FunctionSpec][]) {
      this.byName[name] = this.create(name, spec, props);
    }
  }

  private create(name: FunctionName, spec: FunctionSpec, { table, bucket, queues }: FunctionsProps) {
    const id = pascal(name);
    const fn = new NodejsFunction(this, id, {
      description: `docex ${name} (${spec.entry})`,
      entry: join(repoRoot, spec.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: spec.memoryMb,
      timeout: Duration.seconds(spec.timeoutSeconds),
      logGroup: new LogGroup(this, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      bundling: {
        minify: true,
        sourceMap: true,
        // Maps give stack traces file:line; embedding the sources would only bloat the zip.
        sourcesContent: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // Ship the SDK version the tests ran against, not whatever the runtime carries.
        bundleAwsSDK: true,
        // CommonJS dependencies inside an ESM bundle still call require().
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        [env.table]: table.tableName,
        [env.bucket]: bucket.bucketName,
      },
    });

    if (spec.uses.table === 'read') table.grantReadData(fn);
    if (spec.uses.table === 'readwrite') table.grantReadWriteData(fn);
    if (spec.uses.bucket === 'read') bucket.grantRead(fn);
    if (spec.uses.bucket === 'write') bucket.grantPut(fn);
    if (spec.uses.bucket === 'readwrite') bucket.grantReadWrite(fn);
    for (const q of spec.uses.sendsTo ?? []) {
      fn.addEnvironment(env.queueUrl(q), queues[q].queueUrl);
      queues[q].grantSendMessages(fn);
    }
    return fn;
  }
}
