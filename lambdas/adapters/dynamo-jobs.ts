import type { Job, JobStatus } from '../core/job.ts';
import { sourcesOf } from '../core/job.ts';
import type { JobFinish, Jobs } from '../core/ports.ts';
import type { UpdateInput } from './dynamo-documents.ts';
import { DynamoQuotas, DynamoUsage, quotaKey } from './dynamo-quotas.ts';
import { conditional, type DynamoTable, jobItem, jobKey, statusIn, stripJob, usageKey } from './dynamo-table.ts';

export class DynamoJobs implements Jobs {
  /** The quota and usage records a finishing job writes with its transition. */
  readonly quotas: DynamoQuotas;
  readonly usage: DynamoUsage;

  constructor(private readonly t: DynamoTable) {
    this.quotas = new DynamoQuotas(t);
    this.usage = new DynamoUsage(t);
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
        TableName: this.t.name,
        Key: jobKey(f.id),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: status.condition,
        ExpressionAttributeNames: { ...Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k])), '#status': 'status' },
        ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, v], i) => [`:f${i}`, v])), ...status.values },
      },
    ];
    const quotaAt = f.quota && f.shortfall !== 0 && (await this.quotas.limited(f.quota)) ? updates.length : -1;
    if (quotaAt >= 0) {
      const Key = quotaKey(f.quota!);
      updates.push(
        f.shortfall > 0
          ? { TableName: this.t.name, Key, UpdateExpression: 'SET pages_remaining = pages_remaining - :n', ConditionExpression: 'attribute_exists(pages_remaining) AND pages_remaining >= :n', ExpressionAttributeValues: { ':n': f.shortfall } }
          : { TableName: this.t.name, Key, UpdateExpression: 'ADD pages_remaining :n', ConditionExpression: 'attribute_exists(pages_remaining)', ExpressionAttributeValues: { ':n': -f.shortfall } },
      );
    }
    if (f.usage.pages > 0) {
      updates.push({ TableName: this.t.name, Key: usageKey(f.usage.project_id, f.usage.day), UpdateExpression: 'ADD pages :n', ExpressionAttributeValues: { ':n': f.usage.pages } });
    }
    try {
      await this.t.db.transactUpdates(updates);
    } catch (error) {
      const reasons = (error as { name?: string; CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons;
      if ((error as { name?: string }).name !== 'TransactionCanceledException' || !reasons) throw error;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') return null;
      if (quotaAt >= 0 && reasons[quotaAt]?.Code === 'ConditionalCheckFailed') return 'insufficient';
      throw error;
    }
    return this.getJob(f.id);
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
    if (f.quota && f.shortfall > 0 && (await this.quotas.reservePages(f.quota, f.shortfall)) === 'insufficient') return 'insufficient';
    const done = await this.transitionJob(f.id, f.to, f.patch, f.from);
    if (done && f.usage.pages > 0) await this.usage.addUsage(f.usage.project_id, f.usage.day, f.usage.pages);
    if (f.quota && done && f.shortfall < 0) await this.quotas.refundPages(f.quota, -f.shortfall);
    if (f.quota && !done && f.shortfall > 0) await this.quotas.refundPages(f.quota, f.shortfall);
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
        this.t.db.put({
          TableName: this.t.name,
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
          await this.t.db.delete({ TableName: this.t.name, Key: jobKey(job.id) });
        } catch {
          // Cannot delete it: fail it instead, so it is never left pending with nothing to run it.
          await this.transitionJob(job.id, 'failed', { error_message: 'The submission could not be stored; submit the files again.', updated_at: job.created_at }).catch(() => null);
        }
      }),
    );
    throw failure.reason;
  }

  async getJob(id: string): Promise<Job | null> {
    const { Item } = await this.t.db.get({ TableName: this.t.name, Key: jobKey(id), ConsistentRead: true });
    return Item ? stripJob(Item) : null;
  }

  async transitionJob(id: string, to: JobStatus, patch: Partial<Job> = {}, from: JobStatus[] = sourcesOf(to)): Promise<Job | null> {
    const fields = Object.entries({ ...patch, status: to }).filter(([k, v]) => v !== undefined && k !== 'id');
    const names = Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k]));
    const values = Object.fromEntries(fields.map(([, v], i) => [`:f${i}`, v]));
    const status = statusIn(from);
    const result = await conditional(() =>
      this.t.db.update({
        TableName: this.t.name,
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
      this.t.db.update({
        TableName: this.t.name,
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
      this.t.db.update({
        TableName: this.t.name,
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
}
