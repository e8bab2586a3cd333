import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDocuments, type Item, type QueryInput, type UpdateInput } from './dynamo-documents.ts';
import type { Job, JobStatus, QuotaRef } from '../core/job.ts';
import { sourcesOf } from '../core/job.ts';
import { invalidRequest } from '../core/errors.ts';
import { formatPageRanges, parsePageRanges } from '../core/extraction-config.ts';
import type {
  ApiKeyRecord,
  ApiKeys,
  DeliveryAttempt,
  DeliveryLog,
  Gate,
  JobFinish,
  JobQueries,
  Jobs,
  PollClaim,
  Project,
  Projects,
  Quotas,
  Reservation,
  SandboxIssues,
  Usage,
  WebhookEventClaims,
  WebhookEventRecord,
  WebhookRegistration,
  WebhookRegistrations,
} from '../core/ports.ts';

// One table (DESIGN.md section 5). Items are addressed by pk alone; sk is a
// constant type tag so that later item kinds can share a partition.
const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });
const apiKeyKey = (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' });
const projectKey = (id: string) => ({ pk: `PROJECT#${id}`, sk: 'PROJECT' });
const sandboxSlotKey = (ip: string, slot: number) => ({ pk: `SANDBOXIP#${ip}`, sk: `SLOT#${slot}` });
// Webhook registrations live in their project's partition; events and delivery
// attempts in their job's, so they share the job record's lifetime.
const webhookKey = (projectId: string, id: string) => ({ pk: `PROJECT#${projectId}`, sk: `WEBHOOK#${id}` });
const eventKey = (jobId: string, eventId: string) => ({ pk: `JOB#${jobId}`, sk: `EVENT#${eventId}` });
/** Zero-padded start time first, so a query returns attempts in the order they were made. */
const attemptKey = (a: DeliveryAttempt) => ({ pk: `JOB#${a.job_id}`, sk: `DELIVERY#${String(a.at).padStart(15, '0')}#${a.event_id}#${a.attempt}` });
/** Delivery history is kept as long as a job record (7 days). */
const DELIVERY_RETENTION_S = 7 * 24 * 3600;

const ITEM_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'last_polled_at']);
function strip<T>(item: Record<string, unknown>): T {
  // Number sets (a job's recorded chunks) come back as Sets; the domain sees sorted arrays.
  return Object.fromEntries(
    Object.entries(item)
      .filter(([k]) => !ITEM_ATTRIBUTES.has(k))
      .map(([k, v]) => [k, v instanceof Set ? [...(v as Set<number>)].sort((a, b) => a - b) : v]),
  ) as T;
}

/**
 * A job as stored: a page selection as compact ranges ("1-100000", not a
 * list of 100,000 numbers), so a job record stays far below DynamoDB's 400 KB
 * item limit whatever the selection.
 */
function jobItem(job: Job): Record<string, unknown> {
  const pages = job.config?.pages;
  return pages ? { ...job, config: { ...job.config, pages: formatPageRanges(pages) } } : { ...job };
}

function stripJob(item: Record<string, unknown>): Job {
  const job = strip<Job>(item);
  const pages = job.config?.pages as unknown;
  if (typeof pages === 'string') job.config = { ...job.config!, pages: parsePageRanges(pages) };
  return job;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

/** The condition that a job's status (#status) is one of `from`, with its values. */
function statusIn(from: JobStatus[]): { condition: string; values: Record<string, JobStatus> } {
  return {
    condition: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
    values: Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
  };
}

async function conditional<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Every record port over the one table: the ports are what the domain asks for, the table is one place. */
export class DynamoStore
  implements ApiKeys, Projects, SandboxIssues, Quotas, Jobs, JobQueries, WebhookRegistrations, WebhookEventClaims, DeliveryLog, Usage
{
  private readonly db: DynamoDocuments;

  constructor(
    client: DynamoDBClient,
    private readonly table: string,
  ) {
    this.db = new DynamoDocuments(client);
  }

  async createProject(project: Project, key: ApiKeyRecord): Promise<void> {
    // Project first: a crash in between leaves a project with no key, which is harmless.
    await this.db.put({ TableName: this.table, Item: { ...projectKey(project.id), ...project }, ConditionExpression: 'attribute_not_exists(pk)' });
    await this.putApiKey(key);
  }

  async putApiKey(key: ApiKeyRecord): Promise<void> {
    await this.db.put({
      TableName: this.table,
      Item: { ...apiKeyKey(key.key_hash), gsi1pk: `PROJECT#${key.project_id}#KEYS`, gsi1sk: String(key.created_at), ...key },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async getApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const { Item } = await this.db.get({ TableName: this.table, Key: apiKeyKey(keyHash), ConsistentRead: true });
    return Item ? strip<ApiKeyRecord>(Item) : null;
  }

  async claimSandboxIssue(ip: string, now: number, windowMs: number, max: number): Promise<Gate> {
    // A sliding window as `max` slots per IP: a slot is free when it was never
    // used or its key was issued more than a window ago. Each slot is taken by
    // one conditional write, so concurrent requests can never share a slot.
    for (let slot = 0; slot < max; slot++) {
      const taken = await conditional(() =>
        this.db.put({
          TableName: this.table,
          Item: { ...sandboxSlotKey(ip, slot), issued_at: now, expires_at: Math.ceil((now + windowMs) / 1000) },
          ConditionExpression: 'attribute_not_exists(pk) OR issued_at <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': now - windowMs },
        }),
      );
      if (taken !== null) return { ok: true };
    }
    const { Items = [] } = await this.db.query({
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': sandboxSlotKey(ip, 0).pk },
      ConsistentRead: true,
    });
    const oldest = Math.min(...Items.map((item) => item.issued_at as number));
    return { ok: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
  }

  async reservePages(ref: QuotaRef, pages: number): Promise<Reservation> {
    const Key = ref.kind === 'sandbox_key' ? apiKeyKey(ref.key_hash) : projectKey(ref.project_id);
    const taken = await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key,
        UpdateExpression: 'SET pages_remaining = pages_remaining - :n',
        ConditionExpression: 'attribute_exists(pages_remaining) AND pages_remaining >= :n',
        ExpressionAttributeValues: { ':n': pages },
      }),
    );
    if (taken) return 'reserved';
    if (ref.kind === 'sandbox_key') return 'insufficient';
    const { Item } = await this.db.get({ TableName: this.table, Key, ConsistentRead: true });
    if (!Item) throw new Error(`project ${ref.project_id} has a key but no project record`);
    return Item.pages_remaining === undefined ? 'unlimited' : 'insufficient';
  }

  async refundPages(ref: QuotaRef, pages: number): Promise<void> {
    if (pages <= 0) return;
    const Key = ref.kind === 'sandbox_key' ? apiKeyKey(ref.key_hash) : projectKey(ref.project_id);
    await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key,
        UpdateExpression: 'ADD pages_remaining :n',
        ConditionExpression: 'attribute_exists(pages_remaining)',
        ExpressionAttributeValues: { ':n': pages },
      }),
    );
  }

  async finishJob(finish: JobFinish): Promise<Job | 'insufficient' | null> {
    if (this.transactional !== false) {
      try {
        const done = await this.finishInTransaction(finish);
        this.transactional = true;
        return done;
      } catch (error) {
        if ((error as { name?: string })?.name !== 'UnknownOperationException') throw error;
        // The local server's embedded DynamoDB (dynalite) has no transactions.
        this.transactional = false;
      }
    }
    return this.finishInSteps(finish);
  }

  /** Whether finishJob ran as one transaction (null until it first ran): what the adapter suite checks of moto and AWS. */
  transactional: boolean | null = null;

  private async finishInTransaction(f: JobFinish): Promise<Job | 'insufficient' | null> {
    const fields = Object.entries({ ...f.patch, status: f.to }).filter(([k, v]) => v !== undefined && k !== 'id');
    const status = statusIn(f.from);
    const updates: UpdateInput[] = [
      {
        TableName: this.table,
        Key: jobKey(f.id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: status.condition,
        ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k])), '#status': 'status' },
        ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, v], i) => [`:f${i}`, v])), ...status.values },
      },
    ];
    const quotaAt = f.quota && f.shortfall !== 0 && (await this.limitedQuota(f.quota)) ? updates.length : -1;
    if (quotaAt >= 0) {
      const Key = f.quota!.kind === 'sandbox_key' ? apiKeyKey(f.quota!.key_hash) : projectKey(f.quota!.project_id);
      updates.push(
        f.shortfall > 0
          ? { TableName: this.table, Key, UpdateExpression: 'SET pages_remaining = pages_remaining - :n', ConditionExpression: 'attribute_exists(pages_remaining) AND pages_remaining >= :n', ExpressionAttributeValues: { ':n': f.shortfall } }
          : { TableName: this.table, Key, UpdateExpression: 'ADD pages_remaining :n', ConditionExpression: 'attribute_exists(pages_remaining)', ExpressionAttributeValues: { ':n': -f.shortfall } },
      );
    }
    if (f.usage.pages > 0) {
      updates.push({ TableName: this.table, Key: { pk: `PROJECT#${f.usage.project_id}`, sk: `USAGE#${f.usage.day}` }, UpdateExpression: 'ADD pages :n', ExpressionAttributeValues: { ':n': f.usage.pages } });
    }
    try {
      await this.db.transactUpdates(updates);
    } catch (error) {
      const reasons = (error as { name?: string; CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
      if ((error as { name?: string }).name !== 'TransactionCanceledException' || !reasons) throw error;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return null;
      if (quotaAt >= 0 && reasons[quotaAt]?.Code === 'ConditionalCheckFailed') return 'insufficient';
      throw error;
    }
    return this.getJob(f.id);
  }

  /** Whether the quota counts pages at all (a project without pages_remaining has no limit; a sandbox key always has one). */
  private async limitedQuota(ref: QuotaRef): Promise<boolean> {
    if (ref.kind === 'sandbox_key') return true;
    const { Item } = await this.db.get({ TableName: this.table, Key: projectKey(ref.project_id), ConsistentRead: true });
    return Item?.pages_remaining !== undefined;
  }

  /**
   * Without transactions (the local server's dynalite), the writes in the
   * order that never lets a job finish on pages its quota did not have: the
   * shortfall first, then the transition, then the usage and the refund of
   * an over-reservation, each after the write that finished the job, so a
   * redelivery that finds the job finished writes neither again. What a
   * crash between them can still cost is what the transaction removes: a
   * shortfall taken twice (a crash before the transition, then a
   * redelivery), or the job's usage or refund lost (a crash after it).
   */
  private async finishInSteps(f: JobFinish): Promise<Job | 'insufficient' | null> {
    if (f.quota && f.shortfall > 0 && (await this.reservePages(f.quota, f.shortfall)) === 'insufficient') return 'insufficient';
    const done = await this.transitionJob(f.id, f.to, f.patch, f.from);
    if (done && f.usage.pages > 0) await this.addUsage(f.usage.project_id, f.usage.day, f.usage.pages);
    if (f.quota && done && f.shortfall < 0) await this.refundPages(f.quota, -f.shortfall);
    if (f.quota && !done && f.shortfall > 0) await this.refundPages(f.quota, f.shortfall);
    return done;
  }

  /**
   * All or none: when any job cannot be written, the ones that were are
   * deleted again before the error is thrown, so a caller that is told the
   * submission failed leaves no job behind. (DynamoDB transactions would do
   * this in one call, but the local server's embedded DynamoDB has none.)
   */
  async putJobs(jobs: Job[]): Promise<void> {
    const written = await Promise.allSettled(
      jobs.map((job) =>
        this.db.put({
          TableName: this.table,
          Item: {
            ...jobKey(job.id),
            gsi1pk: `PROJECT#${job.project_id}#JOBS`,
            gsi1sk: `${String(job.created_at).padStart(15, '0')}#${job.id}`,
            ...jobItem(job),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    const failure = written.find((r) => r.status === 'rejected');
    if (!failure) return;
    await Promise.all(
      jobs.map(async (job, i) => {
        if (written[i]!.status !== 'fulfilled') return;
        try {
          await this.db.delete({ TableName: this.table, Key: jobKey(job.id) });
        } catch {
          // Cannot delete it: fail it instead, so it is never left pending with nothing to run it.
          await this.transitionJob(job.id, 'failed', { error_message: 'The submission could not be stored; submit the files again.', updated_at: job.created_at }).catch(() => null);
        }
      }),
    );
    throw failure.reason;
  }

  async getJob(id: string): Promise<Job | null> {
    const { Item } = await this.db.get({ TableName: this.table, Key: jobKey(id), ConsistentRead: true });
    return Item ? stripJob(Item) : null;
  }

  async transitionJob(id: string, to: JobStatus, patch: Partial<Job> = {}, from: JobStatus[] = sourcesOf(to)): Promise<Job | null> {
    const fields = Object.entries({ ...patch, status: to }).filter(([k, v]) => v !== undefined && k !== 'id');
    const names = Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k]));
    const values = Object.fromEntries(fields.map(([, v], i) => [`:f${i}`, v]));
    const status = statusIn(from);
    const result = await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: jobKey(id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: status.condition,
        ExpressionAttributeNames: { ...names, '#status': 'status' },
        ExpressionAttributeValues: { ...values, ...status.values },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result?.Attributes ? stripJob(result.Attributes) : null;
  }

  async claimJob(id: string, now: number): Promise<Job | null> {
    const status = statusIn(sourcesOf('processing'));
    const result = await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: jobKey(id),
        UpdateExpression: 'SET #status = :to, updated_at = :now ADD attempts :one',
        ConditionExpression: status.condition,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':to': 'processing', ':now': now, ':one': 1, ...status.values },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result?.Attributes ? stripJob(result.Attributes) : null;
  }

  async recordChunk(jobId: string, index: number, outcome: 'done' | 'failed', pages: number, now: number): Promise<Job | null> {
    // ADD to a number set with NOT contains on both sets: a redelivered chunk fails the
    // condition instead of counting twice (dynalite has no transactions; one item needs none).
    const result = await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: jobKey(jobId),
        UpdateExpression: 'ADD #set :index, pages_done :pages SET updated_at = :now',
        ConditionExpression: '#status = :chunking AND NOT contains(chunks_done, :i) AND NOT contains(chunks_failed, :i)',
        ExpressionAttributeNames: { '#status': 'status', '#set': outcome === 'done' ? 'chunks_done' : 'chunks_failed' },
        ExpressionAttributeValues: { ':index': new Set([index]), ':i': index, ':pages': pages, ':now': now, ':chunking': 'chunking' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result?.Attributes ? stripJob(result.Attributes) : null;
  }

  async claimPoll(jobId: string, projectId: string, now: number, minIntervalMs: number): Promise<PollClaim> {
    // project_id in the condition: a job that is missing or another project's fails it untouched.
    const claimed = await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: jobKey(jobId),
        UpdateExpression: 'SET last_polled_at = :now',
        ConditionExpression: 'project_id = :project AND (attribute_not_exists(last_polled_at) OR last_polled_at <= :cutoff)',
        ExpressionAttributeValues: { ':now': now, ':cutoff': now - minIntervalMs, ':project': projectId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if (claimed?.Attributes) return { ok: true, job: stripJob(claimed.Attributes) };
    const { Item } = await this.db.get({ TableName: this.table, Key: jobKey(jobId), ConsistentRead: true });
    const last = (Item?.last_polled_at as number | undefined) ?? now;
    return { ok: false, job: Item ? stripJob(Item) : null, retryAfterMs: Math.max(1, last + minIntervalMs - now) };
  }
  async putWebhook(registration: WebhookRegistration): Promise<void> {
    await this.db.put({
      TableName: this.table,
      Item: { ...webhookKey(registration.project_id, registration.id), ...registration },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  }

  async listWebhooks(projectId: string): Promise<WebhookRegistration[]> {
    const items = await this.queryAll(`PROJECT#${projectId}`, 'WEBHOOK#');
    return items.map((item) => strip<WebhookRegistration>(item));
  }

  async getWebhook(projectId: string, id: string): Promise<WebhookRegistration | null> {
    const { Item } = await this.db.get({ TableName: this.table, Key: webhookKey(projectId, id), ConsistentRead: true });
    return Item ? strip<WebhookRegistration>(Item) : null;
  }

  async deleteWebhook(projectId: string, id: string): Promise<boolean> {
    const deleted = await conditional(() =>
      this.db.delete({ TableName: this.table, Key: webhookKey(projectId, id), ConditionExpression: 'attribute_exists(pk)' }),
    );
    return deleted !== null;
  }

  async claimWebhookEvent(record: WebhookEventRecord, staleBefore: number): Promise<boolean> {
    const claimed = await conditional(() =>
      this.db.put({
        TableName: this.table,
        Item: { ...eventKey(record.job_id, record.event_id), ...record, expires_at: Math.floor(record.queued_at / 1000) + DELIVERY_RETENTION_S },
        ConditionExpression: 'attribute_not_exists(pk) OR (#state = :queued AND queued_at < :stale)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':queued': 'queued', ':stale': staleBefore },
      }),
    );
    return claimed !== null;
  }

  async releaseWebhookEvent(jobId: string, eventId: string): Promise<void> {
    await this.db.delete({
      TableName: this.table,
      Key: eventKey(jobId, eventId),
      ConditionExpression: '#state = :queued',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':queued': 'queued' },
    }).catch((error) => {
      if (!isConditionFailure(error)) throw error;
    });
  }

  async getWebhookEvent(jobId: string, eventId: string): Promise<WebhookEventRecord | null> {
    const { Item } = await this.db.get({ TableName: this.table, Key: eventKey(jobId, eventId), ConsistentRead: true });
    return Item ? strip<WebhookEventRecord>(Item) : null;
  }

  async setWebhookEventState(jobId: string, eventId: string, state: WebhookEventRecord['state'], now: number): Promise<void> {
    // Once delivered, always delivered: a late failure of a duplicate copy must not undo it.
    await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: eventKey(jobId, eventId),
        UpdateExpression: 'SET #state = :state, updated_at = :now, job_id = :job, event_id = :event, queued_at = if_not_exists(queued_at, :now), expires_at = if_not_exists(expires_at, :exp)',
        ConditionExpression: 'attribute_not_exists(#state) OR #state <> :delivered',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':state': state,
          ':now': now,
          ':job': jobId,
          ':event': eventId,
          ':delivered': 'delivered',
          ':exp': Math.floor(now / 1000) + DELIVERY_RETENTION_S,
        },
      }),
    );
  }

  async recordDeliveryAttempt(attempt: DeliveryAttempt): Promise<void> {
    await this.db.put({
      TableName: this.table,
      Item: { ...attemptKey(attempt), ...attempt, expires_at: Math.floor(attempt.at / 1000) + DELIVERY_RETENTION_S },
    });
  }

  async listDeliveryAttempts(jobId: string): Promise<DeliveryAttempt[]> {
    const items = await this.queryAll(`JOB#${jobId}`, 'DELIVERY#');
    return items.map((item) => strip<DeliveryAttempt & { expires_at?: number }>(item)).map(({ expires_at: _, ...a }) => a);
  }

  async listApiKeys(projectId: string): Promise<ApiKeyRecord[]> {
    const items = await this.queryPages({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}#KEYS` },
    });
    return items.map((item) => strip<ApiKeyRecord>(item));
  }

  async revokeApiKey(keyHash: string, now: number): Promise<void> {
    await this.db.update({
      TableName: this.table,
      Key: apiKeyKey(keyHash),
      UpdateExpression: 'SET revoked_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    });
  }

  async touchApiKey(keyHash: string, now: number, staleMs: number): Promise<void> {
    await conditional(() =>
      this.db.update({
        TableName: this.table,
        Key: apiKeyKey(keyHash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at <= :cutoff)',
        ExpressionAttributeValues: { ':now': now, ':cutoff': now - staleMs },
      }),
    );
  }

  async listJobs(
    projectId: string,
    query: { status?: JobStatus; limit: number; cursor?: string },
  ): Promise<{ jobs: Job[]; cursor: string | null }> {
    // A status filter applies after DynamoDB's Limit, so keep reading until
    // the page is full; the cursor then points just after the last job returned.
    const found: Record<string, unknown>[] = [];
    let start = query.cursor ? readCursor(query.cursor, `PROJECT#${projectId}#JOBS`) : undefined;
    let more = true;
    while (found.length < query.limit && more) {
      const page = await this.db.query({
        TableName: this.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: query.status ? '#status = :status' : undefined,
        ExpressionAttributeNames: query.status ? { '#status': 'status' } : undefined,
        ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}#JOBS`, ...(query.status ? { ':status': query.status } : {}) },
        ScanIndexForward: false,
        Limit: query.limit,
        ExclusiveStartKey: start,
      });
      found.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
      more = start !== undefined;
    }
    const jobs = found.slice(0, query.limit);
    const last = jobs.at(-1);
    const hasMore = found.length > query.limit || more;
    const cursor =
      hasMore && last
        ? Buffer.from(JSON.stringify({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk })).toString('base64url')
        : null;
    return { jobs: jobs.map((item) => stripJob(item)), cursor };
  }

  /** No port's: the domain adds usage only with the job that earned it (finishJob); the adapter suite checks it alone. */
  async addUsage(projectId: string, day: string, pages: number): Promise<void> {
    await this.db.update({
      TableName: this.table,
      Key: { pk: `PROJECT#${projectId}`, sk: `USAGE#${day}` },
      UpdateExpression: 'ADD pages :n',
      ExpressionAttributeValues: { ':n': pages },
    });
  }

  async getDailyUsage(projectId: string, month: string): Promise<Record<string, number>> {
    // The trailing dash keeps the query to day items (USAGE#2026-11-21), not a month item USAGE#2026-11.
    const items = await this.queryAll(`PROJECT#${projectId}`, `USAGE#${month}-`);
    return Object.fromEntries(items.map((item) => [String(item.sk).slice('USAGE#'.length), Number(item.pages ?? 0)]));
  }

  /** Every item of a partition whose sort key starts with `skPrefix`. */
  private queryAll(pk: string, skPrefix: string): Promise<Record<string, unknown>[]> {
    return this.queryPages({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ConsistentRead: true,
    });
  }

  /** Follows LastEvaluatedKey until the query has given every item. */
  private async queryPages(query: Omit<QueryInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.db.query({ TableName: this.table, ...query, ExclusiveStartKey: start });
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

}

/** A cursor this store gave out for this project's list; anything else is the client's mistake (a 400), never a 500. */
function readCursor(cursor: string, partition: string): Record<string, unknown> {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  const fields = key && typeof key === 'object' && !Array.isArray(key) ? Object.entries(key) : [];
  const valid =
    fields.length > 0 &&
    fields.length <= 4 &&
    fields.every(([name, value]) => ['pk', 'sk', 'gsi1pk', 'gsi1sk'].includes(name) && typeof value === 'string') &&
    (key as Record<string, unknown>).gsi1pk === partition;
  if (!valid) throw invalidRequest('cursor is not one this API gave out; pass next_cursor from the previous page unchanged.');
  return key as Record<string, unknown>;
}
