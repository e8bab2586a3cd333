// Plays Lambda and its event sources around the deployed stack: each function's
// synthesized asset runs in a warm child process of its own, with the
// environment, handler, timeout and memory of its deployed configuration; its
// SDK calls go through the recording proxy signed with an access key that
// names the function, and every call is checked against that function's
// deployed role. API Gateway, the SQS event-source mappings, the bucket's
// notifications and the state machine invoke functions only as the deployed
// routes, mappings, notifications, resource policies and definition say.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { StateMachine } from 'aws-local-stepfunctions';
import { createApiGateway, type ApiHandler } from '../../lib/local/api-gateway.ts';
import type { FunctionName, RouteSpec } from '../../lib/wiring.ts';
import { accessKeyOf, awsCallOf, type AwsCall } from './aws-call.ts';
import { ACCOUNT, REGION, type Deployed, type DeployedFunction } from './deployment.ts';
import { isAllowed, wildcardMatch, type PolicyDocument } from './iam-policy.ts';
import type { RecordingProxy } from './recording-proxy.ts';
import '../support/with-resolvers.ts';

const BOOTSTRAP = path.join(import.meta.dirname, 'lambda-bootstrap.mjs');

export interface CheckedCall extends AwsCall {
  fn: string;
  denied: string[];
}

interface Container {
  child: ChildProcess;
  ready: Promise<void>;
  output: string[];
  pending: Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
}

export class FunctionError extends Error {
  constructor(fn: string, readonly error: { errorType: string; errorMessage: string; stack: string }) {
    super(`${fn} failed: ${error.errorType}: ${error.errorMessage}\n${error.stack}`);
  }
}

export class Harness {
  private readonly containers = new Map<string, Container>();
  private readonly keys = new Map<string, DeployedFunction>();
  /** Invocations per function name, for the coverage check. */
  readonly invocations = new Map<string, number>();
  readonly invokeRefusals: string[] = [];
  /** Every function error, in order: what a failed assertion should show. */
  readonly functionErrors: string[] = [];
  api?: http.Server;
  apiUrl = '';

  constructor(
    readonly deployed: Deployed,
    readonly proxy: RecordingProxy,
    readonly node: { execPath: string },
    private readonly extraEnv: Record<string, string> = {},
    /** Modules preloaded into every runtime (--import), after the function's own NODE_OPTIONS. */
    private readonly preloads: string[] = [],
  ) {
    deployed.functions.forEach((fn, i) => this.keys.set(`HARNESSFN${String(i).padStart(2, '0')}`, fn));
  }

  fn(name: string): DeployedFunction {
    const fn = this.deployed.functions.find((f) => f.name === name);
    if (!fn) throw new Error(`no deployed function ${name}`);
    return fn;
  }

  private byArn(arn: string): DeployedFunction {
    const fn = this.deployed.functions.find((f) => f.arn === arn);
    if (!fn) throw new Error(`no deployed function ${arn}`);
    return fn;
  }

  keyOf(fn: DeployedFunction): string {
    for (const [key, f] of this.keys) if (f === fn) return key;
    throw new Error(`no key for ${fn.name}`);
  }

  /** The environment Lambda gives the function: its own variables, the runtime's, and (emulator only) the endpoint. */
  environmentOf(fn: DeployedFunction): Record<string, string> {
    const own = { ...(fn.config.Environment?.Variables ?? {}) };
    for (const [k, v] of Object.entries(own)) {
      // moto's CloudFormation answers queue URLs with the real SQS host.
      own[k] = v.replace(/^https:\/\/(sqs\.[a-z0-9-]+\.amazonaws\.com|queue\.amazonaws\.com)/, this.proxy.url);
    }
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...own,
      AWS_REGION: REGION,
      AWS_DEFAULT_REGION: REGION,
      AWS_ACCESS_KEY_ID: this.keyOf(fn),
      AWS_SECRET_ACCESS_KEY: 'harness',
      AWS_ENDPOINT_URL: this.proxy.url,
      AWS_LAMBDA_FUNCTION_NAME: fn.config.FunctionName!,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.config.MemorySize),
      AWS_LAMBDA_LOG_GROUP_NAME: fn.config.LoggingConfig?.LogGroup ?? `/aws/lambda/${fn.config.FunctionName}`,
      AWS_EXECUTION_ENV: `AWS_Lambda_${fn.config.Runtime}`,
      LAMBDA_TASK_ROOT: fn.codeDir,
      _HANDLER: fn.config.Handler!,
      TZ: ':UTC',
      LANG: 'en_US.UTF-8',
      DOCEX_HARNESS_TIMEOUT_SECONDS: String(fn.config.Timeout),
      ...this.extraEnv,
      NODE_OPTIONS: [own.NODE_OPTIONS ?? '', ...this.preloads.map((p) => `--import=${pathToFileURL(p).href}`)].join(' ').trim(),
    };
  }

  private container(fn: DeployedFunction): Container {
    const existing = this.containers.get(fn.arn);
    if (existing) return existing;
    const child = spawn(this.node.execPath, [BOOTSTRAP], { cwd: fn.codeDir, env: this.environmentOf(fn), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const c: Container = { child, output: [], pending: new Map(), ready: Promise.resolve() };
    const keep = (chunk: Buffer) => {
      c.output.push(chunk.toString('utf8'));
      if (c.output.length > 400) c.output.splice(0, c.output.length - 400);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    c.ready = new Promise((resolve, reject) => {
      child.on('message', (m: any) => {
        if (m.ready) return resolve();
        const waiter = c.pending.get(m.requestId);
        if (!waiter) return;
        c.pending.delete(m.requestId);
        if (m.ok) waiter.resolve(m.result);
        else {
          this.functionErrors.push(`${fn.name}: ${m.error.errorType}: ${m.error.errorMessage}`);
          waiter.reject(new FunctionError(fn.name, m.error));
        }
      });
      child.on('exit', (code) => {
        this.containers.delete(fn.arn);
        const why = new Error(`${fn.name}'s runtime exited with ${code}: ${c.output.join('').slice(-3000)}`);
        reject(why);
        for (const w of c.pending.values()) w.reject(why);
      });
    });
    // A container killed at the end of the run, or one that never started, is reported to the invocation that waits on it.
    c.ready.catch(() => undefined);
    this.containers.set(fn.arn, c);
    return c;
  }

  /** Invokes a function as Lambda does, after checking its resource policy admits the caller (API Gateway, S3); event sources that poll pass no invoker. */
  async invoke(arn: string, event: unknown, invoker?: { principal: string; sourceArn: string }): Promise<any> {
    const fn = this.byArn(arn);
    if (invoker && !fn.invokers.some((i) => i.principal === invoker.principal && (!i.sourceArn || wildcardMatch(i.sourceArn, invoker.sourceArn)))) {
      const why = `${invoker.principal} (${invoker.sourceArn}) may not invoke ${fn.name}: its resource policy admits ${JSON.stringify(fn.invokers)}`;
      this.invokeRefusals.push(why);
      throw new Error(why);
    }
    this.invocations.set(fn.name, (this.invocations.get(fn.name) ?? 0) + 1);
    const c = this.container(fn);
    await c.ready;
    const requestId = randomUUID();
    const timeoutMs = fn.config.Timeout! * 1000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        c.pending.delete(requestId);
        c.child.kill('SIGKILL');
        reject(new Error(`${fn.name} timed out after ${fn.config.Timeout} s`));
      }, timeoutMs);
      c.pending.set(requestId, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      c.child.send({ requestId, functionArn: fn.arn, event });
    });
  }

  output(name: string): string {
    return this.containers.get(this.fn(name).arn)?.output.join('') ?? '';
  }

  /** API Gateway as deployed: its routes, each invoking its integration's function with API Gateway as the invoker. */
  async startApi(): Promise<string> {
    const restApiId = new URL(this.deployed.outputs.ApiUrl!.replace(/^https?:\/\/([^.]+)\..*$/, 'http://$1/')).hostname;
    const routes: RouteSpec[] = this.deployed.routes.map((r) => ({ method: r.method as RouteSpec['method'], path: r.path, fn: r.fnArn as FunctionName, auth: true }));
    const handlers = Object.fromEntries(
      this.deployed.routes.map((r) => [r.fnArn, ((event) =>
        this.invoke(r.fnArn, event, { principal: 'apigateway.amazonaws.com', sourceArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:${restApiId}/prod/${event.httpMethod}${event.path}` })) as ApiHandler]),
    ) as Record<FunctionName, ApiHandler>;
    this.api = createApiGateway(routes, handlers);
    await new Promise<void>((resolve) => this.api!.listen(0, '127.0.0.1', resolve));
    this.apiUrl = `http://127.0.0.1:${(this.api.address() as AddressInfo).port}`;
    return this.apiUrl;
  }

  /**
   * One poll of each event-source mapping on the queue, as Lambda's poller
   * does with the function's role: receive a batch, invoke, delete what
   * succeeded, leave the reported failures. Answers how many records it passed.
   */
  async pollQueue(queueArn: string, waitSeconds = 0): Promise<{ records: number; failures: number }> {
    const mapping = this.deployed.mappings.find((m) => m.queueArn === queueArn && m.enabled);
    if (!mapping) throw new Error(`no enabled event-source mapping reads ${queueArn}`);
    const fn = this.byArn(mapping.fnArn);
    const sqs = new SQSClient({ endpoint: this.proxy.url, region: REGION, credentials: { accessKeyId: this.keyOf(fn), secretAccessKey: 'harness' } });
    const queueUrl = `${this.proxy.url}/${ACCOUNT}/${queueArn.split(':').pop()}`;
    await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['VisibilityTimeout'] }));
    const received = await sqs.send(new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: Math.min(mapping.batchSize, 10),
      WaitTimeSeconds: waitSeconds,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }));
    const messages = received.Messages ?? [];
    if (messages.length === 0) return { records: 0, failures: 0 };
    const event: SQSEvent = { Records: messages.map((m) => sqsRecord(m, queueArn)) };
    let failed: Set<string>;
    try {
      const answer = (await this.invoke(fn.arn, event)) as { batchItemFailures?: { itemIdentifier: string }[] } | null;
      failed = new Set(mapping.reportsBatchItemFailures ? (answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier) : []);
    } catch (error) {
      if (!(error instanceof FunctionError)) throw error;
      failed = new Set(messages.map((m) => m.MessageId!));
    }
    const done = messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length > 0) {
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    }
    return { records: messages.length, failures: failed.size };
  }

  /** Polls the queue until a long poll gives nothing, as the poller's 20 s long polls would (failures left invisible count as handled here). */
  async drainQueue(queueArn: string, maxPolls = 50): Promise<{ records: number; failures: number }> {
    const total = { records: 0, failures: 0 };
    for (let i = 0; i < maxPolls; i++) {
      const r = await this.pollQueue(queueArn, 1);
      if (r.records === 0) return total;
      total.records += r.records;
      total.failures += r.failures;
    }
    throw new Error(`${queueArn} still had messages after ${maxPolls} polls`);
  }

  /** The bucket's notification for an object created under a configured prefix, as S3 sends it (with S3 as the invoker). */
  async objectCreated(bucket: string, key: string, size: number): Promise<number> {
    let sent = 0;
    for (const n of this.deployed.notifications.filter((x) => x.bucket === bucket && key.startsWith(x.prefix))) {
      if (!n.events.some((e) => wildcardMatch(e, 's3:ObjectCreated:Put'))) continue;
      const event = {
        Records: [{
          eventVersion: '2.1', eventSource: 'aws:s3', awsRegion: REGION, eventTime: new Date().toISOString(), eventName: 'ObjectCreated:Put',
          userIdentity: { principalId: 'harness' }, requestParameters: { sourceIPAddress: '127.0.0.1' }, responseElements: {},
          s3: { s3SchemaVersion: '1.0', configurationId: 'harness', bucket: { name: bucket, ownerIdentity: { principalId: 'harness' }, arn: `arn:aws:s3:::${bucket}` },
            object: { key: encodeURIComponent(key).replace(/%2F/g, '/').replace(/%20/g, '+'), size, eTag: '', sequencer: '0' } },
        }],
      };
      await this.invoke(n.fnArn, event, { principal: 's3.amazonaws.com', sourceArn: `arn:aws:s3:::${bucket}` });
      sent++;
    }
    return sent;
  }

  /**
   * Runs the deployed state machine's definition in aws-local-stepfunctions,
   * each Task invoking the function its Resource names, once the state
   * machine's role is checked to allow lambda:InvokeFunction on it.
   */
  async runStateMachine(input: unknown, opts: { retryIntervalMs?: number } = {}) {
    const { definition, policies } = this.deployed.stateMachine;
    const tasks = new Map<string, string>();
    const walk = (states: Record<string, any>) => {
      for (const [name, s] of Object.entries(states)) {
        if (s.Type === 'Task') tasks.set(name, s.Resource);
        if (s.ItemProcessor) walk(s.ItemProcessor.States);
        if (s.Iterator) walk(s.Iterator.States);
        for (const b of s.Branches ?? []) walk(b.States);
      }
    };
    walk(definition.States);
    const handlers = Object.fromEntries([...tasks].map(([state, resource]) => [state, async (taskInput: any) => {
      if (!isAllowed(policies, { action: 'lambda:InvokeFunction', resource })) throw new Error(`the state machine's role may not invoke ${resource} (state ${state})`);
      try {
        return await this.invoke(resource, taskInput);
      } catch (error) {
        // As the Lambda integration reports a function error: its errorType becomes the state's error name.
        if (error instanceof FunctionError) throw Object.assign(new Error(error.error.errorMessage), { name: error.error.errorType });
        throw error;
      }
    }]));
    const machine = new StateMachine(definition as any, { validationOptions: { checkArn: true, checkPaths: true } });
    const execution = machine.run(input as any, {
      overrides: {
        taskResourceLocalHandlers: handlers,
        retryIntervalOverrides: Object.fromEntries([...tasks.keys()].map((s) => [s, opts.retryIntervalMs ?? 0])),
      },
    });
    try {
      return { status: 'SUCCEEDED' as const, output: await execution.result, error: null };
    } catch (error) {
      // The interpreter wraps what ended the execution (a Fail state's Error and Cause) as the cause of its ExecutionError.
      const ended = (error as { cause?: { name?: string; message?: string } }).cause;
      return { status: 'FAILED' as const, output: null, error: { name: ended?.name ?? (error as Error).name, cause: ended?.message ?? String(error) } };
    }
  }

  /** Every recorded AWS call, attributed to its function and checked against its role. */
  checkedCalls(policiesOf: (fn: DeployedFunction) => PolicyDocument[] = (fn) => fn.policies): CheckedCall[] {
    return this.proxy.requests.map((r) => {
      const key = accessKeyOf(r);
      const fn = key ? this.keys.get(key) : undefined;
      if (!fn) throw new Error(`a request not signed by any function's key: ${r.method} ${r.url} (${key})`);
      const call = awsCallOf(r, { region: REGION, account: ACCOUNT });
      const denied = call.permissions.filter((p) => !isAllowed(policiesOf(fn), p)).map((p) => `${p.action} on ${p.resource}`);
      return { ...call, fn: fn.name, denied };
    });
  }

  async stop(): Promise<void> {
    for (const c of this.containers.values()) c.child.kill('SIGKILL');
    this.containers.clear();
    if (this.api) await new Promise((resolve) => { this.api!.closeAllConnections(); this.api!.close(resolve); });
  }
}

function sqsRecord(m: Message, queueArn: string): SQSRecord {
  const attrs = m.Attributes ?? {};
  return {
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attrs.ApproximateReceiveCount ?? '1',
      SentTimestamp: attrs.SentTimestamp ?? String(Date.now()),
      SenderId: attrs.SenderId ?? 'harness',
      ApproximateFirstReceiveTimestamp: attrs.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [k, {
      dataType: v.DataType!,
      ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
      ...(v.BinaryValue !== undefined ? { binaryValue: Buffer.from(v.BinaryValue).toString('base64') } : {}),
      stringListValues: [], binaryListValues: [],
    }])),
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: REGION,
  } as SQSRecord;
}

export function writeReport(file: string, lines: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n') + '\n');
}
