import { DocexError, errorFromResponse, NetworkError, RateLimitError, WaitTimeoutError } from './errors.ts';
import { toNamedBlob, type FileInput } from './files.ts';
import { DEFAULT_POLL, realClock, type Clock, type PollOptions } from './polling.ts';
import { verifySignature } from './signature.ts';
import { TERMINAL_STATUSES, type InlineWebhook, type Job, type SandboxKey, type Submitted } from './types.ts';

export interface DocexOptions {
  /** A live key (kz_...) or a sandbox key (sk_sandbox_...). */
  apiKey?: string;
  /** Where the API is, e.g. https://abc.execute-api.eu-west-1.amazonaws.com/prod or http://127.0.0.1:3000. */
  baseUrl: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Replaces the wall clock of waitForJob (tests). */
  clock?: Clock;
}

export interface ExtractOptions {
  webhook?: InlineWebhook;
  /** Extraction settings; see the README's `config` field. */
  config?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface WaitOptions extends PollOptions {
  /** Called after every poll, e.g. to show progress. */
  onPoll?: (job: Job) => void;
}

export class Docex {
  readonly webhooks = { verify: verifySignature };
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly clock: Clock;

  constructor(private readonly options: DocexOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. new Docex({ apiKey, baseUrl: "http://127.0.0.1:3000" }).');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.clock = options.clock ?? realClock;
  }

  /** An anonymous trial key: 50 pages, 24 hours, bound to this machine's IP. */
  createSandboxKey(signal?: AbortSignal): Promise<SandboxKey> {
    return this.request<SandboxKey>('POST', '/v1/sandbox/key', { signal, anonymous: true });
  }

  /** Submits files; one job per file, ids in the order given. */
  async extract(files: FileInput | FileInput[], options: ExtractOptions = {}): Promise<Submitted> {
    const list = Array.isArray(files) ? files : [files];
    if (list.length === 0) throw new TypeError('extract() needs at least one file.');
    const form = new FormData();
    for (const file of list) {
      const { name, blob } = await toNamedBlob(file);
      form.append('file', blob, name);
    }
    if (options.webhook) form.append('webhook', JSON.stringify(options.webhook));
    if (options.config) form.append('config', JSON.stringify(options.config));
    return this.request<Submitted>('POST', '/v1/extract', { body: form, signal: options.signal });
  }

  getJob(id: string, signal?: AbortSignal): Promise<Job> {
    return this.request<Job>('GET', `/v1/jobs/${encodeURIComponent(id)}`, { signal });
  }

  /**
   * Polls until the job is terminal, as SPEC.md section 4 asks: 1 s, doubling,
   * capped at 30 s, 5 minutes in all (each configurable). A 429 waits at least
   * its Retry-After. Resolves with the terminal job (failed ones too: check
   * `status`); rejects with WaitTimeoutError, or the signal's reason on abort.
   */
  async waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    const { initialIntervalMs, maxIntervalMs, timeoutMs } = { ...DEFAULT_POLL, ...options };
    const deadline = this.clock.now() + timeoutMs;
    let wait = initialIntervalMs;
    for (;;) {
      // The last wait is cut to the deadline, so the last poll is made at it and the message's time is the time waited.
      const left = deadline - this.clock.now();
      if (left <= 0) {
        throw new WaitTimeoutError(`Job ${id} was not finished after ${timeoutMs / 1000} s; call waitForJob again or use a webhook.`, 0, 'wait_timeout');
      }
      await this.clock.sleep(Math.min(wait, left), options.signal);
      try {
        const job = await this.getJob(id, options.signal);
        options.onPoll?.(job);
        if ((TERMINAL_STATUSES as readonly string[]).includes(job.status)) return job;
        wait = Math.min(wait * 2, maxIntervalMs);
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        wait = Math.max(Math.min(wait * 2, maxIntervalMs), error.retryAfter * 1000);
      }
    }
  }

  private async request<T>(method: string, path: string, init: { body?: FormData; signal?: AbortSignal; anonymous?: boolean }): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (!init.anonymous) {
      if (!this.options.apiKey) throw new TypeError('This call needs an apiKey: new Docex({ apiKey, baseUrl }).');
      headers.authorization = `Bearer ${this.options.apiKey}`;
    }
    let response: Response;
    try {
      response = await this.fetch(`${this.baseUrl}${path}`, { method, headers, body: init.body, signal: init.signal });
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new NetworkError(`Could not reach ${this.baseUrl}: ${(error as Error).message}. Check the base URL and your network.`, 0, 'network_error');
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      if (response.ok) throw new DocexError(`The API answered ${response.status} with a body that is not JSON.`, response.status, 'invalid_response');
    }
    if (!response.ok) throw errorFromResponse(response.status, body, response.headers.get('retry-after'));
    return body as T;
  }
}
