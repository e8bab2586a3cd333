import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Job, JobStatus, QuotaRef } from '../core/job.ts';
import { sourcesOf } from '../core/job.ts';
import type { ApiKeyRecord, Gate, Project, Reservation, ResultRef, Store } from '../core/ports.ts';

// One table (DESIGN.md section 5). Items are addressed by pk alone; sk is a
// constant type tag so that later item kinds can share a partition.
const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });
const apiKeyKey = (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' });
const projectKey = (id: string) => ({ pk: `PROJECT#${id}`, sk: 'PROJECT' });
const sandboxSlotKey = (ip: string, slot: number) => ({ pk: `SANDBOXIP#${ip}`, sk: `SLOT#${slot}` });
const resultKey = (projectId: string, jobId: string) => ({ pk: `RESULT#${projectId}#${jobId}`, sk: 'RESULT' });

const ITEM_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'last_polled_at']);
function strip<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !ITEM_ATTRIBUTES.has(k))) as T;
}

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';

async function conditional<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

export class DynamoStore implements Store {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async createProject(project: Project, key: ApiKeyRecord): Promise<void> {
    // Project first: a crash in between leaves a project with no key, which is harmless.
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...projectKey(project.id), ...project }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    await this.putApiKey(key);
  }

  async putApiKey(key: ApiKeyRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...apiKeyKey(key.key_hash), gsi1pk: `PROJECT#${key.project_id}#KEYS`, gsi1sk: String(key.created_at), ...key },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: apiKeyKey(keyHash), ConsistentRead: true }));
    return Item ? strip<ApiKeyRecord>(Item) : null;
  }

  async claimSandboxIssue(ip: string, now: number, windowMs: number, max: number): Promise<Gate> {
    // A sliding window as `max` slots per IP: a slot is free when it was never
    // used or its key was issued more than a window ago. Each slot is taken by
    // one conditional write, so concurrent requests can never share a slot.
    for (let slot = 0; slot < max; slot++) {
      const taken = await conditional(() =>
        this.db.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...sandboxSlotKey(ip, slot), issued_at: now, expires_at: Math.ceil((now + windowMs) / 1000) },
            ConditionExpression: 'attribute_not_exists(pk) OR issued_at <= :cutoff',
            ExpressionAttributeValues: { ':cutoff': now - windowMs },
          }),
        ),
      );
      if (taken) return { ok: true };
    }
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': sandboxSlotKey(ip, 0).pk },
        ConsistentRead: true,
      }),
    );
    const oldest = Math.min(...Items.map((item) => item.issued_at as number));
    return { ok: false, retryAfterMs: Math.max(1, oldest + windowMs - now) };
  }

  async reservePages(ref: QuotaRef, pages: number): Promise<Reservation> {
    const Key = ref.kind === 'sandbox_key' ? apiKeyKey(ref.key_hash) : projectKey(ref.project_id);
    const taken = await conditional(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key,
          UpdateExpression: 'SET pages_remaining = pages_remaining - :n',
          ConditionExpression: 'attribute_exists(pages_remaining) AND pages_remaining >= :n',
          ExpressionAttributeValues: { ':n': pages },
        }),
      ),
    );
    if (taken) return 'reserved';
    if (ref.kind === 'sandbox_key') return 'insufficient';
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key, ConsistentRead: true }));
    if (!Item) throw new Error(`project ${ref.project_id} has a key but no project record`);
    return Item.pages_remaining === undefined ? 'unlimited' : 'insufficient';
  }

  async refundPages(ref: QuotaRef, pages: number): Promise<void> {
    if (pages <= 0) return;
    const Key = ref.kind === 'sandbox_key' ? apiKeyKey(ref.key_hash) : projectKey(ref.project_id);
    await conditional(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key,
          UpdateExpression: 'ADD pages_remaining :n',
          ConditionExpression: 'attribute_exists(pages_remaining)',
          ExpressionAttributeValues: { ':n': pages },
        }),
      ),
    );
  }

  async putJobs(jobs: Job[]): Promise<void> {
    await Promise.all(
      jobs.map((job) =>
        this.db.send(
          new PutCommand({
            TableName: this.table,
            Item: {
              ...jobKey(job.id),
              gsi1pk: `PROJECT#${job.project_id}#JOBS`,
              gsi1sk: `${String(job.created_at).padStart(15, '0')}#${job.id}`,
              ...job,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      ),
    );
  }

  async getJob(id: string): Promise<Job | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: jobKey(id), ConsistentRead: true }));
    return Item ? strip<Job>(Item) : null;
  }

  async transitionJob(id: string, to: JobStatus, patch: Partial<Job> = {}, from: JobStatus[] = sourcesOf(to)): Promise<Job | null> {
    const fields = Object.entries({ ...patch, status: to }).filter(([k, v]) => v !== undefined && k !== 'id');
    const names = Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k]));
    const values: Record<string, unknown> = Object.fromEntries(fields.map(([, v], i) => [`:f${i}`, v]));
    from.forEach((status, i) => (values[`:from${i}`] = status));
    const result = await conditional(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: jobKey(id),
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
          ConditionExpression: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
          ExpressionAttributeNames: { ...names, '#status': 'status' },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return result?.Attributes ? strip<Job>(result.Attributes) : null;
  }

  async claimPoll(jobId: string, now: number, minIntervalMs: number): Promise<Gate> {
    const claimed = await conditional(() =>
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: jobKey(jobId),
          UpdateExpression: 'SET last_polled_at = :now',
          ConditionExpression: 'attribute_not_exists(last_polled_at) OR last_polled_at <= :cutoff',
          ExpressionAttributeValues: { ':now': now, ':cutoff': now - minIntervalMs },
        }),
      ),
    );
    if (claimed) return { ok: true };
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: jobKey(jobId), ConsistentRead: true }));
    const last = (Item?.last_polled_at as number | undefined) ?? now;
    return { ok: false, retryAfterMs: Math.max(1, last + minIntervalMs - now) };
  }

  async putResultRef(ref: ResultRef): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...resultKey(ref.project_id, ref.job_id), ...ref } }));
  }

  async getResultRef(projectId: string, jobId: string): Promise<ResultRef | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.table, Key: resultKey(projectId, jobId), ConsistentRead: true }));
    return Item ? strip<ResultRef>(Item) : null;
  }
}
