// Local twin of Step Functions for the aggregation state machine: a faithful
// interpreter of exactly the Amazon States Language the definition uses
// (Task with Retry, Catch and ResultPath, inline Map with ItemsPath,
// ItemSelector, MaxConcurrency, Catch and ResultPath, and Fail), run over the
// very definition object the stack synthesises. Anything else in a definition
// is refused, not guessed.
//
// Payloads are held to Step Functions' limit as AWS holds them: an execution
// input over 256 KB is refused at StartExecution, and a task result or state
// output over it fails the execution with States.DataLimitExceeded, which no
// retrier or catcher takes; so a state that would outgrow AWS fails here too.
//
// Executions are named and persisted under the data directory, so a restart
// of the local server resumes them (from the start: every task is
// idempotent), and starting a name twice starts it once, as in AWS.

import fs from 'node:fs';
import path from 'node:path';
import type { CatchRule, MapState, State, StateMachineDefinition, TaskState } from '../../lambdas/core/aggregation-definition.ts';

export type TaskHandler = (input: unknown) => Promise<unknown>;

interface ExecutionRecord {
  name: string;
  input: unknown;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  output?: unknown;
  /** Of a FAILED execution, as DescribeExecution gives them: the error's name and its cause. */
  error?: string;
  cause?: string;
}

class Aborted extends Error {}

/**
 * An error as Step Functions names it: a task's error takes the name of what
 * the function threw (Lambda's errorType), its cause the Lambda error JSON.
 */
class StatesError extends Error {
  constructor(
    readonly error: string,
    readonly cause: string,
  ) {
    super(`${error}: ${cause}`);
  }

  static of(thrown: unknown): StatesError {
    if (thrown instanceof StatesError) return thrown;
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    return new StatesError(error.name || 'Error', JSON.stringify({ errorType: error.name || 'Error', errorMessage: error.message }));
  }
}

/** A problem with the definition or the data's shape: AWS fails the execution, and States.ALL neither retries nor catches it. */
const runtimeError = (message: string) => new StatesError('States.Runtime', message);
/** Errors no retrier or catcher matches with States.ALL (the ASL specification's terminal errors). */
const UNCATCHABLE = new Set(['States.Runtime', 'States.DataLimitExceeded']);

type Machine = { StartAt: string; States: Record<string, State> };

/** Step Functions' quota on an execution's input, a task's result and a state's output: 256 KiB of JSON as UTF-8. */
export const PAYLOAD_LIMIT_BYTES = 256 * 1024;

const payloadBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');

/** As AWS words it in the failed execution's cause. */
function checkPayload(state: string, value: unknown): void {
  if (payloadBytes(value) > PAYLOAD_LIMIT_BYTES) {
    throw new StatesError('States.DataLimitExceeded', `The state/task '${state}' returned a result with a size exceeding the maximum number of bytes service limit.`);
  }
}

export class LocalStateMachine {
  private readonly running = new Map<string, { aborted: boolean; done: Promise<void> }>();

  constructor(
    private readonly definition: StateMachineDefinition,
    /** Task Resource (what the stack fills with a Lambda ARN) to the local handler. */
    private readonly tasks: Record<string, TaskHandler>,
    private readonly opts: { dir: string; timeScale?: number; log?: (message: string) => void },
  ) {
    validate(definition, tasks);
    fs.mkdirSync(opts.dir, { recursive: true });
  }

  /** Resumes executions a previous process left running. */
  resume(): void {
    for (const file of fs.readdirSync(this.opts.dir).filter((f) => f.endsWith('.json'))) {
      const record = JSON.parse(fs.readFileSync(path.join(this.opts.dir, file), 'utf8')) as ExecutionRecord;
      if (record.status === 'RUNNING') this.launch(record);
    }
  }

  /** Like StartExecution with a name: an existing execution of that name is left alone. */
  async start(name: string, input: unknown): Promise<void> {
    if (fs.existsSync(this.file(name))) return;
    const bytes = payloadBytes(input);
    if (bytes > PAYLOAD_LIMIT_BYTES) {
      const error = new Error(
        `1 validation error detected: Value at 'input' failed to satisfy constraint: Member must have length less than or equal to ${PAYLOAD_LIMIT_BYTES} (it has ${bytes}).`,
      );
      error.name = 'ValidationException';
      throw error;
    }
    const record: ExecutionRecord = { name, input, status: 'RUNNING' };
    this.save(record);
    this.launch(record);
  }

  async stop(name: string): Promise<void> {
    const run = this.running.get(name);
    const record = this.read(name);
    if (record?.status === 'RUNNING') this.save({ ...record, status: 'ABORTED' });
    if (run) run.aborted = true;
  }

  describe(name: string): ExecutionRecord | null {
    return this.read(name);
  }

  /** Waits for running executions (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops running executions without marking them: the next process resumes them. */
  async close(): Promise<void> {
    for (const run of this.running.values()) run.aborted = true;
    await this.idle();
  }

  private launch(record: ExecutionRecord): void {
    if (this.running.has(record.name)) return;
    const control = { aborted: false, done: Promise.resolve() };
    control.done = this.run(this.definition, record.input, control)
      .then((output) => {
        if (!control.aborted) this.save({ ...record, status: 'SUCCEEDED', output });
      })
      .catch((error: unknown) => {
        if (error instanceof Aborted || control.aborted) return;
        const failed = StatesError.of(error);
        this.opts.log?.(`aggregation execution ${record.name} failed: ${failed.message}`);
        this.save({ ...record, status: 'FAILED', error: failed.error, cause: failed.cause });
      })
      .finally(() => this.running.delete(record.name));
    this.running.set(record.name, control);
  }

  private async run(machine: Machine, input: unknown, control: { aborted: boolean }): Promise<unknown> {
    let name: string | undefined = machine.StartAt;
    let data = input;
    while (name) {
      if (control.aborted) throw new Aborted();
      const state: State = machine.States[name]!;
      if (state.Type === 'Fail') throw new StatesError(state.Error, state.Cause);
      let result: unknown;
      try {
        result = state.Type === 'Task' ? await this.task(state, data, control) : await this.map(state, data, control);
        checkPayload(name, result);
        checkPayload(name, state.ResultPath ? setPath(data, state.ResultPath, result) : result);
      } catch (thrown) {
        if (thrown instanceof Aborted || control.aborted) throw thrown;
        const error = StatesError.of(thrown);
        const rule: CatchRule | undefined = state.Catch?.find((c) => matches(c.ErrorEquals, error.error));
        if (!rule) throw error;
        // As in AWS: the state's input, with the error object at the catcher's ResultPath.
        data = setPath(data, rule.ResultPath, { Error: error.error, Cause: error.cause });
        name = rule.Next;
        continue;
      }
      data = state.ResultPath ? setPath(data, state.ResultPath, result) : result;
      name = state.End ? undefined : state.Next;
    }
    return data;
  }

  private async task(state: TaskState, input: unknown, control: { aborted: boolean }): Promise<unknown> {
    const handler = this.tasks[state.Resource]!;
    const rule = state.Retry?.[0];
    for (let attempt = 1; ; attempt++) {
      try {
        // A copy, as across a Lambda invocation: handlers cannot share objects with the state.
        return structuredClone(await handler(structuredClone(input)));
      } catch (error) {
        if (!rule || attempt > rule.MaxAttempts || control.aborted) throw error;
        const waitMs = rule.IntervalSeconds * 1000 * rule.BackoffRate ** (attempt - 1) * (this.opts.timeScale ?? 1);
        await new Promise((r) => setTimeout(r, waitMs));
      }
    }
  }

  /**
   * An iteration that fails fails the Map with its error, as in AWS: no
   * further iteration starts, and the Map ends once those under way have.
   */
  private async map(state: MapState, input: unknown, control: { aborted: boolean }): Promise<unknown[]> {
    const items = getPath(input, state.ItemsPath);
    if (!Array.isArray(items)) throw runtimeError(`ItemsPath ${state.ItemsPath} is not an array`);
    const results: unknown[] = new Array(items.length);
    let next = 0;
    let failure: { error: unknown } | null = null;
    const lane = async () => {
      while (next < items.length && !failure) {
        const i = next++;
        try {
          results[i] = await this.run(state.ItemProcessor, select(state.ItemSelector, input, items[i]), control);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    const lanes = state.MaxConcurrency > 0 ? Math.min(state.MaxConcurrency, items.length) : items.length;
    await Promise.all(Array.from({ length: lanes }, lane));
    if (failure) throw (failure as { error: unknown }).error;
    return results;
  }

  private file(name: string): string {
    return path.join(this.opts.dir, `${encodeURIComponent(name)}.json`);
  }

  private read(name: string): ExecutionRecord | null {
    return fs.existsSync(this.file(name)) ? (JSON.parse(fs.readFileSync(this.file(name), 'utf8')) as ExecutionRecord) : null;
  }

  private save(record: ExecutionRecord): void {
    const tmp = `${this.file(record.name)}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(record));
    fs.renameSync(tmp, this.file(record.name));
  }
}

/** Refuses any state, field or path this interpreter does not implement. */
function validate(machine: Machine, tasks: Record<string, TaskHandler>): void {
  const known: Record<string, Set<string>> = {
    Task: new Set(['Type', 'Resource', 'Retry', 'Catch', 'ResultPath', 'Next', 'End']),
    Map: new Set(['Type', 'ItemsPath', 'ItemSelector', 'MaxConcurrency', 'ItemProcessor', 'Catch', 'ResultPath', 'Next', 'End']),
    Fail: new Set(['Type', 'Error', 'Cause']),
  };
  if (!machine.States[machine.StartAt]) throw new Error(`StartAt ${machine.StartAt} names no state`);
  for (const [name, state] of Object.entries(machine.States)) {
    const fields = known[state.Type];
    if (!fields) throw new Error(`state ${name}: type ${state.Type} is not supported by the local runner`);
    for (const field of Object.keys(state)) if (!fields.has(field)) throw new Error(`state ${name}: field ${field} is not supported by the local runner`);
    if (state.Type === 'Fail') continue;
    if (!state.End && !(state.Next && machine.States[state.Next])) throw new Error(`state ${name}: Next ${state.Next} names no state`);
    validateCatch(name, state.Catch, machine);
    if (state.Type === 'Task') {
      if (!tasks[state.Resource]) throw new Error(`state ${name}: no local handler for ${state.Resource}`);
      if ((state.Retry?.length ?? 0) > 1 || (state.Retry?.[0] && state.Retry[0].ErrorEquals.join() !== 'States.ALL')) {
        throw new Error(`state ${name}: only a single States.ALL retrier is supported by the local runner`);
      }
    } else {
      if (state.ItemProcessor.ProcessorConfig.Mode !== 'INLINE') throw new Error(`state ${name}: only inline Map is supported`);
      validate(state.ItemProcessor, tasks);
    }
  }
}

/**
 * Catchers match error names exactly, or everything catchable with
 * States.ALL, which must stand alone in the last catcher (as AWS requires).
 * Other States.* names (TaskFailed, Timeout...) would need their AWS
 * meaning modelled, so they are refused.
 */
function validateCatch(name: string, rules: CatchRule[] | undefined, machine: Machine): void {
  for (const [i, rule] of (rules ?? []).entries()) {
    if (!machine.States[rule.Next]) throw new Error(`state ${name}: Catch Next ${rule.Next} names no state`);
    getPath(undefined, rule.ResultPath);
    if (rule.ErrorEquals.length === 0) throw new Error(`state ${name}: a catcher needs ErrorEquals`);
    for (const error of rule.ErrorEquals) {
      if (error === 'States.ALL' ? rule.ErrorEquals.length > 1 || i < rules!.length - 1 : error.startsWith('States.')) {
        throw new Error(`state ${name}: catching ${error} ${error === 'States.ALL' ? 'anywhere but alone in the last catcher is invalid' : 'is not supported by the local runner'}`);
      }
    }
  }
}

const matches = (errorEquals: string[], error: string) =>
  errorEquals.includes(error) || (errorEquals.includes('States.ALL') && !UNCATCHABLE.has(error));

/** Reference paths of the form $, $.a.b (all the definition uses). */
function getPath(data: unknown, ref: string): unknown {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(ref)) throw runtimeError(`path ${ref} is not supported by the local runner`);
  return ref.split('.').slice(1).reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], data);
}

function setPath(data: unknown, ref: string, value: unknown): unknown {
  if (ref === '$') return value;
  getPath(undefined, ref); // validates the form
  const keys = ref.split('.').slice(1);
  const copy = structuredClone((data ?? {}) as Record<string, unknown>);
  let node = copy;
  for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = value;
  return copy;
}

/** ItemSelector: "key.$" fields take a path into the Map's input, or $$.Map.Item.Value for the item itself. */
function select(selector: Record<string, string>, input: unknown, item: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(selector)) {
    if (!key.endsWith('.$')) out[key] = value;
    else if (value === '$$.Map.Item.Value') out[key.slice(0, -2)] = item;
    else out[key.slice(0, -2)] = getPath(input, value);
  }
  return out;
}
