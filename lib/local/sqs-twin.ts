// Local twin of an Amazon SQS standard queue: the semantics the handlers rely
// on in AWS (visibility timeout, receive count, DelaySeconds, redrive to a
// dead-letter queue, stale receipt handles), optionally persisted to disk so
// a restart of the local server loses no work.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface MessageAttributeValue {
  DataType: 'String' | 'Number' | 'Binary';
  StringValue?: string;
  BinaryValue?: Uint8Array;
}

export interface QueueTwinOptions {
  name: string;
  /** Directory to persist messages in (created if missing); null = memory only. */
  dir: string | null;
  /** Default visibility for receives. */
  visibilityTimeoutSeconds: number;
  /** With deadLetter: the redrive policy. */
  maxReceiveCount?: number;
  deadLetter?: QueueTwin;
  /** Default 1; multiplies every message wait (delay, visibility). */
  timeScale?: number;
  /** Default 1 MiB, counted like SQS: body + each attribute's name, data type and value bytes. */
  maxMessageBytes?: number;
  /** ms clock, default Date.now. */
  now?: () => number;
}

export interface ReceivedMessage {
  messageId: string;
  receiptHandle: string;
  body: string;
  receiveCount: number;
  sentTimestamp: number;
  firstReceiveTimestamp: number;
  messageAttributes: Record<string, MessageAttributeValue>;
}

interface StoredMessage {
  id: string;
  body: string;
  attributes: Record<string, MessageAttributeValue>;
  sentTimestamp: number;
  firstReceiveTimestamp: number; // 0 until the first receive
  receiveCount: number;
  visibleAt: number;
  /** The handle of the latest receive; null while the message has never been received (or its receiver is gone). */
  receiptHandle: string | null;
}

const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_SECONDS = 43_200;

export class QueueTwin {
  readonly name: string;
  readonly arn: string;
  readonly url: string;

  private readonly dir: string | null;
  private readonly visibilitySeconds: number;
  private readonly maxReceiveCount: number | undefined;
  private readonly deadLetter: QueueTwin | undefined;
  private readonly timeScale: number;
  private readonly maxMessageBytes: number;
  private readonly now: () => number;
  /** Insertion order doubles as send order, which keeps the visible-message sort cheap and stable. */
  private readonly messages = new Map<string, StoredMessage>();
  private readonly waiters = new Set<() => void>();
  /** One chain per message so its writes and final unlink land on disk in order. */
  private readonly writes = new Map<string, Promise<void>>();
  private isClosed = false;

  constructor(opts: QueueTwinOptions) {
    if (opts.deadLetter && !opts.maxReceiveCount) throw new Error(`queue ${opts.name}: deadLetter needs maxReceiveCount`);
    this.name = opts.name;
    this.arn = `arn:aws:sqs:local:000000000000:${opts.name}`;
    this.url = `http://sqs.local/000000000000/${opts.name}`;
    this.dir = opts.dir;
    this.visibilitySeconds = opts.visibilityTimeoutSeconds;
    this.maxReceiveCount = opts.maxReceiveCount;
    this.deadLetter = opts.deadLetter;
    this.timeScale = opts.timeScale ?? 1;
    this.maxMessageBytes = opts.maxMessageBytes ?? 1_048_576;
    this.now = opts.now ?? Date.now;
    if (this.dir) this.load(this.dir);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async send(input: {
    body: string;
    attributes?: Record<string, MessageAttributeValue>;
    delaySeconds?: number;
  }): Promise<{ messageId: string }> {
    this.assertOpen();
    const attributes = input.attributes ?? {};
    const size = messageBytes(input.body, attributes);
    if (size > this.maxMessageBytes) {
      throw new Error(
        `queue ${this.name}: message is ${size} bytes, over the limit of ${this.maxMessageBytes} bytes`,
      );
    }
    const delay = input.delaySeconds ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
      throw new Error(`queue ${this.name}: delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
    }
    const now = this.now();
    const m: StoredMessage = {
      id: randomUUID(),
      body: input.body,
      attributes,
      sentTimestamp: now,
      firstReceiveTimestamp: 0,
      receiveCount: 0,
      visibleAt: now + this.scaled(delay),
      receiptHandle: null,
    };
    await this.admit(m);
    return { messageId: m.id };
  }

  async receive(input: {
    max: number;
    /** Long-poll time in real ms (not scaled: it is how long the caller is willing to block). */
    waitMs?: number;
    visibilityTimeoutSeconds?: number;
    /** Ends a long poll early, with no messages. */
    signal?: AbortSignal;
  }): Promise<ReceivedMessage[]> {
    const visibility = input.visibilityTimeoutSeconds ?? this.visibilitySeconds;
    checkVisibility(this.name, visibility);
    const deadline = Date.now() + (input.waitMs ?? 0);
    for (;;) {
      this.assertOpen();
      if (input.signal?.aborted) return [];
      // take() is synchronous, so no send can slip in between finding nothing and starting to wait.
      const { got, written } = this.take(Math.max(1, input.max), visibility);
      if (written) await written;
      if (got.length > 0) return got;
      if (written) continue; // we yielded, so a send may have come and gone unseen: look again
      const left = deadline - Date.now();
      if (left <= 0) return [];
      await this.waitForChange(Math.min(left, this.nextVisibleInMs()), input.signal);
    }
  }

  async delete(receiptHandle: string): Promise<void> {
    const m = this.messages.get(messageIdOf(receiptHandle));
    // A stale handle (the message was received again since) deletes nothing, as in SQS.
    if (!m || m.receiptHandle !== receiptHandle) return;
    this.messages.delete(m.id);
    await this.unpersist(m.id);
  }

  async changeVisibility(receiptHandle: string, visibilityTimeoutSeconds: number): Promise<void> {
    checkVisibility(this.name, visibilityTimeoutSeconds);
    const m = this.messages.get(messageIdOf(receiptHandle));
    if (!m || m.receiptHandle !== receiptHandle) {
      throw new Error(`queue ${this.name}: receipt handle is unknown or stale`);
    }
    const now = this.now();
    if (m.visibleAt <= now) throw new Error(`queue ${this.name}: message ${m.id} is not in flight`);
    const before = m.visibleAt;
    m.visibleAt = now + this.scaled(visibilityTimeoutSeconds);
    // A long poll that began while the message was hidden timed its wait by the old
    // visibility; an earlier one must wake it to time its wait again.
    if (m.visibleAt < before) this.wake();
    await this.persist(m);
  }

  /**
   * Moves every message that is not in flight to `target`, as SQS's dead-letter
   * queue redrive (StartMessageMoveTask) does: the receive count starts over.
   */
  async moveMessagesTo(target: QueueTwin): Promise<number> {
    this.assertOpen();
    const now = this.now();
    const movable = [...this.messages.values()].filter((m) => m.visibleAt <= now || !m.receiptHandle);
    for (const m of movable) this.messages.delete(m.id);
    await Promise.all(movable.map((m) => this.redrive(m, target)));
    return movable.length;
  }

  stats(): { visible: number; inFlight: number; delayed: number } {
    const now = this.now();
    const s = { visible: 0, inFlight: 0, delayed: 0 };
    for (const m of this.messages.values()) {
      if (m.visibleAt <= now) s.visible++;
      else if (m.receiptHandle) s.inFlight++;
      else s.delayed++;
    }
    return s;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.wake();
    await Promise.all(this.writes.values());
  }

  /** Takes a message in, either a fresh send or one redriven from another queue. */
  private async admit(m: StoredMessage): Promise<void> {
    this.assertOpen();
    this.messages.set(m.id, m);
    if (m.visibleAt <= this.now()) this.wake();
    await this.persist(m);
  }

  private take(max: number, visibilitySeconds: number): { got: ReceivedMessage[]; written: Promise<unknown> | null } {
    const now = this.now();
    // Map order is send order and the sort is stable, so equal visibility times stay FIFO.
    const visible = [...this.messages.values()].filter((m) => m.visibleAt <= now).sort((a, b) => a.visibleAt - b.visibleAt);
    const out: ReceivedMessage[] = [];
    const pending: Promise<void>[] = [];
    for (const m of visible) {
      if (out.length >= max) break;
      if (this.deadLetter && this.maxReceiveCount && m.receiveCount >= this.maxReceiveCount) {
        this.messages.delete(m.id);
        pending.push(this.redrive(m, this.deadLetter));
        continue;
      }
      m.receiveCount++;
      if (!m.firstReceiveTimestamp) m.firstReceiveTimestamp = now;
      m.receiptHandle = `${m.id}.${randomUUID()}`;
      m.visibleAt = now + this.scaled(visibilitySeconds);
      pending.push(this.persist(m));
      out.push({
        messageId: m.id,
        receiptHandle: m.receiptHandle,
        body: m.body,
        receiveCount: m.receiveCount,
        sentTimestamp: m.sentTimestamp,
        firstReceiveTimestamp: m.firstReceiveTimestamp,
        messageAttributes: m.attributes,
      });
    }
    return { got: out, written: pending.length > 0 ? Promise.all(pending) : null };
  }

  private async redrive(m: StoredMessage, dlq: QueueTwin): Promise<void> {
    // The message id and sent time travel with it, as in SQS; the receive history starts over.
    const moved: StoredMessage = { ...m, receiveCount: 0, firstReceiveTimestamp: 0, receiptHandle: null, visibleAt: this.now() };
    // Written to the DLQ before it leaves here: a crash in between duplicates rather than loses it.
    await dlq.admit(moved);
    await this.unpersist(m.id);
  }

  private waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
      signal?.addEventListener('abort', done);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /**
   * Time until the next hidden message becomes visible, so a long poll wakes for it without polling.
   * Called after take() found nothing visible, so one visible now turned visible since: 0, look again.
   */
  private nextVisibleInMs(): number {
    const now = this.now();
    let next = Infinity;
    for (const m of this.messages.values()) next = Math.min(next, Math.max(0, m.visibleAt - now));
    // setTimeout clamps anything over 2^31-1 ms to 1 ms, which would busy-loop.
    return Math.min(next, 2 ** 31 - 1);
  }

  private scaled(seconds: number): number {
    return seconds * 1000 * this.timeScale;
  }

  private assertOpen(): void {
    if (this.isClosed) throw new Error(`queue ${this.name} is closed`);
  }

  private file(id: string): string {
    return path.join(this.dir!, `${id}.json`);
  }

  private persist(m: StoredMessage): Promise<void> {
    if (!this.dir) return Promise.resolve();
    const json = JSON.stringify(toJson(m)); // snapshot now: later changes get their own write
    return this.chain(m.id, async () => {
      const tmp = `${this.file(m.id)}.${randomUUID()}.tmp`;
      await fs.promises.writeFile(tmp, json);
      await fs.promises.rename(tmp, this.file(m.id));
    });
  }

  private unpersist(id: string): Promise<void> {
    if (!this.dir) return Promise.resolve();
    return this.chain(id, () => fs.promises.rm(this.file(id), { force: true }));
  }

  private chain(id: string, write: () => Promise<void>): Promise<void> {
    const next = (this.writes.get(id) ?? Promise.resolve()).then(write);
    const settled: Promise<void> = next
      .catch(() => {})
      .then(() => {
        if (this.writes.get(id) === settled) this.writes.delete(id);
      });
    this.writes.set(id, settled);
    return next;
  }

  private load(dir: string): void {
    fs.mkdirSync(dir, { recursive: true });
    const now = this.now();
    const stored: StoredMessage[] = [];
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      // A temp file is a write the previous process did not finish; the rename never happened.
      if (name.endsWith('.tmp')) fs.rmSync(file, { force: true });
      else if (name.endsWith('.json')) stored.push(fromJson(JSON.parse(fs.readFileSync(file, 'utf8'))));
    }
    stored.sort((a, b) => a.sentTimestamp - b.sentTimestamp);
    for (const m of stored) {
      // The process that had it in flight is gone, so nobody will delete it: deliver it again now.
      const wasInFlight = m.receiptHandle !== null && m.visibleAt > now;
      m.receiptHandle = null;
      if (wasInFlight) {
        m.visibleAt = now;
        this.persist(m).catch((err) => console.error(`queue ${this.name}: could not persist ${m.id}`, err));
      }
      this.messages.set(m.id, m);
    }
  }
}

function messageIdOf(receiptHandle: string): string {
  return receiptHandle.slice(0, receiptHandle.lastIndexOf('.'));
}

function checkVisibility(queue: string, seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_VISIBILITY_SECONDS) {
    throw new Error(`queue ${queue}: visibility timeout must be an integer from 0 to ${MAX_VISIBILITY_SECONDS} seconds, got ${seconds}`);
  }
}

function messageBytes(body: string, attributes: Record<string, MessageAttributeValue>): number {
  let n = Buffer.byteLength(body, 'utf8');
  for (const [name, a] of Object.entries(attributes)) {
    n += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(a.DataType, 'utf8');
    n += a.BinaryValue ? a.BinaryValue.byteLength : Buffer.byteLength(a.StringValue ?? '', 'utf8');
  }
  return n;
}

type JsonAttribute = { DataType: MessageAttributeValue['DataType']; StringValue?: string; BinaryValue?: string };

function toJson(m: StoredMessage) {
  const attributes: Record<string, JsonAttribute> = {};
  for (const [k, a] of Object.entries(m.attributes)) {
    attributes[k] = {
      DataType: a.DataType,
      StringValue: a.StringValue,
      BinaryValue: a.BinaryValue && Buffer.from(a.BinaryValue.buffer, a.BinaryValue.byteOffset, a.BinaryValue.byteLength).toString('base64'),
    };
  }
  return { ...m, attributes };
}

function fromJson(j: ReturnType<typeof toJson>): StoredMessage {
  const attributes: Record<string, MessageAttributeValue> = {};
  for (const [k, a] of Object.entries(j.attributes)) {
    const v: MessageAttributeValue = { DataType: a.DataType };
    if (a.StringValue !== undefined) v.StringValue = a.StringValue;
    if (a.BinaryValue !== undefined) v.BinaryValue = new Uint8Array(Buffer.from(a.BinaryValue, 'base64'));
    attributes[k] = v;
  }
  return { ...j, attributes };
}
