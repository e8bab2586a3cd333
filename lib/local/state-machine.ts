// Local twin of Step Functions for the aggregation state machine: a faithful
// interpreter of exactly the Amazon States Language the definition uses
// (Task with Retry and ResultPath, inline Map with ItemsPath, ItemSelector,
// MaxConcurrency and ResultPath), run over the very definition object the
// stack synthesises. Anything else in a definition is refused, not guessed.
//
// Executions are named and persisted under the data directory, so a restart
// of the local server resumes them (from the start: every task is
// idempotent), and starting a name twice starts it once, as in AWS.

import fs from 'node:fs';
import path from 'node:path';
import type { MapState, StateMachineDefinition, TaskState } from '../../lambdas/core/aggregation-definition.ts';

export type TaskHandler = (input: unknown) => Promise<unknown>;

interface ExecutionRecord {
  name: string;
  input: unknown;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  output?: unknown;
  error?: string;
}

class Aborted extends Error {}

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
        this.opts.log?.(`aggregation execution ${record.name} failed: ${String(error)}`);
        this.save({ ...record, status: 'FAILED', error: String(error) });
      })
      .finally(() => this.running.delete(record.name));
    this.running.set(record.name, control);
  }

  private async run(machine: { StartAt: string; States: Record<string, TaskState | MapState> }, input: unknown, control: { aborted: boolean }): Promise<unknown> {
    let name: string | undefined = machine.StartAt;
    let data = input;
    while (name) {
      if (control.aborted) throw new Aborted();
      const state: TaskState | MapState = machine.States[name]!;
      const result = state.Type === 'Task' ? await this.task(state, data, control) : await this.map(state, data, control);
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

  private async map(state: MapState, input: unknown, control: { aborted: boolean }): Promise<unknown[]> {
    const items = getPath(input, state.ItemsPath);
    if (!Array.isArray(items)) throw new Error(`States.Runtime: ItemsPath ${state.ItemsPath} is not an array`);
    const results: unknown[] = new Array(items.length);
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const i = next++;
        const item = select(state.ItemSelector, input, items[i]);
        results[i] = await this.run(state.ItemProcessor, item, control);
      }
    };
    const lanes = state.MaxConcurrency > 0 ? Math.min(state.MaxConcurrency, items.length) : items.length;
    await Promise.all(Array.from({ length: lanes }, lane));
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
function validate(machine: { StartAt: string; States: Record<string, TaskState | MapState> }, tasks: Record<string, TaskHandler>): void {
  const known: Record<string, Set<string>> = {
    Task: new Set(['Type', 'Resource', 'Retry', 'ResultPath', 'Next', 'End']),
    Map: new Set(['Type', 'ItemsPath', 'ItemSelector', 'MaxConcurrency', 'ItemProcessor', 'ResultPath', 'Next', 'End']),
  };
  if (!machine.States[machine.StartAt]) throw new Error(`StartAt ${machine.StartAt} names no state`);
  for (const [name, state] of Object.entries(machine.States)) {
    const fields = known[state.Type];
    if (!fields) throw new Error(`state ${name}: type ${state.Type} is not supported by the local runner`);
    for (const field of Object.keys(state)) if (!fields.has(field)) throw new Error(`state ${name}: field ${field} is not supported by the local runner`);
    if (!state.End && !(state.Next && machine.States[state.Next])) throw new Error(`state ${name}: Next ${state.Next} names no state`);
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

/** Reference paths of the form $, $.a.b (all the definition uses). */
function getPath(data: unknown, ref: string): unknown {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(ref)) throw new Error(`path ${ref} is not supported by the local runner`);
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
