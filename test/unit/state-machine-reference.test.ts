// The aggregation definition run by aws-local-stepfunctions, a maintained ASL
// interpreter we did not write, beside lib/local/state-machine.ts with the
// same task handlers: both must call the same tasks with the same inputs and
// end the same way. The local server keeps its own runner (README,
// Dependencies, says why); this keeps it honest.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StateMachine } from 'aws-local-stepfunctions';
import { afterAll, describe, expect, it } from 'vitest';
import { AGGREGATION_FAILED_ERROR, aggregationDefinition, type TaskState } from '../../lambdas/core/aggregation-definition.ts';
import { LocalStateMachine, type TaskHandler } from '../../lib/local/state-machine.ts';
import '../support/with-resolvers.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-sfn-ref-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;

const definition = aggregationDefinition({ part: 'part', finish: 'finish', fail: 'fail' });
const input = (count: number) => ({ job_id: 'job', project_id: 'p', manifest: 'm.json', batches: Array.from({ length: count }, (_, i) => [i, i + 1]) });
type Handlers = Record<'part' | 'finish' | 'fail', TaskHandler>;
type Run = { status: string; output?: unknown; error?: string; calls: Array<[string, unknown]> };

/** Handlers that record every call, made afresh for each runner. */
function recorded(make: () => Handlers): { handlers: Handlers; calls: Array<[string, unknown]> } {
  const calls: Array<[string, unknown]> = [];
  const inner = make();
  const handlers = Object.fromEntries(
    Object.entries(inner).map(([name, fn]) => [name, async (taskInput: unknown) => (calls.push([name, structuredClone(taskInput)]), fn(taskInput))]),
  ) as Handlers;
  return { handlers, calls };
}

async function ours(make: () => Handlers, payload: unknown): Promise<Run> {
  const { handlers, calls } = recorded(make);
  const machine = new LocalStateMachine(definition, handlers, { dir: path.join(root, String(n++)), timeScale: 0 });
  await machine.start('job', payload);
  await machine.idle();
  const record = machine.describe('job')!;
  return { status: record.status, output: record.output, error: record.error, calls };
}

async function reference(make: () => Handlers, payload: unknown): Promise<Run> {
  const { handlers, calls } = recorded(make);
  // The library keys handlers by state name; the definition's Resource names which handler each state calls.
  const byState = { AggregatePart: handlers.part, Finish: handlers.finish, FailJob: handlers.fail };
  // A copy: the library writes into the definition it is given (each state gains QueryLanguage).
  const machine = new StateMachine(structuredClone(definition) as never, { validationOptions: { checkArn: false, checkPaths: true } });
  const execution = machine.run(payload as never, {
    overrides: {
      taskResourceLocalHandlers: byState as never,
      retryIntervalOverrides: Object.fromEntries(Object.keys(byState).map((state) => [state, 0])),
    },
  });
  try {
    return { status: 'SUCCEEDED', output: await execution.result, calls };
  } catch (error) {
    // What ended the execution (the Fail state's Error) is the cause of the library's ExecutionError.
    return { status: 'FAILED', error: (error as { cause?: { name?: string } }).cause?.name, calls };
  }
}

/** Calls in a comparable order: Map iterations run concurrently, so their order is not part of the contract. */
const sorted = (calls: Array<[string, unknown]>) => calls.map((c) => JSON.stringify(c)).sort();

describe('the aggregation definition in aws-local-stepfunctions and in the local runner', () => {
  it('measures every batch through the Map and hands their results, in order, to Finish', async () => {
    const make = (): Handlers => ({
      part: async (item) => ({ measured: (item as { batch: number[] }).batch[0] }),
      finish: async (state) => ({ done: true, measured: (state as { measured: unknown[] }).measured }),
      fail: async () => ({}),
    });
    const [a, b] = [await ours(make, input(20)), await reference(make, input(20))];
    expect(a.status).toBe('SUCCEEDED');
    expect(b).toMatchObject({ status: a.status, output: a.output });
    expect(sorted(b.calls)).toEqual(sorted(a.calls));
  });

  it('retries a failing Finish as its Retry rule says, then runs FailJob with the error at $.error and ends failed', async () => {
    const make = (): Handlers => ({
      part: async () => ({ measured: true }),
      finish: async () => {
        throw new TypeError('down');
      },
      fail: async () => ({ failed: true }),
    });
    const [a, b] = [await ours(make, input(2)), await reference(make, input(2))];
    expect(a).toMatchObject({ status: 'FAILED', error: AGGREGATION_FAILED_ERROR });
    expect(b).toMatchObject({ status: 'FAILED', error: AGGREGATION_FAILED_ERROR });
    const finishes = (run: Run) => run.calls.filter(([name]) => name === 'finish').length;
    expect(finishes(a)).toBe(1 + (definition.States.Finish as TaskState).Retry![0]!.MaxAttempts);
    expect(finishes(b)).toBe(finishes(a));
    // The same error name at $.error; the Cause differs in form only (ours is the Lambda error JSON AWS gives, the library's the message).
    const failInput = (run: Run) => run.calls.find(([name]) => name === 'fail')![1] as { error: { Error: string; Cause: string } };
    expect(failInput(b).error.Error).toBe(failInput(a).error.Error);
    expect(JSON.parse(failInput(a).error.Cause)).toMatchObject({ errorType: 'TypeError', errorMessage: 'down' });
    expect(failInput(b).error.Cause).toContain('down');
  });

  it('fails the Map on an iteration that fails for good, and catches it into FailJob', async () => {
    const make = (): Handlers => ({
      part: async (item) => {
        if ((item as { batch: number[] }).batch[0] === 3) throw new RangeError('bad part');
        return { measured: true };
      },
      finish: async () => ({}),
      fail: async () => ({ failed: true }),
    });
    const [a, b] = [await ours(make, input(4)), await reference(make, input(4))];
    for (const run of [a, b]) {
      expect(run).toMatchObject({ status: 'FAILED', error: AGGREGATION_FAILED_ERROR });
      expect(run.calls.filter(([name]) => name === 'finish')).toEqual([]);
      expect((run.calls.find(([name]) => name === 'fail')![1] as { error: { Error: string } }).error.Error).toBe('RangeError');
    }
  });
});
