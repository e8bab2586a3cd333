// Synthesizes the stack, deploys it into moto server with the real CDK CLI,
// and reads back what was deployed: every function's configuration and role
// policies, the API's routes, the event-source mappings, the bucket's
// notifications and the state machine, all from the emulator's services (which
// CloudFormation built from the deployed template), never from lib/wiring.ts.
//
// Emulator workarounds, each needed by moto and not by AWS:
// - AWS_ENDPOINT_URL names `localhost`: moto misreads the template URL the CLI
//   passes when it names 127.0.0.1.
// - `--method=direct`: moto's change sets ignore DependsOn and create the API
//   deployment before its methods.
// - The bucket-notifications custom resource is a Python Lambda that moto
//   cannot run without Docker: this harness does its work (applies the
//   configuration from the resource's properties) and answers CloudFormation.
// - Queue URLs from moto's CloudFormation name the real SQS host; the
//   functions get the emulator's endpoint in their place.

import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { APIGatewayClient, GetResourcesCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStackResourcesCommand, DescribeStacksCommand, GetTemplateCommand, type StackResource } from '@aws-sdk/client-cloudformation';
import { GetRoleCommand, GetRolePolicyCommand, IAMClient, ListAttachedRolePoliciesCommand, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import { GetFunctionConfigurationCommand, GetPolicyCommand, LambdaClient, ListEventSourceMappingsCommand, UpdateEventSourceMappingCommand, type FunctionConfiguration } from '@aws-sdk/client-lambda';
import { GetBucketNotificationConfigurationCommand, PutBucketNotificationConfigurationCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import type { PolicyDocument } from './iam-policy.ts';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const REGION = 'us-east-1';
export const ACCOUNT = '123456789012';
export const STACK = 'Docex';
export const adminCredentials = { accessKeyId: 'harness', secretAccessKey: 'harness' };

export interface Moto {
  endpoint: string;
  log: string;
  stop(): void;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The pinned moto server, with DynamoDB requests one at a time (test/support/moto-server.py). */
export async function startMoto(workDir: string): Promise<Moto> {
  const port = await freePort();
  const log = path.join(workDir, 'moto.log');
  const child = spawn('python3', [path.join(ROOT, 'test/support/moto-server.py'), '-H', '127.0.0.1', '-p', String(port)], {
    detached: true,
    stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')],
  });
  const endpoint = `http://localhost:${port}`;
  let up = false;
  for (let i = 0; i < 120 && !up; i++) {
    try {
      up = (await fetch(`${endpoint}/moto-api/`)).ok;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (!up) {
    try { process.kill(-child.pid!); } catch { /* never started */ }
    throw new Error(`moto server did not answer on ${endpoint} within 60 s (pip install "moto[server]==5.2.5"?): ${fs.readFileSync(log, 'utf8').slice(-2000)}`);
  }
  return { endpoint, log, stop: () => { try { process.kill(-child.pid!); } catch { /* already gone */ } } };
}

export function synth(cdkOut: string): void {
  execFileSync('npx', ['cdk', 'synth', '--quiet', '-o', cdkOut], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

const clientConfig = (endpoint: string) => ({ endpoint, region: REGION, credentials: adminCredentials });

/** `cdk bootstrap` and `cdk deploy` of the synthesized assembly; the custom resource is answered while the deploy waits for it. */
export async function deploy(cdkOut: string, endpoint: string, logFile: string): Promise<void> {
  const env = { ...process.env, AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: adminCredentials.accessKeyId, AWS_SECRET_ACCESS_KEY: adminCredentials.secretAccessKey, AWS_REGION: REGION, AWS_DEFAULT_REGION: REGION, CDK_DISABLE_VERSION_CHECK: '1' };
  const cdk = (args: string[]) => execFileAsync('npx', ['cdk', ...args, '--app', cdkOut, '--no-notices'], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 })
    .then(({ stdout, stderr }) => fs.appendFileSync(logFile, stdout + stderr), (e: { stdout?: string; stderr?: string }) => {
      fs.appendFileSync(logFile, `${e.stdout ?? ''}${e.stderr ?? ''}`);
      throw new Error(`cdk ${args[0]} failed (see ${logFile}): ${(e.stderr ?? '').slice(-2000)}`);
    });
  await cdk(['bootstrap', `aws://${ACCOUNT}/${REGION}`]);
  // Only once CreateStack has returned: moto builds a stack's resources lazily, and a
  // DescribeStackResources during CreateStack builds them a second time (two functions,
  // two APIs). The CLI reports the stack's first event only after CreateStack returned.
  let created = false;
  let deploying = true;
  const answered = new Set<string>();
  const watcher = (async () => {
    while (deploying) {
      if (created) await answerCustomResources(endpoint, answered).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('npx', ['cdk', 'deploy', STACK, '--app', cdkOut, '--no-notices', '--method=direct', '--require-approval', 'never', '--progress', 'events'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const take = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        fs.appendFileSync(logFile, chunk);
        if (!created && /AWS::CloudFormation::Stack\s*\|\s*\S+ User Initiated/.test(output)) created = true;
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk deploy failed (${code}; see ${logFile}): ${output.slice(-2000)}`))));
    });
  } finally {
    deploying = false;
    await watcher;
  }
  const cfn = new CloudFormationClient(clientConfig(endpoint));
  const status = (await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!.StackStatus;
  if (status !== 'CREATE_COMPLETE') throw new Error(`stack ${STACK} is ${status}`);
}

type Template = { Resources: Record<string, { Type: string; Properties: Record<string, any> }>; Outputs?: Record<string, unknown> };

async function deployedTemplate(cfn: CloudFormationClient): Promise<Template> {
  const body = (await cfn.send(new GetTemplateCommand({ StackName: STACK }))).TemplateBody!;
  return JSON.parse(body) as Template;
}

/** Ref and Fn::GetAtt .Arn against what the stack created; enough for the custom resource's properties. */
async function resolve(value: unknown, resources: StackResource[], lambda: LambdaClient): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolve(v, resources, lambda)));
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const physical = (id: string) => {
      const r = resources.find((x) => x.LogicalResourceId === id);
      if (!r?.PhysicalResourceId) throw new Error(`${id} is not created yet`);
      return r;
    };
    if ('Ref' in o) return physical(o.Ref as string).PhysicalResourceId;
    if ('Fn::GetAtt' in o) {
      const [id, attr] = o['Fn::GetAtt'] as [string, string];
      const r = physical(id);
      if (r.ResourceType === 'AWS::Lambda::Function' && attr === 'Arn') {
        return (await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: r.PhysicalResourceId }))).FunctionArn;
      }
      throw new Error(`Fn::GetAtt ${id}.${attr}: not resolved by the harness`);
    }
    return Object.fromEntries(await Promise.all(Object.entries(o).map(async ([k, v]) => [k, await resolve(v, resources, lambda)])));
  }
  return value;
}

/** Does what CDK's bucket-notifications handler does, then reports success to CloudFormation as that handler would. */
async function answerCustomResources(endpoint: string, answered: Set<string>): Promise<void> {
  const cfn = new CloudFormationClient(clientConfig(endpoint));
  const resources = (await cfn.send(new DescribeStackResourcesCommand({ StackName: STACK }))).StackResources ?? [];
  const pending = resources.filter((r) => r.ResourceType === 'Custom::S3BucketNotifications' && r.ResourceStatus === 'CREATE_IN_PROGRESS' && !answered.has(r.LogicalResourceId!));
  if (pending.length === 0) return;
  const template = await deployedTemplate(cfn);
  const lambda = new LambdaClient(clientConfig(endpoint));
  const s3 = new S3Client({ ...clientConfig(endpoint), forcePathStyle: true });
  for (const r of pending) {
    const props = (await resolve(template.Resources[r.LogicalResourceId!]!.Properties, resources, lambda)) as Record<string, any>;
    await s3.send(new PutBucketNotificationConfigurationCommand({ Bucket: props.BucketName, NotificationConfiguration: props.NotificationConfiguration }));
    const answer = await fetch(`${endpoint}/cloudformation_${REGION}/cfnresponse?stack=${encodeURIComponent(r.StackId!)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Status: 'SUCCESS', StackId: r.StackId, LogicalResourceId: r.LogicalResourceId, RequestId: 'harness', PhysicalResourceId: r.PhysicalResourceId, Data: {} }),
    });
    if (!answer.ok) throw new Error(`cfnresponse answered ${answer.status}`);
    answered.add(r.LogicalResourceId!);
  }
}

export interface DeployedFunction {
  /** The wiring name, read from the deployed function's description ("docex <name> (<entry>)"). */
  name: string;
  logicalId: string;
  config: FunctionConfiguration;
  arn: string;
  /** The synthesized asset the function's Code names (its S3 key is the asset hash). */
  codeDir: string;
  policies: PolicyDocument[];
  /** Who may invoke it: its resource policy's statements. */
  invokers: { principal: string; sourceArn?: string }[];
}

export interface Deployed {
  outputs: Record<string, string>;
  functions: DeployedFunction[];
  routes: { method: string; path: string; fnArn: string }[];
  mappings: { uuid: string; queueArn: string; fnArn: string; batchSize: number; reportsBatchItemFailures: boolean; enabled: boolean }[];
  notifications: { bucket: string; fnArn: string; prefix: string; events: string[] }[];
  stateMachine: { arn: string; definition: Record<string, any>; policies: PolicyDocument[] };
}

async function rolePolicies(iam: IAMClient, roleArn: string): Promise<PolicyDocument[]> {
  const roleName = roleArn.split('/').pop()!;
  await iam.send(new GetRoleCommand({ RoleName: roleName }));
  const attached = (await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: roleName }))).AttachedPolicies ?? [];
  if (attached.length > 0) throw new Error(`${roleName} has managed policies attached (${attached.map((p) => p.PolicyName).join(', ')}); the stack gives inline policies only`);
  const names = (await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }))).PolicyNames ?? [];
  return Promise.all(names.map(async (PolicyName) => {
    const doc = (await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName }))).PolicyDocument!;
    return JSON.parse(doc.startsWith('%') || doc.includes('%22') ? decodeURIComponent(doc) : doc) as PolicyDocument;
  }));
}

export async function readDeployed(endpoint: string, cdkOut: string): Promise<Deployed> {
  const cfg = clientConfig(endpoint);
  const cfn = new CloudFormationClient(cfg);
  const lambda = new LambdaClient(cfg);
  const iam = new IAMClient(cfg);
  const s3 = new S3Client({ ...cfg, forcePathStyle: true });
  const stack = (await cfn.send(new DescribeStacksCommand({ StackName: STACK }))).Stacks![0]!;
  const outputs = Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
  const resources = (await cfn.send(new DescribeStackResourcesCommand({ StackName: STACK }))).StackResources ?? [];
  const template = await deployedTemplate(cfn);

  // moto resolves the stage in the API's invoke permissions' SourceArn to "None"; the template names it.
  const stageName = Object.values(template.Resources).find((r) => r.Type === 'AWS::ApiGateway::Stage')?.Properties.StageName as string;
  const functions: DeployedFunction[] = [];
  for (const r of resources.filter((x) => x.ResourceType === 'AWS::Lambda::Function')) {
    const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: r.PhysicalResourceId }));
    const name = /^docex (\S+) \(/.exec(config.Description ?? '')?.[1];
    if (!name) continue; // CDK's own bucket-notifications handler: its work is done by the harness.
    const key: string = template.Resources[r.LogicalResourceId!]!.Properties.Code.S3Key;
    let invokers: DeployedFunction['invokers'] = [];
    try {
      const policy = JSON.parse((await lambda.send(new GetPolicyCommand({ FunctionName: config.FunctionArn }))).Policy ?? '{}') as { Statement?: any[] };
      invokers = (policy.Statement ?? []).map((s) => ({ principal: s.Principal?.Service ?? JSON.stringify(s.Principal), sourceArn: (s.Condition?.ArnLike?.['AWS:SourceArn'] as string | undefined)?.replace(/^(arn:aws:execute-api:[^/]+)\/None\//, `$1/${stageName}/`) }));
    } catch (e) {
      if ((e as Error).name !== 'ResourceNotFoundException') throw e;
    }
    functions.push({
      name,
      logicalId: r.LogicalResourceId!,
      config,
      arn: config.FunctionArn!,
      codeDir: path.join(cdkOut, `asset.${key.replace(/\.zip$/, '')}`),
      policies: await rolePolicies(iam, config.Role!),
      invokers,
    });
  }

  const api = new APIGatewayClient(cfg);
  const restApiId = resources.find((x) => x.ResourceType === 'AWS::ApiGateway::RestApi')!.PhysicalResourceId!;
  const apiResources = (await api.send(new GetResourcesCommand({ restApiId, embed: ['methods'], limit: 500 }))).items ?? [];
  const routes = apiResources.flatMap((res) =>
    Object.entries(res.resourceMethods ?? {}).map(([method, m]) => {
      const uri = m.methodIntegration?.uri ?? '';
      const fnArn = /functions\/(arn:[^/]+)\/invocations/.exec(uri)?.[1];
      if (!fnArn) throw new Error(`${method} ${res.path}: integration ${uri} names no function`);
      return { method, path: res.path!, fnArn };
    }),
  );

  const mappings = ((await lambda.send(new ListEventSourceMappingsCommand({}))).EventSourceMappings ?? []).map((m) => ({
    uuid: m.UUID!,
    queueArn: m.EventSourceArn!,
    fnArn: m.FunctionArn!,
    batchSize: m.BatchSize ?? 10,
    reportsBatchItemFailures: (m.FunctionResponseTypes ?? []).includes('ReportBatchItemFailures'),
    enabled: m.State !== 'Disabled',
  }));

  const notifications: Deployed['notifications'] = [];
  for (const bucket of resources.filter((x) => x.ResourceType === 'AWS::S3::Bucket')) {
    const n = await s3.send(new GetBucketNotificationConfigurationCommand({ Bucket: bucket.PhysicalResourceId }));
    for (const c of n.LambdaFunctionConfigurations ?? []) {
      const prefix = c.Filter?.Key?.FilterRules?.find((f) => f.Name?.toLowerCase() === 'prefix')?.Value ?? '';
      notifications.push({ bucket: bucket.PhysicalResourceId!, fnArn: c.LambdaFunctionArn!, prefix, events: c.Events ?? [] });
    }
  }

  const sfn = new SFNClient(cfg);
  const machine = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: outputs.StateMachineArn }));
  return {
    outputs,
    functions,
    routes,
    mappings,
    notifications,
    stateMachine: { arn: machine.stateMachineArn!, definition: JSON.parse(machine.definition!), policies: await rolePolicies(iam, machine.roleArn!) },
  };
}

/**
 * moto runs an enabled SQS mapping itself on every SendMessage: it receives
 * the batch, fails to invoke the function (no Docker), and makes the messages
 * visible again, racing the harness's poller and counting receives. Once the
 * mappings are read, the harness switches moto's copies off and polls in their place.
 */
export async function takeOverEventSources(endpoint: string, deployed: Deployed): Promise<void> {
  const lambda = new LambdaClient(clientConfig(endpoint));
  for (const m of deployed.mappings) await lambda.send(new UpdateEventSourceMappingCommand({ UUID: m.uuid, Enabled: false }));
}

/** Node 22, the functions' runtime, from the npm registry's `node` package; the local Node when it cannot be had. */
export function lambdaNode(): { execPath: string; version: string; note: string } {
  try {
    const out = execFileSync('npx', ['-y', '-p', 'node@22.23.3', 'node', '-p', 'process.execPath + " " + process.version'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 180_000 }).trim().split('\n').pop()!;
    const [execPath, version] = out.split(' ') as [string, string];
    if (version.startsWith('v22.')) return { execPath, version, note: `assets ran on Node ${version} (npm package node@22.23.3), as the nodejs22.x runtime` };
  } catch {
    // Offline or no package: fall through to the local Node, and say so.
  }
  return { execPath: process.execPath, version: process.version, note: `Node 22 could not be installed from the npm registry: assets ran on the local Node ${process.version}, not the runtime's 22` };
}
