// The polling schedule of SPEC.md section 4: wait 1 s, double each time, cap
// at 30 s, give up after 5 minutes in all. A 429 stretches the next wait to
// at least its Retry-After.

export interface PollOptions {
  /** First wait before polling, ms. Default 1000. */
  initialIntervalMs?: number;
  /** Longest wait between polls, ms. Default 30000. */
  maxIntervalMs?: number;
  /** Total time before giving up, ms. Default 300000 (5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export const DEFAULT_POLL = { initialIntervalMs: 1000, maxIntervalMs: 30_000, timeoutMs: 300_000 } as const;

/** The waits before each poll, with no Retry-After involved: 1, 2, 4, 8, 16, 30, 30, ... s, the last one cut so they add up to the timeout. */
export function* pollWaits(options: PollOptions = {}): Generator<number> {
  const { initialIntervalMs, maxIntervalMs, timeoutMs } = { ...DEFAULT_POLL, ...options };
  let elapsed = 0;
  let wait = initialIntervalMs;
  while (elapsed < timeoutMs) {
    const next = Math.min(wait, timeoutMs - elapsed);
    yield next;
    elapsed += next;
    wait = Math.min(wait * 2, maxIntervalMs);
  }
}
