import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AGGREGATION_FAILED_ERROR,
  aggregationDefinition,
  AGGREGATION_MAP_CONCURRENCY,
  type StateMachineDefinition,
  type TaskState,
} from '../../lambdas/core/aggregation-definition.ts';
import { aggregationBatches, manifestKey, measuredKey } from '../../lambdas/core/large-document.ts';
import { LocalStateMachine, PAYLOAD_LIMIT_BYTES, type TaskHandler } from '../../lib/local/state-machine.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-sfn-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const dirOf = () => path.join(root, String(n++));
const definition = aggregationDefinition({ part: 'part', finish: 'finish', fail: 'fail' });
const failNotCalled: TaskHandler = async () => {
  throw new Error('the fail step ran');
};
const input = (count: number) => ({ job_id: 'job', project_id: 'p', manifest: 'm.json', batches: Array.from({ length: count }, (_, i) => [i, i]) });
/** Waits for the condition itself (the test's own time limit bounds it), not a fixed 2 s that a loaded machine can outlast (issue #18 item 13). */
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};

describe('the local Step Functions runner', () => {
  it('runs the aggregation definition: each batch through the Map with its selector, their outputs to the final task in order', async () => {
    const seen: unknown[] = [];
    const machine = new LocalStateMachine(definition, {
      part: async (item) => (seen.push(item), { measured: (item as { batch: [number, number] }).batch[0] }),
      finish: async (state) => state,
      fail: failNotCalled,
    }, { dir: dirOf() });
    await machine.start('job', input(3));
    await machine.idle();
    expect(seen).toContainEqual({ job_id: 'job', project_id: 'p', manifest: 'm.json', batch: [1, 1] });
    expect(machine.describe('job')).toMatchObject({ status: 'SUCCEEDED', output: { job_id: 'job', measured: [{ measured: 0 }, { measured: 1 }, { measured: 2 }] } });
  });

  it('runs at most MaxConcurrency iterations at once', async () => {
    let running = 0;
    let peak = 0;
    const part: TaskHandler = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return {};
    };
    const machine = new LocalStateMachine(definition, { part, finish: async () => ({}), fail: failNotCalled }, { dir: dirOf() });
    await machine.start('job', input(AGGREGATION_MAP_CONCURRENCY * 3));
    await machine.idle();
    expect(peak).toBe(AGGREGATION_MAP_CONCURRENCY);
  });

  it('retries a failing task as the Retry rule says, then routes its error to the Catch step and ends failed', async () => {
    let calls = 0;
    const caught: unknown[] = [];
    const machine = new LocalStateMachine(
      definition,
      {
        part: async () => ({ measured: true }),
        finish: async () => {
          calls++;
          throw new TypeError('down');
        },
        fail: async (state) => (caught.push(state), { failed: true }),
      },
      { dir: dirOf(), timeScale: 0.001 },
    );
    await machine.start('job', input(1));
    await machine.idle();
    expect(calls).toBe(1 + (definition.States.Finish as TaskState).Retry![0]!.MaxAttempts);
    // The catch step gets the failed state's input with the error beside it, named as Lambda names it.
    expect(caught).toEqual([
      {
        job_id: 'job',
        project_id: 'p',
        manifest: 'm.json',
        batches: [[0, 0]],
        measured: [{ measured: true }],
        error: { Error: 'TypeError', Cause: JSON.stringify({ errorType: 'TypeError', errorMessage: 'down' }) },
      },
    ]);
    expect(machine.describe('job')).toMatchObject({ status: 'FAILED', error: AGGREGATION_FAILED_ERROR, cause: expect.stringContaining('FailJob') });
  });

  it('catches a Map iteration that fails for good, and starts no further iteration after it', async () => {
    const started = new Set<number>();
    const caught: unknown[] = [];
    const attempts = 1 + (definition.States.MeasureParts as { ItemProcessor: { States: Record<string, TaskState> } }).ItemProcessor.States.AggregatePart!.Retry![0]!.MaxAttempts;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let tries = 0;
    const machine = new LocalStateMachine(
      definition,
      {
        part: async (item) => {
          const [index] = (item as { batch: [number, number] }).batch;
          started.add(index);
          if (index !== 0) return gate.then(() => ({}));
          // The other lanes are held until part 0 has failed for good, so what they start next is what the Map allows.
          if (++tries === attempts) setTimeout(release, 10);
          throw new Error('part 0 is unreadable');
        },
        finish: failNotCalled,
        fail: async (state) => (caught.push(state), {}),
      },
      { dir: dirOf(), timeScale: 0.0001 },
    );
    await machine.start('job', input(AGGREGATION_MAP_CONCURRENCY * 4));
    await machine.idle();
    // The batches are still there, untouched by the Map's ResultPath.
    expect(caught).toEqual([{ ...input(AGGREGATION_MAP_CONCURRENCY * 4), error: { Error: 'Error', Cause: expect.stringContaining('part 0 is unreadable') } }]);
    expect(started.size).toBe(AGGREGATION_MAP_CONCURRENCY);
    expect(machine.describe('job')?.status).toBe('FAILED');
  });

  it('fails the execution without catching when the error is States.Runtime, as AWS does', async () => {
    let failed = 0;
    const machine = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => ({}), fail: async () => (failed++, {}) }, { dir: dirOf() });
    // batches is not an array: the Map cannot run, and States.ALL does not catch that.
    await machine.start('job', { job_id: 'job', project_id: 'p', manifest: 'm.json', batches: 'none' });
    await machine.idle();
    expect(failed).toBe(0);
    expect(machine.describe('job')).toMatchObject({ status: 'FAILED', error: 'States.Runtime', cause: expect.stringContaining('ItemsPath') });
  });

  it('refuses an execution input over 256 KB, as StartExecution does, and records nothing', async () => {
    const machine = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => ({}), fail: failNotCalled }, { dir: dirOf() });
    await expect(machine.start('big', { job_id: 'big', blob: 'x'.repeat(PAYLOAD_LIMIT_BYTES) })).rejects.toThrow(/less than or equal to 262144/);
    expect(machine.describe('big')).toBeNull();
  });

  it('fails the execution with States.DataLimitExceeded, uncaught, when a task result or a Map\'s results outgrow 256 KB', async () => {
    let failed = 0;
    const fail: TaskHandler = async () => (failed++, {});
    const big = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => ({ blob: 'x'.repeat(PAYLOAD_LIMIT_BYTES) }), fail }, { dir: dirOf() });
    await big.start('job', input(1));
    await big.idle();
    expect(big.describe('job')).toMatchObject({ status: 'FAILED', error: 'States.DataLimitExceeded', cause: expect.stringContaining("'Finish'") });
    // Each iteration's answer is small; all of them together are not.
    const many = new LocalStateMachine(definition, { part: async () => ({ blob: 'x'.repeat(1000) }), finish: async () => ({}), fail }, { dir: dirOf() });
    await many.start('job', input(300));
    await many.idle();
    expect(many.describe('job')).toMatchObject({ status: 'FAILED', error: 'States.DataLimitExceeded', cause: expect.stringContaining("'MeasureParts'") });
    expect(failed).toBe(0);
  });

  it('keeps the aggregation of the largest document (a 500 MB text file, 3,334 parts) far inside the limit', async () => {
    const parts = 3334;
    const jobId = '0b8f1a52-51f4-4d7c-9a1e-3c7f2f9b6a10';
    const start = { job_id: jobId, project_id: 'p', manifest: manifestKey('p', jobId), batches: aggregationBatches(parts) };
    const measured = start.batches.map((batch) => ({ batch, key: measuredKey('p', jobId, batch[0]), cells: 2_000_000 }));
    expect(JSON.stringify({ ...start, measured }).length).toBeLessThan(PAYLOAD_LIMIT_BYTES / 10);
    const machine = new LocalStateMachine(
      definition,
      { part: async (item) => measured.find((m) => m.batch[0] === (item as { batch: [number, number] }).batch[0]), finish: async () => ({ done: true }), fail: failNotCalled },
      { dir: dirOf() },
    );
    await machine.start(jobId, start);
    await machine.idle();
    expect(machine.describe(jobId)).toMatchObject({ status: 'SUCCEEDED', output: { done: true } });
  });

  it('matches catchers in order, by error name, States.ALL last', async () => {
    const machine: StateMachineDefinition = {
      Comment: 'catchers',
      StartAt: 'Work',
      States: {
        Work: {
          Type: 'Task',
          Resource: 'work',
          Catch: [
            { ErrorEquals: ['RangeError'], ResultPath: '$.range', Next: 'Range' },
            { ErrorEquals: ['States.ALL'], ResultPath: '$.other', Next: 'Other' },
          ],
          End: true,
        },
        Range: { Type: 'Task', Resource: 'echo', End: true },
        Other: { Type: 'Task', Resource: 'echo', End: true },
      },
    };
    const run = async (error: Error) => {
      const runner = new LocalStateMachine(machine, { work: async () => { throw error; }, echo: async (state) => state }, { dir: dirOf() });
      await runner.start('x', { n: 1 });
      await runner.idle();
      return runner.describe('x')?.output;
    };
    expect(await run(new RangeError('r'))).toEqual({ n: 1, range: { Error: 'RangeError', Cause: expect.any(String) } });
    expect(await run(new Error('e'))).toEqual({ n: 1, other: { Error: 'Error', Cause: expect.any(String) } });
  });

  it('starts a name once, stops an execution on request, and resumes one a previous process left running', async () => {
    const dir = dirOf();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let finishes = 0;
    const first = new LocalStateMachine(definition, { part: async () => (await gate, {}), finish: async () => (finishes++, {}), fail: failNotCalled }, { dir });
    await first.start('a', input(1));
    await first.start('a', input(1));
    await first.start('b', input(1));
    await first.stop('b');
    // A process that goes away with 'a' still running: the task under way ends, no further state starts.
    const closing = first.close();
    release();
    await closing;
    expect(first.describe('b')?.status).toBe('ABORTED');
    expect(first.describe('a')?.status).toBe('RUNNING');
    expect(finishes).toBe(0);

    const second = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => (finishes++, {}), fail: failNotCalled }, { dir });
    second.resume();
    await until(() => second.describe('a')?.status === 'SUCCEEDED');
    await second.idle();
    expect(second.describe('a')?.status).toBe('SUCCEEDED');
    expect(second.describe('b')?.status).toBe('ABORTED');
    expect(finishes).toBe(1);
  });

  it('refuses a definition with states or fields it does not implement, catchers it cannot honour, or tasks it has no handler for', () => {
    const handlers = { part: async () => ({}), finish: async () => ({}), fail: async () => ({}) };
    const withChoice = { ...definition, States: { ...definition.States, Pick: { Type: 'Choice' } } } as never;
    expect(() => new LocalStateMachine(withChoice, handlers, { dir: dirOf() })).toThrow(/Choice/);
    expect(() => new LocalStateMachine(definition, { part: handlers.part, finish: handlers.finish }, { dir: dirOf() })).toThrow(/no local handler for fail/);
    const finish = definition.States.Finish as TaskState;
    const catching = (Catch: TaskState['Catch']) => ({ ...definition, States: { ...definition.States, Finish: { ...finish, Catch } } });
    expect(() => new LocalStateMachine(catching([{ ErrorEquals: ['States.Timeout'], ResultPath: '$.error', Next: 'FailJob' }]), handlers, { dir: dirOf() })).toThrow(/States.Timeout/);
    expect(() => new LocalStateMachine(catching([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Nowhere' }]), handlers, { dir: dirOf() })).toThrow(/Nowhere/);
    expect(() =>
      new LocalStateMachine(
        catching([
          { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'FailJob' },
          { ErrorEquals: ['Error'], ResultPath: '$.error', Next: 'FailJob' },
        ]),
        handlers,
        { dir: dirOf() },
      ),
    ).toThrow(/alone in the last catcher/);
  });
});
