import { describe, expect, it } from 'vitest';
import { Docex, pollWaits, RateLimitError, WaitTimeoutError, type Clock } from '../../../sdk/src/index.ts';

/** A clock whose sleeps return at once and are written down. */
function fakeClock(): Clock & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
    },
  };
}

/** A service that answers GET /v1/jobs/{id} from a script of answers, then repeats the last. */
function scriptedApi(answers: { status: number; body: unknown; headers?: Record<string, string> }[]) {
  let calls = 0;
  const fetch = async (_url: string | URL | Request, _init?: RequestInit) => {
    const answer = answers[Math.min(calls++, answers.length - 1)]!;
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls: () => calls };
}

const job = (status: string) => ({ status: 200, body: { id: 'j', filename: 'f', status } });

describe('waitForJob', () => {
  it('polls after 1 s, doubling to a 30 s cap, and gives up after 5 minutes', async () => {
    const clock = fakeClock();
    const api = scriptedApi([job('processing')]);
    const docex = new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: api.fetch, clock });
    const error = await docex.waitForJob('j').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toMatch(/after 300 s/);
    expect(clock.waits.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    // The last poll is made at 300 s, as the error says (issue #18 item 12: it gave up after 271 s).
    expect(clock.waits.reduce((a, b) => a + b, 0)).toBe(300_000);
    expect(clock.waits.at(-1)).toBe(29_000);
    expect(clock.waits).toEqual([...pollWaits()]);
    expect(api.calls()).toBe(clock.waits.length);
  });

  it('returns the job as soon as its status is terminal, failed ones included', async () => {
    const clock = fakeClock();
    const api = scriptedApi([job('pending'), job('processing'), job('failed')]);
    const docex = new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: api.fetch, clock });
    expect((await docex.waitForJob('j')).status).toBe('failed');
    expect(clock.waits).toEqual([1000, 2000, 4000]);
  });

  it('waits at least Retry-After after a 429', async () => {
    const clock = fakeClock();
    const limited = { status: 429, body: { error: 'rate_limited', message: 'slow down' }, headers: { 'retry-after': '9' } };
    const api = scriptedApi([limited, job('completed')]);
    const docex = new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: api.fetch, clock });
    await docex.waitForJob('j');
    expect(clock.waits).toEqual([1000, 9000]);
  });

  it('takes another schedule when asked', async () => {
    const clock = fakeClock();
    const docex = new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: scriptedApi([job('pending')]).fetch, clock });
    await expect(docex.waitForJob('j', { initialIntervalMs: 500, maxIntervalMs: 1000, timeoutMs: 4000 })).rejects.toBeInstanceOf(WaitTimeoutError);
    expect(clock.waits).toEqual([500, 1000, 1000, 1000, 500]);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const clock = fakeClock();
    const api = scriptedApi([job('pending')]);
    const docex = new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: api.fetch, clock });
    const waiting = docex.waitForJob('j', { signal: controller.signal, onPoll: () => controller.abort(new Error('user gave up')) });
    await expect(waiting).rejects.toThrow('user gave up');
    expect(api.calls()).toBe(1);
  });

  it('surfaces a 429 outside waitForJob as a RateLimitError with retryAfter', async () => {
    const api = scriptedApi([{ status: 429, body: { error: 'rate_limited', message: 'm' }, headers: { 'retry-after': '3' } }]);
    const error = await new Docex({ apiKey: 'k', baseUrl: 'http://x', fetch: api.fetch }).getJob('j').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3);
  });
});
