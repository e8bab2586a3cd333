import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregationDefinition, AGGREGATION_MAP_CONCURRENCY, type TaskState } from '../../lambdas/core/aggregation-definition.ts';
import { LocalStateMachine, type TaskHandler } from '../../lib/local/state-machine.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docex-sfn-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const dirOf = () => path.join(root, String(n++));
const definition = aggregationDefinition({ part: 'part', finish: 'finish' });
const input = (count: number) => ({ job_id: 'job', project_id: 'p', parts: Array.from({ length: count }, (_, i) => ({ index: i, key: `k${i}` })) });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('the local Step Functions runner', () => {
  it('runs the aggregation definition: each part through the Map with its selector, their outputs to the final task in order', async () => {
    const seen: unknown[] = [];
    const machine = new LocalStateMachine(definition, {
      part: async (item) => (seen.push(item), { measured: (item as { part: { index: number } }).part.index }),
      finish: async (state) => state,
    }, { dir: dirOf() });
    await machine.start('job', input(3));
    await machine.idle();
    expect(seen).toContainEqual({ job_id: 'job', project_id: 'p', part: { index: 1, key: 'k1' } });
    expect(machine.describe('job')).toMatchObject({ status: 'SUCCEEDED', output: { job_id: 'job', parts: [{ measured: 0 }, { measured: 1 }, { measured: 2 }] } });
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
    const machine = new LocalStateMachine(definition, { part, finish: async () => ({}) }, { dir: dirOf() });
    await machine.start('job', input(AGGREGATION_MAP_CONCURRENCY * 3));
    await machine.idle();
    expect(peak).toBe(AGGREGATION_MAP_CONCURRENCY);
  });

  it('retries a failing task as the Retry rule says, then fails the execution', async () => {
    let calls = 0;
    const machine = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => { calls++; throw new Error('down'); } }, { dir: dirOf(), timeScale: 0.001 });
    await machine.start('job', input(1));
    await machine.idle();
    expect(calls).toBe(1 + (definition.States.Finish as TaskState).Retry![0]!.MaxAttempts);
    expect(machine.describe('job')).toMatchObject({ status: 'FAILED', error: expect.stringContaining('down') });
  });

  it('starts a name once, stops an execution on request, and resumes one a previous process left running', async () => {
    const dir = dirOf();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let finishes = 0;
    const first = new LocalStateMachine(definition, { part: async () => (await gate, {}), finish: async () => (finishes++, {}) }, { dir });
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

    const second = new LocalStateMachine(definition, { part: async () => ({}), finish: async () => (finishes++, {}) }, { dir });
    second.resume();
    await until(() => second.describe('a')?.status === 'SUCCEEDED');
    await second.idle();
    expect(second.describe('a')?.status).toBe('SUCCEEDED');
    expect(second.describe('b')?.status).toBe('ABORTED');
    expect(finishes).toBe(1);
  });

  it('refuses a definition with states or fields it does not implement, or tasks it has no handler for', () => {
    const withChoice = { ...definition, States: { ...definition.States, Pick: { Type: 'Choice' } } } as never;
    expect(() => new LocalStateMachine(withChoice, { part: async () => ({}), finish: async () => ({}) }, { dir: dirOf() })).toThrow(/Choice/);
    expect(() => new LocalStateMachine(definition, { part: async () => ({}) }, { dir: dirOf() })).toThrow(/no local handler for finish/);
  });
});
